// swift run -c release calibration-benchmark [solve|photos|rig|uncertainty] (from Benchmarks/)
//
//   solve    20, 50 and 100 views of a 9x6 chessboard at 1280x720 (corners projected through a
//            known camera with 0.3 px of noise): the whole solve's CPU time here (calibrate: the
//            closed-form start, Ceres Solver's refinement with the outlier rules, the covariance),
//            against mrcal 2.2's whole calibration as mrcal-calibrate-cameras makes it
//            (Scripts/mrcal_solve_baseline.py) and Python's cv2.calibrateCamera on the same corners,
//            and each one's distance from the true camera; the rational model beside it.
//   uncertainty  20, 50 and 100 such views: the solve with and without the projection-uncertainty
//            map and cross-validation, beside cv2.calibrateCamera and mrcal 2.2 (Scripts/mrcal_baseline.py).
//   once VIEWS [MODEL]  one solve of VIEWS such views (pinhole unless MODEL says), for instruction
//            counts: valgrind --tool=callgrind .build/release/calibration-benchmark once 100
//   real FOLDER PATTERN FOCAL  a real folder of chessboard pictures (PATTERN chessboard:CxR): the
//            whole solve's CPU time here (calibrate, the views' spread included) against mrcal 2.2's
//            whole calibration (Scripts/mrcal_solve_baseline.py, seeded from FOCAL px) and Python's
//            cv2.calibrateCamera on the same corners, median of 5; and each one's camera
//   photos   the shared chessboard photos (../shared/images/chessboard): the camera found here and
//            by cv2.calibrateCamera from the same corners, side by side.
//   rig      rigs of 2 and 4 cameras (1280x720, 3 squares apart side by side, turned 4 degrees
//            each) and 50 sets of a 9x6 chessboard, 0.3 px of noise: RigCalibration.calibrate's
//            time (each camera's own solve, then the joint one), and for the pair Python's
//            cv2.calibrateCamera for each camera then cv2.stereoCalibrate on the same corners
//            (Scripts/rig_baseline.py).
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
    let calibrate_cpu_s: [Double]
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

/// The process's CPU time so far, in seconds (every thread's: OpenCV's and Ceres Solver's too).
func processSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// Views as mrcal's side reads them: the ids go with the points (corner id = row x columns + column).
func writeViewsWithIDs(_ views: [CalibrationView], imageSize: ImageSize, to path: String, columns: Int = 9, rows: Int = 6) throws {
    let file: [String: Any] = [
        "image_size": [imageSize.width, imageSize.height], "columns": columns, "rows": rows,
        "views": views.map { view in
            ["ids": view.points.map(\.id), "object": view.points.map { [$0.object.x, $0.object.y, $0.object.z] },
             "image": view.points.map { [$0.image.x, $0.image.y] }]
        },
    ]
    try JSONSerialization.data(withJSONObject: file).write(to: URL(fileURLWithPath: path))
}

func runJSON(_ arguments: [String]) throws -> [String: Any] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
}

func solve() throws {
    let camera = Camera(
        model: .pinhole, imageSize: ImageSize(width: 1280, height: 720), fx: 910, fy: 905, cx: 641.5, cy: 362,
        distortion: [-0.12, 0.05, 0.0005, -0.0003, 0])
    let repeats = 3
    print("whole solve, 9x6 chessboard views at 1280x720, 0.3 px noise; CPU seconds of each side's process while it")
    print("solves, median of \(repeats) runs, the sides taking turns; error: largest of |fx|, |fy|, |cx|, |cy| from the truth, px")
    print("load average at start: \(loadAverage())")
    print("views  model     here (solves)      error  | mrcal 2.2 whole      error  outliers | cv2.calibrateCamera  error")
    for model in [CameraModel.pinhole, .rational] {
        for count in [20, 50, 100] {
            let views = try syntheticViews(count, camera: camera, seed: UInt64(count))
            let path = NSTemporaryDirectory() + "solve-benchmark-\(getpid()).json"
            defer { try? FileManager.default.removeItem(atPath: path) }
            try writeViewsWithIDs(views, imageSize: camera.imageSize, to: path)
            var times: [Double] = [], mrcalTimes: [Double] = []
            var result: CalibrationResult?
            var mrcal: [String: Any] = [:]
            for _ in 0..<repeats {
                let start = processSeconds()
                result = try CameraCalibration.calibrate(views, model: model)
                times.append(processSeconds() - start)
                if model == .pinhole {
                    mrcal = try runJSON([benchmarks.appendingPathComponent("Scripts/mrcal_solve_baseline.py").path, path, "1000", "1"])
                    mrcalTimes += (mrcal["cpu_s"] as? [Double]) ?? []
                }
            }
            let baseline = try python(views, model: model, repeats: repeats)
            func error(_ fx: Double, _ fy: Double, _ cx: Double, _ cy: Double) -> Double {
                max(abs(fx - camera.fx), abs(fy - camera.fy), abs(cx - camera.cx), abs(cy - camera.cy))
            }
            let ours = result!.camera
            let mrcalError = error(mrcal["fx"] as? Double ?? .nan, mrcal["fy"] as? Double ?? .nan,
                                   mrcal["cx"] as? Double ?? .nan, mrcal["cy"] as? Double ?? .nan)
            print(String(
                format: "%5d  %-8@  %8.0f ms (%d)  %8.3f  | %10.0f ms  %9.3f  %8@ | %14.0f ms  %8.3f", count,
                model.rawValue as NSString, median(times) * 1e3, result?.finalRun == nil ? 1 : 2,
                error(ours.fx, ours.fy, ours.cx, ours.cy),
                mrcalTimes.isEmpty ? Double.nan : median(mrcalTimes) * 1e3, model == .pinhole ? mrcalError : .nan,
                (mrcal["outliers"].map { "\($0)" } ?? "-") as NSString,
                median(baseline.calibrate_cpu_s) * 1e3, error(baseline.fx, baseline.fy, baseline.cx, baseline.cy)))
            fflush(nil)
        }
    }
    print("load average at end: \(loadAverage())")
}

func loadAverage() -> String {
    let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?"
    return text.split(separator: " ").prefix(3).joined(separator: " ")
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

/// The motion into a camera whose centre is `x` squares to the right of the first, turned `yaw` degrees.
func rigPose(x: Double, yawDegrees: Double) -> RigidTransform {
    let turn = RigidTransform(rotation: [0, -yawDegrees * .pi / 180, 0], translation: [0, 0, 0])
    return RigidTransform(rotation: turn.rotation, translation: turn.apply([x, 0, 0]).map { -$0 })
}

/// Each camera's views of `sets` random board poses (in the first camera's frame, the board's
/// centre between the cameras), kept where 30 corners or more fall in its image; views `set_NN`.
func rigViews(cameras: Int, sets: Int, camera: Camera, seed: UInt64) throws -> [[CalibrationView]] {
    var random = Random(state: seed)
    let poses = (0..<cameras).map { rigPose(x: 3 * Double($0), yawDegrees: 4 * Double($0)) }
    var result: [[CalibrationView]] = Array(repeating: [], count: cameras)
    for set in 0..<sets {
        let a = (random.next() - 0.5) * 70 * .pi / 180, b = (random.next() - 0.5) * 70 * .pi / 180
        let c = (random.next() - 0.5) * 40 * .pi / 180
        let z = 12 + 8 * random.next()
        let x = 1.5 * Double(cameras - 1) + (random.next() - 0.5) * z * 0.6, y = (random.next() - 0.5) * z * 0.4
        let (ca, sa, cb, sb, cc, sc) = (cos(a), sin(a), cos(b), sin(b), cos(c), sin(c))
        let r = [
            cc * cb, cc * sb * sa - sc * ca, cc * sb * ca + sc * sa,
            sc * cb, sc * sb * sa + cc * ca, sc * sb * ca - cc * sa,
            -sb, cb * sa, cb * ca,
        ]
        for index in 0..<cameras {
            var objects: [ObjectPoint] = [], inCamera: [ObjectPoint] = [], ids: [Int] = []
            for row in 0..<6 {
                for column in 0..<9 {
                    let u = Double(column) - 4, v = Double(row) - 2.5
                    objects.append(ObjectPoint(x: Double(column), y: Double(row)))
                    let p = poses[index].apply([r[0] * u + r[1] * v + x, r[3] * u + r[4] * v + y, r[6] * u + r[7] * v + z])
                    inCamera.append(ObjectPoint(x: p[0], y: p[1], z: p[2]))
                    ids.append(row * 9 + column)
                }
            }
            let images = try camera.project(inCamera)
            var points: [CalibrationView.Correspondence] = []
            for offset in images.indices {
                let p = images[offset]
                let dx = 0.3 * random.gaussian(), dy = 0.3 * random.gaussian()
                guard p.x >= 0, p.y >= 0, p.x < Double(camera.imageSize.width), p.y < Double(camera.imageSize.height) else { continue }
                points.append(.init(id: ids[offset], object: objects[offset], image: ImagePoint(x: p.x + dx, y: p.y + dy)))
            }
            guard points.count >= 30 else { continue }
            result[index].append(CalibrationView(name: String(format: "set_%02d.png", set), imageSize: camera.imageSize, points: points))
        }
    }
    return result
}

struct RigBaseline: Decodable {
    let R: [Double], T: [Double], rms: Double, sets: Int
    let calibrate_s: [Double]
    let stereo_s: [Double]
}

func rig() throws {
    let camera = Camera(
        model: .pinhole, imageSize: ImageSize(width: 1280, height: 720), fx: 910, fy: 905, cx: 641.5, cy: 362,
        distortion: [-0.12, 0.05, 0.0005, -0.0003, 0])
    let repeats = 3
    print("rig solve time, 50 sets of a 9x6 chessboard at 1280x720, 0.3 px noise; median of \(repeats) runs")
    print("cameras  views  corners  RigCalibration  joint RMS  cv2 calibrateCamera x2 + stereoCalibrate  (stereoCalibrate alone)  rotation / translation apart")
    for cameras in [2, 4] {
        let views = try rigViews(cameras: cameras, sets: 50, camera: camera, seed: 50 + UInt64(cameras))
        var times: [Double] = []
        var result: RigCalibrationResult?
        for _ in 0..<repeats {
            let start = ContinuousClock.now
            result = try RigCalibration.calibrate(views.enumerated().map {
                RigCameraViews(name: "cam\($0.offset)", model: .pinhole, views: $0.element)
            })
            times.append(seconds(ContinuousClock.now - start))
        }
        let count = views.map(\.count).reduce(0, +), corners = views.flatMap { $0 }.map(\.points.count).reduce(0, +)
        var line = String(
            format: "%7d  %5d  %7d  %11.1f ms  %6.3f px", cameras, count, corners, median(times) * 1e3, result?.rms ?? .nan)
        if cameras == 2, let result {
            let path = NSTemporaryDirectory() + "rig-benchmark-\(getpid()).json"
            defer { try? FileManager.default.removeItem(atPath: path) }
            let right = Dictionary(uniqueKeysWithValues: views[1].map { ($0.name, $0) })
            var sets: [[String: Any]] = []
            for view in views[0] {
                guard let other = right[view.name] else { continue }
                let ids = Dictionary(uniqueKeysWithValues: other.points.map { ($0.id, $0.image) })
                let common = view.points.filter { ids[$0.id] != nil }
                guard common.count >= 6 else { continue }
                sets.append([
                    "object": common.map { [$0.object.x, $0.object.y, $0.object.z] },
                    "left": common.map { [$0.image.x, $0.image.y] }, "right": common.map { [ids[$0.id]!.x, ids[$0.id]!.y] },
                ])
            }
            try JSONSerialization.data(withJSONObject: ["size": [1280, 720], "sets": sets]).write(to: URL(fileURLWithPath: path))
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = [benchmarks.appendingPathComponent("Scripts/rig_baseline.py").path, path, "\(repeats)"]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            let baseline = try JSONDecoder().decode(RigBaseline.self, from: data)
            let theirs = RigidTransform(matrix: baseline.R, translation: baseline.T)
            let ours = result.cameras[1].extrinsics.pose
            let apart = zip(ours.translation, baseline.T).map { ($0 - $1) * ($0 - $1) }.reduce(0, +).squareRoot() / theirs.length
            line += String(
                format: "  %21.1f ms (%d sets)  %13.1f ms  %.4f deg / %.3f%%", median(baseline.calibrate_s) * 1e3, baseline.sets,
                median(baseline.stereo_s) * 1e3, ours.composed(after: theirs.inverse).angleDegrees, apart * 100)
        }
        print(line)
        fflush(nil)
    }
}

/// The solve with and without the projection-uncertainty map and cross-validation, beside
/// cv2.calibrateCamera and mrcal 2.2 (Scripts/mrcal_baseline.py) on the same corners.
func uncertainty() throws {
    let camera = Camera(
        model: .pinhole, imageSize: ImageSize(width: 1280, height: 720), fx: 910, fy: 905, cx: 641.5, cy: 362,
        distortion: [-0.12, 0.05, 0.0005, -0.0003, 0])
    print("solve time with and without the views' spread, the projection-uncertainty map and cross-validation, 9x6")
    print("chessboard at 1280x720, 0.3 px noise, pinhole; CPU time of the process, median of 5 runs (without: calibrate with no pose covariance and")
    print("no spread; with: calibrate with the views' spread (10 groups left out in turn), the map over a 32x18 grid,")
    print("then cross-validation's three random splits with their maps and the held-out fits)")
    print("views  without   spread + map  + cross-val  ratio  verdict     | cv2.calibrateCamera  mrcal optimize  mrcal map")
    for count in [20, 50, 100] {
        let views = try syntheticViews(count, camera: camera, seed: UInt64(count))
        var withouts: [Double] = [], mapOnlys: [Double] = [], withs: [Double] = []
        var report: CalibrationReport?
        for _ in 0..<5 {
            var start = processSeconds()
            let plain = try CameraCalibration.calibrate(views, model: .pinhole, poseCovariance: false, spreadGroups: nil)
            _ = CalibrationReport(result: plain, pattern: "chessboard:9x6")
            withouts.append(processSeconds() - start)
            start = processSeconds()
            var full = CalibrationReport(result: try CameraCalibration.calibrate(views, model: .pinhole), pattern: "chessboard:9x6")
            mapOnlys.append(processSeconds() - start)
            full.crossValidate(true)
            withs.append(processSeconds() - start)
            report = full
        }
        let without = median(withouts), mapOnly = median(mapOnlys), with = median(withs)
        // mrcal needs each corner's place on the board: the ids go with the views.
        let path = NSTemporaryDirectory() + "uncertainty-benchmark-\(getpid()).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try writeViewsWithIDs(views, imageSize: camera.imageSize, to: path)
        let mrcal = try runJSON([benchmarks.appendingPathComponent("Scripts/mrcal_baseline.py").path, path]) as? [String: Double] ?? [:]
        print(String(
            format: "%5d  %8.0f ms  %8.0f ms  %12.0f ms  %5.2f  %-10@  | %16.0f ms  %11.0f ms  %6.0f ms   (centre: %.3f px here, %.3f px mrcal)",
            count, without * 1e3, mapOnly * 1e3, with * 1e3, with / without,
            (report?.crossValidation?.verdict.key ?? "-") as NSString, (mrcal["cv2_s"] ?? .nan) * 1e3,
            (mrcal["optimize_s"] ?? .nan) * 1e3, (mrcal["uncertainty_s"] ?? .nan) * 1e3,
            report?.uncertainty?.centre ?? .nan, mrcal["centre_px"] ?? .nan))
        fflush(nil)
    }
}

/// One solve of `count` views and nothing else, for instruction counts (valgrind --tool=callgrind).
/// Fisheye views are of a fisheye lens (Kannala-Brandt, 110 degrees across), the others of the
/// solve benchmark's pinhole camera.
func solveOnce(_ count: Int, model: CameraModel) throws {
    let camera = model == .fisheye
        ? Camera(model: .fisheye, imageSize: ImageSize(width: 1280, height: 720), fx: 450, fy: 450, cx: 640.5, cy: 359,
                 distortion: [0.02, -0.01, 0.003, -0.0008])
        : Camera(model: .pinhole, imageSize: ImageSize(width: 1280, height: 720), fx: 910, fy: 905, cx: 641.5, cy: 362,
                 distortion: [-0.12, 0.05, 0.0005, -0.0003, 0])
    let result = try CameraCalibration.calibrate(try syntheticViews(count, camera: camera, seed: UInt64(count)), model: model)
    print(String(format: "%d views, %@: fx %.6f, RMS %.6f px", count, model.rawValue as NSString, result.camera.fx, result.run.rms))
}

/// A real folder's whole solve here, by mrcal 2.2 and by cv2.calibrateCamera, on the same corners.
func real(folder: String, pattern text: String, focal: Double) throws {
    let pattern = try Pattern(parsing: text)
    guard case .chessboard(let board) = pattern else {
        throw NSError(domain: "calibration-benchmark", code: 2, userInfo: [NSLocalizedDescriptionKey: "real needs a chessboard:CxR pattern"])
    }
    let pictures = try PictureSet(folder: folder, pattern: pattern)
    let views = pictures.views
    let size = views[0].imageSize
    print("\(folder): \(views.count) views, \(views.map(\.points.count).reduce(0, +)) corners, \(size.width)x\(size.height)")
    print("load average at start: \(loadAverage())")
    let path = NSTemporaryDirectory() + "real-benchmark-\(getpid()).json"
    defer { try? FileManager.default.removeItem(atPath: path) }
    try writeViewsWithIDs(views, imageSize: size, to: path, columns: board.columns, rows: board.rows)
    var times: [Double] = [], mrcalTimes: [Double] = []
    var result: CalibrationResult?
    var mrcal: [String: Any] = [:]
    for _ in 0..<5 {
        let start = processSeconds()
        result = try CameraCalibration.calibrate(views, model: .pinhole)
        times.append(processSeconds() - start)
        mrcal = try runJSON([benchmarks.appendingPathComponent("Scripts/mrcal_solve_baseline.py").path, path, "\(focal)", "1"])
        mrcalTimes += (mrcal["cpu_s"] as? [Double]) ?? []
    }
    let baseline = try python(views, model: .pinhole, repeats: 5)
    let ours = result!.camera
    print(String(format: "here (calibrate):      %7.0f ms CPU  fx %.2f fy %.2f cx %.2f cy %.2f  RMS %.3f px  (%@)", median(times) * 1e3,
                 ours.fx, ours.fy, ours.cx, ours.cy, result!.run.rms, (result!.finalRun == nil ? "one solve" : "two solves") as NSString))
    print(String(format: "mrcal 2.2 whole:       %7.0f ms CPU  fx %.2f fy %.2f cx %.2f cy %.2f  RMS %.3f px  (%@ outliers)",
                 median(mrcalTimes) * 1e3, mrcal["fx"] as? Double ?? .nan, mrcal["fy"] as? Double ?? .nan,
                 mrcal["cx"] as? Double ?? .nan, mrcal["cy"] as? Double ?? .nan, mrcal["rms"] as? Double ?? .nan,
                 "\(mrcal["outliers"] ?? "-")" as NSString))
    print(String(format: "cv2.calibrateCamera:   %7.0f ms CPU  fx %.2f fy %.2f cx %.2f cy %.2f  RMS %.3f px", median(baseline.calibrate_cpu_s) * 1e3,
                 baseline.fx, baseline.fy, baseline.cx, baseline.cy, baseline.rms))
    print("load average at end: \(loadAverage())")
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first ?? "solve" {
case "solve": try solve()
case "once" where arguments.count > 1:
    try solveOnce(Int(arguments[1]) ?? 100, model: arguments.count > 2 ? CameraModel(rawValue: arguments[2]) ?? .pinhole : .pinhole)
case "real" where arguments.count > 3: try real(folder: arguments[1], pattern: arguments[2], focal: Double(arguments[3]) ?? 1000)
case "photos": try photos()
case "rig": try rig()
case "uncertainty": try uncertainty()
default:
    FileHandle.standardError.write(Data("usage: calibration-benchmark [solve|photos|rig|uncertainty|once VIEWS [MODEL]|real FOLDER PATTERN FOCAL]\n".utf8))
    exit(2)
}
