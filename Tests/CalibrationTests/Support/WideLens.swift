import Calibration
import Foundation
import MarkerDetection
import MarkerDetectionTestSupport

/// A wide lens under the rational model, views that see it only in the middle of the image, and
/// how far a solved camera lands from it at the image's corners and edges.
enum WideLens {
    /// A real wide lens's rational model (mrcal's `figueroa-overpass-looking-S/opencv8-0`, a
    /// 6000 x 4000 camera seeing about 77 degrees off axis at the image corners), scaled to 1500 x 1000.
    static let truth = Camera(
        model: .rational, imageSize: ImageSize(width: 1500, height: 1000), fx: 2073.872915 / 4 * 1.4, fy: 2077.452267 / 4 * 1.4,
        cx: 3004.686823 / 4, cy: 1997.377253 / 4,
        distortion: [0.4791613797, 0.0266824914, 4.398264387e-05, -1.180073913e-05, 8.959722542e-05, 0.7666912469,
                     0.09633561231, 0.001407513313])

    /// The share of the image's width and height, about its centre, that the corners cover.
    static let window = 0.7

    /// `count` views of a 12 x 9 board through ``truth``, with 0.3 px of noise, keeping only the
    /// corners inside the middle ``window`` of the image, all drawn from `seed`; views left with
    /// fewer than 30 corners are not kept.
    static func views(count: Int, seed: UInt64) throws -> [CalibrationView] {
        var random = SplitMix64(seed: seed)
        let poses = (0..<count).map { _ in
            let z = 1.0 + 1.2 * random.nextUniform()
            return SyntheticViews.Pose(
                tiltX: (random.nextUniform() - 0.5) * 80, tiltY: (random.nextUniform() - 0.5) * 80,
                x: (random.nextUniform() - 0.5) * 1.6 * z, y: (random.nextUniform() - 0.5) * 1.1 * z, z: z)
        }
        let all = try SyntheticViews.projected(camera: truth, columns: 12, rows: 9, noise: 0.3, seed: seed, poses: poses)
        let width = Double(truth.imageSize.width - 1), height = Double(truth.imageSize.height - 1)
        let margin = (1 - window) / 2
        return all.compactMap { view in
            var inside = view
            inside.points = view.points.filter {
                $0.image.x >= margin * width && $0.image.x <= (1 - margin) * width
                    && $0.image.y >= margin * height && $0.image.y <= (1 - margin) * height
            }
            return inside.points.count >= 30 ? inside : nil
        }
    }

    /// The four image corners and the four edges' midpoints.
    static var probes: [ImagePoint] {
        let w = Double(truth.imageSize.width - 1), h = Double(truth.imageSize.height - 1)
        return [(0, 0), (w, 0), (0, h), (w, h), (w / 2, 0), (w / 2, h), (0, h / 2), (w, h / 2)].map { ImagePoint(x: $0.0, y: $0.1) }
    }

    /// How far `estimate` projects each of ``probes``' true rays from the probe, in pixels, after
    /// turning the rays by the small rotation that fits best over the corners' window (a calibration
    /// cannot tell a camera turned a little from one whose principal point moved).
    static func probeErrors(_ estimate: Camera) throws -> [Double] {
        let w = Double(truth.imageSize.width - 1), h = Double(truth.imageSize.height - 1)
        let margin = (1 - window) / 2
        var fit: [ImagePoint] = []
        for row in 0...10 {
            for column in 0...10 {
                fit.append(ImagePoint(
                    x: (margin + (1 - 2 * margin) * Double(column) / 10) * w, y: (margin + (1 - 2 * margin) * Double(row) / 10) * h))
            }
        }
        let fitRays = try rays(fit), probeRays = try rays(probes)
        func errors(_ rays: [ObjectPoint], _ pixels: [ImagePoint], _ w: [Double]) throws -> [Double] {
            let projected = try estimate.project(rays.map { SyntheticViews.rotate($0, by: w) })
            return zip(pixels, projected).flatMap { [$1.x - $0.x, $1.y - $0.y] }
        }
        let w3 = try SyntheticViews.fittedRotation { try errors(fitRays, fit, $0) }
        let r = try errors(probeRays, probes, w3)
        return stride(from: 0, to: r.count, by: 2).map { (index: Int) -> Double in
            let dx = r[index], dy = r[index + 1]
            return (dx * dx + dy * dy).squareRoot()
        }
    }

    /// The rays (z = 1) that ``truth`` projects onto `pixels`, by Newton's method on the projection
    /// (OpenCV's undistortion stops short this far from the centre).
    static func rays(_ pixels: [ImagePoint]) throws -> [ObjectPoint] {
        var rays = pixels.map { ObjectPoint(x: ($0.x - truth.cx) / truth.fx, y: ($0.y - truth.cy) / truth.fy, z: 1) }
        for _ in 0..<60 {
            let at = try truth.project(rays)
            let dx = try truth.project(rays.map { ObjectPoint(x: $0.x + 1e-7, y: $0.y, z: 1) })
            let dy = try truth.project(rays.map { ObjectPoint(x: $0.x, y: $0.y + 1e-7, z: 1) })
            for index in rays.indices {
                let a = (dx[index].x - at[index].x) / 1e-7, c = (dx[index].y - at[index].y) / 1e-7
                let b = (dy[index].x - at[index].x) / 1e-7, d = (dy[index].y - at[index].y) / 1e-7
                let ex = pixels[index].x - at[index].x, ey = pixels[index].y - at[index].y
                let determinant = a * d - b * c
                var sx = (d * ex - b * ey) / determinant, sy = (a * ey - c * ex) / determinant
                // At most half the ray's length per step: the mapping flattens far from the axis.
                let x = rays[index].x, y = rays[index].y
                let length = (sx * sx + sy * sy).squareRoot(), limit = 0.5 * max(1, (x * x + y * y).squareRoot())
                if length > limit { sx *= limit / length; sy *= limit / length }
                rays[index] = ObjectPoint(x: rays[index].x + sx, y: rays[index].y + sy, z: 1)
            }
        }
        let check = try truth.project(rays)
        for (pixel, projected) in zip(pixels, check) where abs(pixel.x - projected.x) + abs(pixel.y - projected.y) > 1e-6 {
            throw CalibrationError.openCV("the wide lens's ray for \(pixel) did not converge: \(projected)")
        }
        return rays
    }
}
