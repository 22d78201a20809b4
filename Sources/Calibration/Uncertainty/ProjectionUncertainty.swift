import Foundation
public import MarkerDetection

/// How far a pixel's projection may be off because the calibration's parameters are uncertain:
/// mrcal's method (its `projection_uncertainty`, described in its "uncertainty.org").
///
/// For a pixel: unproject it with the solved camera to a point at ``distance`` along its ray; carry
/// that point into every board's frame with the solved poses and back into the camera's frame with
/// perturbed ones, averaging over the boards (the camera's frame is only known through the boards:
/// this is how its freedom is accounted for); project it with the perturbed intrinsics. The
/// covariance of the intrinsics and every pose (sigma^2 (J^T J)^-1 of the solve) is carried through
/// that function's gradient to a 2x2 covariance of the pixel.
///
/// The measure is mrcal's `worstdirection-stdev`: the standard deviation along the direction in
/// which the pixel is least certain (the square root of the 2x2 covariance's larger eigenvalue),
/// in pixels.
public struct ProjectionUncertainty: Sendable {
    /// The lens model.
    public let model: CameraModel
    /// fx, fy, cx, cy and the distortion coefficients.
    public let intrinsics: [Double]
    /// The image's size.
    public let imageSize: ImageSize
    /// The range from the camera at which a pixel's point is placed, in the target's units.
    public let distance: Double
    private let rotations: [SIMD3<Double>]
    private let translations: [SIMD3<Double>]
    /// Row by row, (intrinsics + 6 x views) squared.
    private let covariance: [Double]
    /// Where the solved camera's mapping folds (``LensProjection/foldRadius(model:intrinsics:)``).
    private let fold: Double

    /// The map of a solve at `distance` (the mean distance of the boards when `nil`: for each
    /// view, the range from the camera to the centre of its corners).
    ///
    /// - Returns: `nil` when the run has no covariance over the poses (OpenCV's solve alone).
    public init?(run: CalibrationRun, distance: Double? = nil) {
        guard let full = run.fullCovariance, run.poseRotations.count == run.views.count else { return nil }
        let rotations = run.poseRotations.map { SIMD3($0[0], $0[1], $0[2]) }
        let translations = run.poseTranslations.map { SIMD3($0[0], $0[1], $0[2]) }
        let ranges = run.views.indices.map { index -> Double in
            let points = run.views[index].view.points
            var centre = SIMD3<Double>(0, 0, 0)
            for point in points { centre += SIMD3(point.object.x, point.object.y, point.object.z) }
            centre /= Double(max(points.count, 1))
            let inCamera = LensProjection.rotate(centre, by: rotations[index]) + translations[index]
            return (inCamera * inCamera).sum().squareRoot()
        }
        let camera = run.camera
        self.init(
            model: camera.model, intrinsics: [camera.fx, camera.fy, camera.cx, camera.cy] + camera.distortion,
            imageSize: camera.imageSize, rotations: run.poseRotations, translations: run.poseTranslations,
            covariance: full, distance: distance ?? ranges.reduce(0, +) / Double(max(ranges.count, 1)))
    }

    /// The map of a camera with views posed by `rotations` (Rodrigues vectors) and `translations`
    /// (target to camera), whose parameters (intrinsics, then each view's rotation and translation)
    /// have `covariance`, at `distance`.
    init(
        model: CameraModel, intrinsics: [Double], imageSize: ImageSize, rotations: [[Double]], translations: [[Double]],
        covariance: [[Double]], distance: Double
    ) {
        self.model = model
        self.intrinsics = intrinsics
        self.imageSize = imageSize
        self.distance = distance
        self.rotations = rotations.map { SIMD3($0[0], $0[1], $0[2]) }
        self.translations = translations.map { SIMD3($0[0], $0[1], $0[2]) }
        self.covariance = covariance.flatMap { $0 }
        fold = LensProjection.foldRadius(model: model, intrinsics: intrinsics)
    }

    /// The point at ``distance`` that the solved camera sees at `pixel`, in its frame; `nil` where
    /// the model cannot be inverted (beyond its fold).
    func point(at pixel: SIMD2<Double>) -> SIMD3<Double>? {
        LensProjection.unproject(pixel, model: model, intrinsics: intrinsics, fold: fold).map { $0 * distance }
    }

    /// The 2x2 covariance of `pixel`'s projection as (xx, xy, yy), in square pixels; `nil` where the
    /// model cannot be inverted.
    public func covariance(at pixel: ImagePoint) -> (xx: Double, xy: Double, yy: Double)? {
        guard let p = point(at: SIMD2(pixel.x, pixel.y)) else { return nil }
        let k = intrinsics.count, views = rotations.count, n = k + 6 * views
        var gx = [Double](repeating: 0, count: n), gy = [Double](repeating: 0, count: n)
        // The intrinsics: central differences.
        for index in 0..<k {
            let step = max(abs(intrinsics[index]), 1) * 1e-6
            var plus = intrinsics, minus = intrinsics
            plus[index] += step
            minus[index] -= step
            let d = (LensProjection.project(p, model: model, intrinsics: plus)
                - LensProjection.project(p, model: model, intrinsics: minus)) / (2 * step)
            gx[index] = d.x
            gy[index] = d.y
        }
        // dq/dp in the camera's frame.
        var dqdp: [SIMD2<Double>] = []
        let stepP = max(distance, 1) * 1e-7
        for axis in 0..<3 {
            var plus = p, minus = p
            plus[axis] += stepP
            minus[axis] -= stepP
            dqdp.append((LensProjection.project(plus, model: model, intrinsics: intrinsics)
                - LensProjection.project(minus, model: model, intrinsics: intrinsics)) / (2 * stepP))
        }
        // Each board: p in its frame, then back with its perturbed pose, averaged over the boards.
        let share = 1 / Double(views)
        for view in 0..<views {
            let r = rotations[view]
            let rows = LensProjection.matrix(r)
            let d = p - translations[view]
            // R^T (p - t)
            let inBoard = SIMD3(
                rows[0].x * d.x + rows[1].x * d.y + rows[2].x * d.z,
                rows[0].y * d.x + rows[1].y * d.y + rows[2].y * d.z,
                rows[0].z * d.x + rows[1].z * d.y + rows[2].z * d.z)
            let base = k + 6 * view
            for axis in 0..<3 {
                var plus = r, minus = r
                plus[axis] += 1e-6
                minus[axis] -= 1e-6
                let dp = (LensProjection.rotate(inBoard, by: plus) - LensProjection.rotate(inBoard, by: minus)) / 2e-6
                let dq = dqdp[0] * dp.x + dqdp[1] * dp.y + dqdp[2] * dp.z
                gx[base + axis] = dq.x * share
                gy[base + axis] = dq.y * share
                gx[base + 3 + axis] = dqdp[axis].x * share
                gy[base + 3 + axis] = dqdp[axis].y * share
            }
        }
        var xx = 0.0, xy = 0.0, yy = 0.0
        covariance.withUnsafeBufferPointer { c in
            gx.withUnsafeBufferPointer { gx in
                gy.withUnsafeBufferPointer { gy in
                    for row in 0..<n {
                        var sx = 0.0, sy = 0.0
                        let offset = row * n
                        for column in 0..<n {
                            let value = c[offset + column]
                            sx += value * gx[column]
                            sy += value * gy[column]
                        }
                        xx += gx[row] * sx
                        xy += gy[row] * sx
                        yy += gy[row] * sy
                    }
                }
            }
        }
        return (xx, xy, yy)
    }

    /// The worst-direction standard deviation of `pixel`'s projection, in pixels (mrcal's
    /// `worstdirection-stdev`); infinite where the model cannot be inverted: there the camera
    /// says nothing about where a point appears, however certain its parameters.
    public func standardDeviation(at pixel: ImagePoint) -> Double {
        guard let c = covariance(at: pixel) else { return .infinity }
        let mean = (c.xx + c.yy) / 2, half = ((c.xx - c.yy) * (c.xx - c.yy) / 4 + c.xy * c.xy).squareRoot()
        return max(0, mean + half).squareRoot()
    }

    /// The map over a grid of `columns` points across the image (from the first pixel to the last)
    /// and as many down as keep the cells square (at least 2).
    public func map(columns: Int = UncertaintyMap.defaultColumns) -> UncertaintyMap {
        let columns = max(2, columns)
        let width = Double(imageSize.width - 1), height = Double(imageSize.height - 1)
        let rows = max(2, Int((Double(columns - 1) * height / max(width, 1)).rounded()) + 1)
        var values: [Double] = []
        values.reserveCapacity(columns * rows)
        for row in 0..<rows {
            for column in 0..<columns {
                let pixel = ImagePoint(x: width * Double(column) / Double(columns - 1), y: height * Double(row) / Double(rows - 1))
                values.append(standardDeviation(at: pixel))
            }
        }
        let corners = [ImagePoint(x: 0, y: 0), ImagePoint(x: width, y: 0), ImagePoint(x: 0, y: height), ImagePoint(x: width, y: height)]
        return UncertaintyMap(
            imageSize: imageSize, distance: distance, columns: columns, rows: rows, values: values,
            centre: standardDeviation(at: ImagePoint(x: width / 2, y: height / 2)),
            corners: corners.map { standardDeviation(at: $0) })
    }
}
