import Foundation

/// OpenCV's lens models in plain Swift, for the uncertainty map's derivatives: a point in the
/// camera's frame to a pixel (`cv::projectPoints`, `cv::fisheye::projectPoints`), a pixel back to
/// a direction, and the Rodrigues rotation that carries target points into the camera's frame.
///
/// Intrinsics are in ``CameraCalibration``'s order: fx, fy, cx, cy, then the model's distortion
/// coefficients (``CameraModel/distortionNames``).
enum LensProjection {
    /// Where the point `p` (x, y, z in the camera's frame, z > 0) appears in the image.
    static func project(_ p: SIMD3<Double>, model: CameraModel, intrinsics k: [Double]) -> SIMD2<Double> {
        let x = p.x / p.z, y = p.y / p.z
        let u: Double, v: Double
        switch model {
        case .pinhole, .pinholeRadtan, .rational:
            let r2 = x * x + y * y, r4 = r2 * r2, r6 = r4 * r2
            let k1 = k[4], k2 = k[5], p1 = k[6], p2 = k[7], k3 = k[8]
            var radial = 1 + k1 * r2 + k2 * r4 + k3 * r6
            if model == .rational { radial /= 1 + k[9] * r2 + k[10] * r4 + k[11] * r6 }
            u = x * radial + 2 * p1 * x * y + p2 * (r2 + 2 * x * x)
            v = y * radial + p1 * (r2 + 2 * y * y) + 2 * p2 * x * y
        case .fisheye:
            let r = (x * x + y * y).squareRoot()
            let theta = atan(r), t2 = theta * theta
            let thetaD = theta * (1 + k[4] * t2 + k[5] * t2 * t2 + k[6] * t2 * t2 * t2 + k[7] * t2 * t2 * t2 * t2)
            let scale = r > 1e-12 ? thetaD / r : 1
            u = x * scale
            v = y * scale
        }
        return SIMD2(k[0] * u + k[2], k[1] * v + k[3])
    }

    /// How far from the axis (the tangent of the angle off it) the model's radial mapping still
    /// grows: beyond, a distortion that turns back (or a rational model's denominator that reaches
    /// 0) folds the image over itself, and a pixel there has no one ray. `.infinity` when it grows
    /// as far as the scan goes (84 degrees off the axis; 89 for the fisheye model).
    static func foldRadius(model: CameraModel, intrinsics k: [Double]) -> Double {
        switch model {
        case .pinhole, .pinholeRadtan, .rational:
            var previous = 0.0
            for step in 1...2000 {
                let r = 0.005 * Double(step), r2 = r * r
                var numerator = 1 + k[4] * r2 + k[5] * r2 * r2 + k[8] * r2 * r2 * r2
                if model == .rational {
                    let denominator = 1 + k[9] * r2 + k[10] * r2 * r2 + k[11] * r2 * r2 * r2
                    guard denominator > 1e-9 else { return 0.005 * Double(step - 1) }
                    numerator /= denominator
                }
                let distorted = r * numerator
                guard distorted > previous, distorted.isFinite else { return 0.005 * Double(step - 1) }
                previous = distorted
            }
            return .infinity
        case .fisheye:
            var previous = 0.0
            for step in 1...1000 {
                let theta = 1.553 * Double(step) / 1000, t2 = theta * theta
                let distorted = theta * (1 + k[4] * t2 + k[5] * t2 * t2 + k[6] * t2 * t2 * t2 + k[7] * t2 * t2 * t2 * t2)
                guard distorted > previous, distorted.isFinite else { return tan(1.553 * Double(step - 1) / 1000) }
                previous = distorted
            }
            return .infinity
        }
    }

    /// The unit direction in the camera's frame that `project` takes to `pixel`, found by Newton's
    /// method from the undistorted guess; `nil` where it does not converge, or converges beyond
    /// `fold` (``foldRadius(model:intrinsics:)``): outside the part of the image the model maps one
    /// to one.
    static func unproject(
        _ pixel: SIMD2<Double>, model: CameraModel, intrinsics k: [Double], fold: Double = .infinity
    ) -> SIMD3<Double>? {
        var x = SIMD2((pixel.x - k[2]) / k[0], (pixel.y - k[3]) / k[1])
        let target = pixel
        for _ in 0..<50 {
            let q = project(SIMD3(x.x, x.y, 1), model: model, intrinsics: k)
            let error = q - target
            if (error * error).sum() < 1e-18 { break }
            let h = 1e-7
            let qx = project(SIMD3(x.x + h, x.y, 1), model: model, intrinsics: k)
            let qy = project(SIMD3(x.x, x.y + h, 1), model: model, intrinsics: k)
            let a = (qx - q) / h, b = (qy - q) / h
            let det = a.x * b.y - b.x * a.y
            guard det.isFinite, abs(det) > 1e-12 else { return nil }
            let step = SIMD2((b.y * error.x - b.x * error.y) / det, (-a.y * error.x + a.x * error.y) / det)
            x -= step
        }
        let check = project(SIMD3(x.x, x.y, 1), model: model, intrinsics: k) - target
        guard (check * check).sum() < 1e-6, x.x.isFinite, x.y.isFinite else { return nil }
        guard (x * x).sum() <= fold * fold else { return nil }
        let direction = SIMD3(x.x, x.y, 1)
        return direction / (direction * direction).sum().squareRoot()
    }

    /// `p` turned by the Rodrigues (angle-axis) vector `r`.
    static func rotate(_ p: SIMD3<Double>, by r: SIMD3<Double>) -> SIMD3<Double> {
        let angle = (r * r).sum().squareRoot()
        guard angle > 1e-15 else { return p + cross(r, p) }
        let axis = r / angle
        let c = cos(angle), s = sin(angle)
        return p * c + cross(axis, p) * s + axis * ((axis * p).sum() * (1 - c))
    }

    /// The 3x3 matrix of the Rodrigues vector `r`, as three rows.
    static func matrix(_ r: SIMD3<Double>) -> [SIMD3<Double>] {
        let columns = [SIMD3<Double>(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)].map { rotate($0, by: r) }
        return (0..<3).map { row in SIMD3(columns[0][row], columns[1][row], columns[2][row]) }
    }

    static func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }
}
