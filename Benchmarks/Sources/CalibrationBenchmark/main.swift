// swift run -c release calibration-benchmark [solve|photos] (from Benchmarks/)
//
//   solve    20, 50 and 100 views of a 9x6 chessboard at 1280x720 (corners projected through a
//            known camera with 0.3 px of noise): the solve's time here and with Python's
//            cv2.calibrateCamera / calibrateCameraExtended on the same corners.
//   photos   the shared chessboard photos (../shared/images/chessboard): the camera found here and
//            by cv2.calibrateCamera from the same corners, side by side.
//
// Python is Debian's /usr/bin/python3 with python3-opencv, running Scripts/calibration_baseline.py.

import Calibration
import Foundation
import MarkerDetection

let benchmarks = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
let script = benchmarks.appendingPathComponent("Scripts/calibration_baseline.py").path

struct Baseline: Decodable {
    let fx: Double, fy: Double, cx: Double, cy: Double, rms: Double
    let calibrate_s: [Double]
    let extended_s: [Double]
}

func python(_ views: [CalibrationView], model: CameraModel, repeats: Int) throws -> Baseline {
    let path = NSTemporaryDirectory() + "calibration-benchmark-\(getpid()).json"
    defer { try? FileManager.default.removeItem(atPath: path) }
    try CalibrationViewsFile.json(views).write(toFile: path, atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = [script, path, model.rawValue, "\(repeats)"]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return try JSONDecoder().decode(Baseline.self, from: data)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// A uniform number in 0..<1 from a 64-bit mix (SplitMix64).
struct Random {
    var state: UInt64
    mutating func next() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
    }
    mutating func gaussian() -> Double {
        (-2 * log(max(next(), 1e-300))).squareRoot() * cos(2 * .pi * next())
    }
}

/// `count` views of a 9x6 chessboard (one unit per square) in random poses: up to 40 degrees of
/// tilt, anywhere in the frame, 8 to 16 squares away; corners outside the image are left out.
func syntheticViews(_ count: Int, camera: Camera, seed: UInt64) throws -> [CalibrationView] {
    var random = Random(state: seed)
    var views: [CalibrationView] = []
    while views.count < count {
        let a = (random.next() - 0.5) * 80 * .pi / 180, b = (random.next() - 0.5) * 80 * .pi / 180
        let c = (random.next() - 0.5) * 40 * .pi / 180
        let z = 8 + 8 * random.next()
        let x = (random.next() - 0.5) * z * 0.9, y = (random.next() - 0.5) * z * 0.5
        // R = Rz(c) Ry(b) Rx(a)
        let (ca, sa, cb, sb, cc, sc) = (cos(a), sin(a), cos(b), sin(b), cos(c), sin(c))
        let r = [
            cc * cb, cc * sb * sa - sc * ca, cc * sb * ca + sc * sa,
            sc * cb, sc * sb * sa + cc * ca, sc * sb * ca - cc * sa,
            -sb, cb * sa, cb * ca,
        ]
        var objects: [ObjectPoint] = [], inCamera: [ObjectPoint] = [], ids: [Int] = []
        for row in 0..<6 {
            for column in 0..<9 {
                let u = Double(column) - 4, v = Double(row) - 2.5
                objects.append(ObjectPoint(x: Double(column), y: Double(row)))
                inCamera.append(ObjectPoint(x: r[0] * u + r[1] * v + x, y: r[3] * u + r[4] * v + y, z: r[6] * u + r[7] * v + z))
                ids.append(row * 9 + column)
            }
        }
        let images = try camera.project(inCamera)
        var points: [CalibrationView.Correspondence] = []
        for index in images.indices {
            let p = images[index]
            guard p.x >= 0, p.y >= 0, p.x < Double(camera.imageSize.width), p.y < Double(camera.imageSize.height) else { continue }
            let noisy = ImagePoint(x: p.x + 0.3 * random.gaussian(), y: p.y + 0.3 * random.gaussian())
            points.append(.init(id: ids[index], object: objects[index], image: noisy))
        }
        guard points.count >= 30 else { continue }
        views.append(CalibrationView(name: "view_\(views.count)", imageSize: camera.imageSize, points: points))
    }
    return views
}

func solve() throws {
    let camera = Camera(
        model: .pinhole, imageSize: ImageSize(width: 1280, height: 720), fx: 910, fy: 905, cx: 641.5, cy: 362,
        distortion: [-0.12, 0.05, 0.0005, -0.0003, 0])
    let repeats = 3
    print("solve time, 9x6 chessboard views at 1280x720, 0.3 px noise; median of \(repeats) runs")
    print("(CameraCalibration.calibrate: OpenCV's solve alone (refinement: nil) and refined by Ceres Solver (the")
    print(" default); solves: 2 when the outlier rule dropped views and solved again)")
    print("views  corners  model     OpenCV only  OpenCV+Ceres  solves  cv2.calibrateCamera  cv2...Extended  fx here / cv2")
    for model in [CameraModel.pinhole, .rational] {
        for count in [20, 50, 100] {
            let views = try syntheticViews(count, camera: camera, seed: UInt64(count))
            var plainTimes: [Double] = [], times: [Double] = []
            var result: CalibrationResult?
            for _ in 0..<repeats {
                var start = ContinuousClock.now
                _ = try CameraCalibration.calibrate(views, model: model, refinement: nil)
                plainTimes.append(seconds(ContinuousClock.now - start))
                start = ContinuousClock.now
                result = try CameraCalibration.calibrate(views, model: model)
                times.append(seconds(ContinuousClock.now - start))
            }
            let baseline = try python(views, model: model, repeats: repeats)
            let corners = views.map(\.points.count).reduce(0, +)
            print(String(
                format: "%5d  %7d  %-8@  %8.1f ms  %9.1f ms  %6d  %16.1f ms  %11.1f ms  %.6f", count, corners,
                model.rawValue as NSString, median(plainTimes) * 1e3, median(times) * 1e3,
                result?.finalRun == nil ? 1 : 2, median(baseline.calibrate_s) * 1e3, median(baseline.extended_s) * 1e3,
                (result?.camera.fx ?? 0) / baseline.fx))
            fflush(nil)
        }
    }
}

func photos() throws {
    let folder = benchmarks.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("shared/images/chessboard").path
    let pictures = try PictureSet(folder: folder, pattern: Pattern(parsing: "chessboard:9x6"))
    print("\(folder): \(pictures.views.count) views, \(pictures.views.map(\.points.count).reduce(0, +)) corners")
    for model in [CameraModel.pinhole, .rational] {
        let result = try pictures.calibrate(model)
        let plain = try CameraCalibration.calibrate(pictures.views, model: model, refinement: nil)
        let baseline = try python(pictures.views, model: model, repeats: 1)
        print("model \(model)  OpenCV+Ceres (calibrate)   OpenCV only   cv2.calibrateCamera   difference to cv2")
        let rows: [(String, Double, Double, Double)] = [
            ("fx", result.camera.fx, plain.camera.fx, baseline.fx), ("fy", result.camera.fy, plain.camera.fy, baseline.fy),
            ("cx", result.camera.cx, plain.camera.cx, baseline.cx), ("cy", result.camera.cy, plain.camera.cy, baseline.cy),
            ("rms", result.run.rms, plain.run.rms, baseline.rms),
        ]
        for (name, ours, opencv, theirs) in rows {
            print(String(
                format: "  %-4@  %22.6f  %12.6f  %20.6f  %+10.5f%%", name as NSString, ours, opencv, theirs,
                (ours / theirs - 1) * 100))
        }
    }
}

switch CommandLine.arguments.dropFirst().first ?? "solve" {
case "solve": try solve()
case "photos": try photos()
default:
    FileHandle.standardError.write(Data("usage: calibration-benchmark [solve|photos]\n".utf8))
    exit(2)
}
