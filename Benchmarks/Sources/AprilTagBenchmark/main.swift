// Recall and time per frame of the two AprilTag paths on the same images: libapriltag 3
// (`apriltag:tag36h11` with the decimation it chooses by image size, and with decimate=2, its
// library's default, and decimate=1, full resolution, for every image) and OpenCV's ArUco detector
// with its AprilTag dictionary (`aruco:DICT_APRILTAG_36h11`). See BENCHMARKS.md.
//
//   swift run -c release apriltag-benchmark [ROUNDS]
//
// Images: the shared photo apriltag/cubes.jpg (12 tags, libapriltag's ground truth), and sheets of
// 4x3 tag36h11 tags drawn by PrintableTarget.renderTagSheet, seen at an angle through a pinhole
// camera at 640x480, 1280x720 and 1920x1080, blurred and with noise, so the tags' positions are
// known. A tag counts as found when a detection with its id has its centre within 3 px of the
// truth. The paths take turns frame by frame for ROUNDS rounds; OpenCV and libapriltag run with
// one thread (MarkerDetector.openCVThreadCount = 1).

import Foundation
import MarkerDetection
import Pixels

let rounds = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 20 : 20
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("shared/images").path

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("apriltag-benchmark: \(message)\n".utf8))
    exit(1)
}

/// One benchmark image and where its tags' centres are.
struct Scene {
    let name: String
    let image: PixelBuffer
    let centres: [(id: Int, x: Double, y: Double)]
}

/// A 3x3 matrix mapping source pixels to target pixels.
struct Projection {
    let m: [Double]
    func apply(_ x: Double, _ y: Double) -> (Double, Double) {
        let w = m[6] * x + m[7] * y + m[8]
        return ((m[0] * x + m[1] * y + m[2]) / w, (m[3] * x + m[4] * y + m[5]) / w)
    }
    func times(_ o: Projection) -> Projection {
        var r = [Double](repeating: 0, count: 9)
        for i in 0..<3 { for j in 0..<3 { for k in 0..<3 { r[3 * i + j] += m[3 * i + k] * o.m[3 * k + j] } } }
        return Projection(m: r)
    }
    var inverse: Projection {
        let a = m
        let c0 = a[4] * a[8] - a[5] * a[7], c1 = a[5] * a[6] - a[3] * a[8], c2 = a[3] * a[7] - a[4] * a[6]
        let d = a[0] * c0 + a[1] * c1 + a[2] * c2
        return Projection(m: [
            c0 / d, (a[2] * a[7] - a[1] * a[8]) / d, (a[1] * a[5] - a[2] * a[4]) / d,
            c1 / d, (a[0] * a[8] - a[2] * a[6]) / d, (a[2] * a[3] - a[0] * a[5]) / d,
            c2 / d, (a[1] * a[6] - a[0] * a[7]) / d, (a[0] * a[4] - a[1] * a[3]) / d,
        ])
    }
}

/// The sheet tilted by `tilt` degrees about the vertical axis, filling about 70% of the frame width.
func view(_ sheet: PixelBuffer, width: Int, height: Int, tilt: Double, seed: UInt64) throws -> (PixelBuffer, Projection) {
    let s = 1 / Double(sheet.width)
    let centre = Projection(m: [s, 0, -0.5, 0, s, -Double(sheet.height) * s / 2, 0, 0, 1])
    let b = tilt * .pi / 180
    let focal = 1.1 * Double(width), distance = 1.1 * 1.1 / 0.7
    let plane = Projection(m: [cos(b), 0, 0, 0, 1, 0, -sin(b), 0, distance])
    let camera = Projection(m: [focal, 0, Double(width - 1) / 2, 0, focal, Double(height - 1) / 2, 0, 0, 1])
    let h = camera.times(plane).times(centre)
    let inverse = h.inverse
    var random = seed
    func noise() -> Double {  // roughly Gaussian, sigma 4
        var sum = 0.0
        for _ in 0..<4 {
            random = random &* 6364136223846793005 &+ 1442695040888963407
            sum += Double(random >> 11) / Double(1 << 53)
        }
        return (sum - 2) * 4 * 1.732
    }
    let image = try sheet.withUnsafeBytes { source in
        try PixelBuffer(width: width, height: height, format: .gray8) { target in
            for v in 0..<height {
                for u in 0..<width {
                    var sum = 0.0
                    for (du, dv) in [(-0.25, -0.25), (0.25, -0.25), (-0.25, 0.25), (0.25, 0.25)] {
                        let (x, y) = inverse.apply(Double(u) + du, Double(v) + dv)
                        let xi = Int(x.rounded()), yi = Int(y.rounded())
                        sum += xi >= 0 && yi >= 0 && xi < sheet.width && yi < sheet.height
                            ? Double(source[yi * sheet.rowStride + xi]) : 150
                    }
                    target[v * width + u] = UInt8(max(0, min(255, (sum / 4 + noise()).rounded())))
                }
            }
        }
    }
    return (image, h)
}

func scenes() throws -> [Scene] {
    var result: [Scene] = []
    let truth = try String(contentsOfFile: root + "/apriltag/cubes.truth.txt", encoding: .utf8)
        .split(separator: "\n").map { line -> (id: Int, x: Double, y: Double) in
            let n = line.split(whereSeparator: { " ,()".contains($0) }).compactMap { Double($0) }
            return (Int(n[0]), (n[1] + n[3] + n[5] + n[7]) / 4 - 0.5, (n[2] + n[4] + n[6] + n[8]) / 4 - 0.5)
        }
    result.append(Scene(name: "cubes.jpg 799x533", image: try ImageFile.read(root + "/apriltag/cubes.jpg"), centres: truth))
    let sheet = try PrintableTarget.renderTagSheet(family: .tag36h11, columns: 4, rows: 3, width: 1600, height: 1200, margin: 40)
    // Tag centres on the sheet: find them by detecting on the sheet itself (drawn, so exact).
    let flat = try MarkerDetector(pattern: Pattern(parsing: "apriltag:tag36h11")).detect(sheet)
    guard flat.markers.count == 12 else { fail("the drawn sheet shows \(flat.markers.count) tags, not 12") }
    for (index, (width, height)) in [(640, 480), (1280, 720), (1920, 1080)].enumerated() {
        let (image, h) = try view(sheet, width: width, height: height, tilt: 40, seed: UInt64(index + 1))
        let centres = flat.markers.map { marker -> (id: Int, x: Double, y: Double) in
            let corners = marker.corners.map { h.apply($0.x, $0.y) }  // the mean of the corners seen
            return (marker.id, corners.map(\.0).reduce(0, +) / 4, corners.map(\.1).reduce(0, +) / 4)
        }
        result.append(Scene(name: "12 tags at 40 deg, \(width)x\(height)", image: image, centres: centres))
    }
    return result
}

MarkerDetector.openCVThreadCount = 1
let paths = [
    "apriltag:tag36h11", "apriltag:tag36h11:decimate=2", "apriltag:tag36h11:decimate=1", "aruco:DICT_APRILTAG_36h11",
]
let detectors = try paths.map { try MarkerDetector(pattern: Pattern(parsing: $0)) }
let all = try scenes()
var times = [[Double]](repeating: [], count: paths.count * all.count)
var found = [Int](repeating: 0, count: paths.count * all.count)
var extra = [Int](repeating: 0, count: paths.count * all.count)
for round in 0..<rounds {
    for (s, scene) in all.enumerated() {
        for p in 0..<paths.count {
            let path = (p + round) % paths.count  // every path takes every place in the order alike
            let detection = try detectors[path].detect(scene.image)
            times[path * all.count + s].append(Double(detection.duration.components.attoseconds) / 1e15
                + Double(detection.duration.components.seconds) * 1e3)
            if round == 0 {
                var unmatched = detection.markers
                var hits = 0
                for truth in scene.centres {
                    if let i = unmatched.firstIndex(where: {
                        $0.id == truth.id && hypot($0.centre.x - truth.x, $0.centre.y - truth.y) <= 3
                    }) {
                        unmatched.remove(at: i)
                        hits += 1
                    }
                }
                found[path * all.count + s] = hits
                extra[path * all.count + s] = unmatched.count
            }
        }
    }
}

print("rounds: \(rounds), OpenCV/libapriltag threads: \(MarkerDetector.openCVThreadCount)")
print("image                               path                           recall    other  median ms  p90 ms")
for (s, scene) in all.enumerated() {
    for (p, path) in paths.enumerated() {
        let samples = times[p * all.count + s].sorted()
        let median = samples[samples.count / 2], p90 = samples[samples.count * 9 / 10]
        let recall = "\(found[p * all.count + s])/\(scene.centres.count)"
        print(
            scene.name.padding(toLength: 36, withPad: " ", startingAt: 0)
                + path.padding(toLength: 31, withPad: " ", startingAt: 0)
                + recall.padding(toLength: 10, withPad: " ", startingAt: 0)
                + String(extra[p * all.count + s]).padding(toLength: 7, withPad: " ", startingAt: 0)
                + String(format: "%9.2f  %6.2f", median, p90))
    }
}
