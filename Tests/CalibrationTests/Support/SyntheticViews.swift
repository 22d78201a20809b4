import Calibration
import Foundation
import MarkerDetection
import MarkerDetectionTestSupport
import Pixels

/// Ground truth for calibration tests: a known camera, board poses, and the views they make, either
/// rendered and detected, or projected straight from the board's corners.
enum SyntheticViews {
    /// A board pose: turned `tiltX` degrees about the horizontal axis, then `tiltY` about the
    /// vertical one, its centre at `(x, y, z)` in the camera's frame (in board widths).
    struct Pose {
        var tiltX: Double
        var tiltY: Double
        var x: Double
        var y: Double
        var z: Double
    }

    /// Twenty-four poses: near and far, tilted 25 to 50 degrees every way but one, and twelve that push the
    /// board partly out of the frame at the edges and corners.
    static let poses: [Pose] = [
        Pose(tiltX: 0, tiltY: 0, x: 0, y: 0, z: 1.6),
        Pose(tiltX: 40, tiltY: 0, x: 0, y: 0, z: 1.5),
        Pose(tiltX: -40, tiltY: 0, x: 0, y: 0, z: 1.5),
        Pose(tiltX: 0, tiltY: 45, x: 0, y: 0, z: 1.5),
        Pose(tiltX: 0, tiltY: -45, x: 0, y: 0, z: 1.5),
        Pose(tiltX: 35, tiltY: 35, x: -0.3, y: -0.2, z: 1.7),
        Pose(tiltX: -35, tiltY: 35, x: 0.3, y: 0.2, z: 1.7),
        Pose(tiltX: 35, tiltY: -35, x: 0.3, y: -0.2, z: 1.8),
        Pose(tiltX: -35, tiltY: -35, x: -0.3, y: 0.2, z: 1.8),
        Pose(tiltX: 30, tiltY: 0, x: -0.55, y: 0, z: 1.4),
        Pose(tiltX: -30, tiltY: 0, x: 0.55, y: 0, z: 1.4),
        Pose(tiltX: 0, tiltY: 30, x: 0, y: -0.42, z: 1.4),
        Pose(tiltX: 0, tiltY: -30, x: 0, y: 0.42, z: 1.4),
        Pose(tiltX: 25, tiltY: 25, x: -0.6, y: -0.45, z: 1.5),
        Pose(tiltX: -25, tiltY: 25, x: 0.6, y: 0.45, z: 1.5),
        Pose(tiltX: 25, tiltY: -25, x: 0.6, y: -0.45, z: 1.5),
        Pose(tiltX: -25, tiltY: -25, x: -0.6, y: 0.45, z: 1.5),
        Pose(tiltX: 50, tiltY: 10, x: 0, y: 0.1, z: 2.2),
        Pose(tiltX: 10, tiltY: 50, x: 0.1, y: 0, z: 2.2),
        Pose(tiltX: -10, tiltY: -50, x: -0.1, y: 0, z: 2.4),
        Pose(tiltX: 30, tiltY: -30, x: -0.75, y: -0.55, z: 1.5),
        Pose(tiltX: -30, tiltY: -30, x: 0.75, y: -0.55, z: 1.5),
        Pose(tiltX: 30, tiltY: 30, x: 0.75, y: 0.55, z: 1.5),
        Pose(tiltX: -30, tiltY: 30, x: -0.75, y: 0.55, z: 1.5),
    ]

    /// The rotation of a pose, row by row.
    static func rotation(_ pose: Pose) -> [Double] {
        let a = pose.tiltX * .pi / 180, b = pose.tiltY * .pi / 180
        let rx: [Double] = [1, 0, 0, 0, cos(a), -sin(a), 0, sin(a), cos(a)]
        let ry: [Double] = [cos(b), 0, sin(b), 0, 1, 0, -sin(b), 0, cos(b)]
        return Homography(ry).composed(after: Homography(rx)).matrix
    }

    /// A board point (in board widths, origin at the board's centre) in the camera's frame.
    static func transform(_ point: ObjectPoint, _ pose: Pose) -> ObjectPoint {
        let r = rotation(pose)
        return ObjectPoint(
            x: r[0] * point.x + r[1] * point.y + pose.x,
            y: r[3] * point.x + r[4] * point.y + pose.y,
            z: r[6] * point.x + r[7] * point.y + pose.z)
    }

    /// The projected views of a board's corners (`columns` x `rows`, one board width across) under
    /// every pose of `poses` (brought `depthScale` times as near), with Gaussian noise of `noise`
    /// pixels, keeping the corners inside the image.
    static func projected(
        camera: Camera, columns: Int, rows: Int, noise: Double, seed: UInt64, depthScale: Double = 1,
        poses: [Pose] = poses
    ) throws -> [CalibrationView] {
        var random = SplitMix64(seed: seed)
        let pitch = 1 / Double(columns - 1)
        var views: [CalibrationView] = []
        for (index, var pose) in poses.enumerated() {
            pose.z *= depthScale
            var ids: [Int] = [], objects: [ObjectPoint] = [], inCamera: [ObjectPoint] = []
            for row in 0..<rows {
                for column in 0..<columns {
                    let board = ObjectPoint(x: Double(column) * pitch, y: Double(row) * pitch)
                    let centred = ObjectPoint(x: board.x - 0.5, y: board.y - Double(rows - 1) * pitch / 2)
                    ids.append(row * columns + column)
                    objects.append(board)
                    inCamera.append(transform(centred, pose))
                }
            }
            let images = try camera.project(inCamera)
            var points: [CalibrationView.Correspondence] = []
            for (offset, image) in images.enumerated()
            where image.x >= 0 && image.y >= 0 && image.x <= Double(camera.imageSize.width - 1)
                && image.y <= Double(camera.imageSize.height - 1) {
                let noisy = ImagePoint(x: image.x + noise * random.nextGaussian(), y: image.y + noise * random.nextGaussian())
                points.append(.init(id: ids[offset], object: objects[offset], image: noisy))
            }
            views.append(CalibrationView(name: String(format: "view_%02d", index), imageSize: camera.imageSize, points: points))
        }
        return views
    }

    /// The views of `board` (an image of `pattern`) rendered through `camera` under every pose
    /// (brought `depthScale` times as near), detected, placed by ``TargetLayout``, and given
    /// Gaussian corner noise of `noise` pixels on each axis.
    static func rendered(
        _ pattern: Pattern, board: PixelBuffer, camera: Camera, noise: Double, seed: UInt64, depthScale: Double = 0.8
    ) throws -> [CalibrationView] {
        let detector = try MarkerDetector(pattern: pattern)
        let layout = try TargetLayout(pattern)
        var random = SplitMix64(seed: seed)
        var views: [CalibrationView] = []
        for (index, var pose) in poses.enumerated() {
            pose.z *= depthScale
            let image = try render(board, camera: camera, pose: pose, seed: UInt64(100 + index))
            views.append(jittered(layout.view(named: "view_\(index).png", try detector.detect(image)), by: noise, &random))
        }
        return views
    }

    /// `view` with every image point moved by Gaussian noise of `sigma` pixels on each axis.
    static func jittered(_ view: CalibrationView, by sigma: Double, _ random: inout SplitMix64) -> CalibrationView {
        var moved = view
        moved.points = view.points.map { point in
            var noisy = point
            noisy.image.x += sigma * random.nextGaussian()
            noisy.image.y += sigma * random.nextGaussian()
            return noisy
        }
        return moved
    }

    /// Renders `board` (an image of the target) as `camera` sees it under `pose`: every output pixel
    /// is traced back through the camera's distortion to the board, 2 x 2 samples per pixel, then
    /// blurred and given sensor noise.
    static func render(_ board: PixelBuffer, camera: Camera, pose: Pose, seed: UInt64) throws -> PixelBuffer {
        let width = camera.imageSize.width, height = camera.imageSize.height
        var samples: [ImagePoint] = []
        samples.reserveCapacity(width * height * 4)
        for v in 0..<height {
            for u in 0..<width {
                for j in 0..<2 {
                    for i in 0..<2 {
                        samples.append(ImagePoint(x: Double(u) - 0.25 + 0.5 * Double(i), y: Double(v) - 0.25 + 0.5 * Double(j)))
                    }
                }
            }
        }
        let rays = try camera.normalized(samples)
        // From a ray (x/z, y/z) to the board image's pixel: the inverse of the plane's homography.
        let r = rotation(pose)
        let scale = 1 / Double(board.width)
        let toPlane = Homography([
            scale, 0, -scale * Double(board.width - 1) / 2,
            0, scale, -scale * Double(board.height - 1) / 2,
            0, 0, 1,
        ])
        let plane = Homography([r[0], r[1], pose.x, r[3], r[4], pose.y, r[6], r[7], pose.z])
        let inverse = plane.composed(after: toPlane).inverse.matrix
        let rendered = try board.withUnsafeBytes { pixels in
            try PixelBuffer(width: width, height: height, format: .gray8) { target in
                let stride = board.rowStride
                for index in 0..<(width * height) {
                    var sum = 0.0
                    for sample in 0..<4 {
                        let ray = rays[index * 4 + sample]
                        let w = inverse[6] * ray.x + inverse[7] * ray.y + inverse[8]
                        let x = (inverse[0] * ray.x + inverse[1] * ray.y + inverse[2]) / w
                        let y = (inverse[3] * ray.x + inverse[4] * ray.y + inverse[5]) / w
                        guard w > 0, x >= 0, y >= 0, x <= Double(board.width - 2), y <= Double(board.height - 2) else {
                            sum += 128
                            continue
                        }
                        let x0 = Int(x), y0 = Int(y), fx = x - Double(x0), fy = y - Double(y0)
                        let a = Double(pixels[y0 * stride + x0]), b = Double(pixels[y0 * stride + x0 + 1])
                        let c = Double(pixels[(y0 + 1) * stride + x0]), d = Double(pixels[(y0 + 1) * stride + x0 + 1])
                        sum += (a * (1 - fx) + b * fx) * (1 - fy) + (c * (1 - fx) + d * fx) * fy
                    }
                    target[index] = UInt8((sum / 4).rounded())
                }
            }
        }
        return try SyntheticImage.addNoise(SyntheticImage.blur(rendered, sigma: 0.6), sigma: 2, seed: seed)
    }

    /// How far `estimate` is from `truth` over the whole image: for a grid of pixels, the ray `truth`
    /// sees through each is projected by `estimate` and compared with the pixel, after turning the
    /// rays by the one small rotation that fits best (a calibration cannot tell a camera turned a
    /// little from one whose principal point moved: the views' poses absorb it). The mean distance,
    /// in pixels. With `maximumAngle`, only pixels whose true ray is within that many degrees of the
    /// axis count (a fisheye image's corners may see past 90 degrees).
    static func meanModelError(truth: Camera, estimate: Camera, step: Int = 16, maximumAngle: Double = 90) throws -> Double {
        var pixels: [ImagePoint] = []
        for y in stride(from: 0, to: truth.imageSize.height, by: step) {
            for x in stride(from: 0, to: truth.imageSize.width, by: step) { pixels.append(ImagePoint(x: Double(x), y: Double(y))) }
        }
        let limit = tan(maximumAngle * .pi / 180)
        let all = try truth.normalized(pixels)
        let kept = pixels.indices.filter { (all[$0].x * all[$0].x + all[$0].y * all[$0].y).squareRoot() < limit }
        pixels = kept.map { pixels[$0] }
        let rays = kept.map { ObjectPoint(x: all[$0].x, y: all[$0].y, z: 1) }
        func errors(_ w: [Double]) throws -> [Double] {
            let turned = rays.map { rotate($0, by: w) }
            let projected = try estimate.project(turned)
            return zip(pixels, projected).flatMap { [$1.x - $0.x, $1.y - $0.y] }
        }
        let r = try errors(try fittedRotation(errors))
        var total = 0.0
        for index in stride(from: 0, to: r.count, by: 2) {
            let dx = r[index], dy = r[index + 1]
            total += (dx * dx + dy * dy).squareRoot()
        }
        return total / Double(pixels.count)
    }

    /// The rotation vector that makes `errors` (x and y residuals, in pixels, of rays turned by it)
    /// least, from no rotation: 6 Gauss-Newton steps with numerical derivatives.
    static func fittedRotation(_ errors: ([Double]) throws -> [Double]) rethrows -> [Double] {
        var w = [0.0, 0.0, 0.0]
        for _ in 0..<6 {
            let r = try errors(w)
            var columns: [[Double]] = []
            for axis in 0..<3 {
                var moved = w
                moved[axis] += 1e-6
                columns.append(zip(try errors(moved), r).map { ($0 - $1) / 1e-6 })
            }
            var normal = [Double](repeating: 0, count: 9), gradient = [Double](repeating: 0, count: 3)
            for i in 0..<3 {
                for j in 0..<3 { normal[i * 3 + j] = zip(columns[i], columns[j]).map(*).reduce(0, +) }
                gradient[i] = zip(columns[i], r).map(*).reduce(0, +)
            }
            let step = Homography(normal).inverse.matrix
            for i in 0..<3 { w[i] -= (0..<3).map { step[i * 3 + $0] * gradient[$0] }.reduce(0, +) }
        }
        return w
    }

    /// `point` turned by the rotation vector `w` (Rodrigues).
    static func rotate(_ point: ObjectPoint, by w: [Double]) -> ObjectPoint {
        let angle = (w[0] * w[0] + w[1] * w[1] + w[2] * w[2]).squareRoot()
        guard angle > 0 else { return point }
        let k = w.map { $0 / angle }, v = [point.x, point.y, point.z]
        let cross = [k[1] * v[2] - k[2] * v[1], k[2] * v[0] - k[0] * v[2], k[0] * v[1] - k[1] * v[0]]
        let dot = k[0] * v[0] + k[1] * v[1] + k[2] * v[2]
        let c = cos(angle), s = sin(angle)
        let out = (0..<3).map { (index: Int) -> Double in
            let along: Double = k[index] * dot * (1 - c)
            return v[index] * c + cross[index] * s + along
        }
        return ObjectPoint(x: out[0], y: out[1], z: out[2])
    }
}
