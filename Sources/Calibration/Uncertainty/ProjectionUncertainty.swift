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
    /// The covariance carried onto a pixel's gradient coefficients, row by row, (intrinsics + 12)
    /// squared (``reducedCovariance(covariance:intrinsicCount:rotations:translations:)``).
    private let reduced: [Double]
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
        reduced = Self.reducedCovariance(
            covariance: covariance.flatMap { $0 }, intrinsicCount: intrinsics.count,
            rotations: rotations.map { SIMD3($0[0], $0[1], $0[2]) }, translations: translations.map { SIMD3($0[0], $0[1], $0[2]) })
        fold = LensProjection.foldRadius(model: model, intrinsics: intrinsics)
    }

    /// The point at ``distance`` that the solved camera sees at `pixel`, in its frame; `nil` where
    /// the model cannot be inverted (beyond its fold).
    func point(at pixel: SIMD2<Double>) -> SIMD3<Double>? {
        LensProjection.unproject(pixel, model: model, intrinsics: intrinsics, fold: fold).map { $0 * distance }
    }

    /// The 2x2 covariance of `pixel`'s projection as (xx, xy, yy), in square pixels; `nil` where the
    /// model cannot be inverted.
    ///
    /// The projection's gradient over the intrinsics and every pose is a combination of vectors
    /// that do not depend on the pixel: the intrinsics' own, and for the poses 12, whose
    /// coefficients are dq/dp of the point times each of its coordinates and 1
    /// (``reducedCovariance(covariance:intrinsicCount:rotations:translations:)``). So the
    /// gradient's quadratic form over the covariance is the coefficients' over ``reduced``,
    /// (intrinsics + 12) squared, whatever the number of views.
    public func covariance(at pixel: ImagePoint) -> (xx: Double, xy: Double, yy: Double)? {
        guard let p = point(at: SIMD2(pixel.x, pixel.y)) else { return nil }
        let k = intrinsics.count, m = k + 12
        var cx = [Double](repeating: 0, count: m), cy = [Double](repeating: 0, count: m)
        // The intrinsics: central differences.
        for index in 0..<k {
            let step = max(abs(intrinsics[index]), 1) * 1e-6
            var plus = intrinsics, minus = intrinsics
            plus[index] += step
            minus[index] -= step
            let d = (LensProjection.project(p, model: model, intrinsics: plus)
                - LensProjection.project(p, model: model, intrinsics: minus)) / (2 * step)
            cx[index] = d.x
            cy[index] = d.y
        }
        // dq/dp in the camera's frame, times the point's coordinates and 1.
        let stepP = max(distance, 1) * 1e-7
        let coordinates = [p.x, p.y, p.z, 1]
        for axis in 0..<3 {
            var plus = p, minus = p
            plus[axis] += stepP
            minus[axis] -= stepP
            let dq = (LensProjection.project(plus, model: model, intrinsics: intrinsics)
                - LensProjection.project(minus, model: model, intrinsics: intrinsics)) / (2 * stepP)
            for (index, coordinate) in coordinates.enumerated() {
                cx[k + 4 * axis + index] = dq.x * coordinate
                cy[k + 4 * axis + index] = dq.y * coordinate
            }
        }
        var xx = 0.0, xy = 0.0, yy = 0.0
        reduced.withUnsafeBufferPointer { q in
            for row in 0..<m {
                var sx = 0.0, sy = 0.0
                let offset = row * m
                for column in 0..<m {
                    sx += q[offset + column] * cx[column]
                    sy += q[offset + column] * cy[column]
                }
                xx += cx[row] * sx
                xy += cy[row] * sx
                yy += cy[row] * sy
            }
        }
        return (xx, xy, yy)
    }

    /// The covariance of the intrinsics and every pose (row by row, n = intrinsics + 6 x views)
    /// carried onto the coefficients of ``covariance(at:)``: W^T C W, where W's columns are the
    /// intrinsics' unit vectors and 12 vectors over the poses, one per coefficient (a, c).
    ///
    /// For view v, the point p in the camera's frame is carried into the board's frame, R_v^T
    /// (p - t_v), and back with the pose perturbed, each board weighing 1 / views. The rotation
    /// R(r) x is linear in x, so its derivative over r is too: with N_b = d(R(r) e_b)/dr (by central
    /// differences), d(R(r_v) x)/dr = sum over b of x_b N_b, which is affine in p. Row a
    /// of that (a coordinate of the point) over the pose's rotation, and the unit row over its
    /// translation, are the pose part of basis vector (a, c): times p_c for c < 3, times 1 for c = 3.
    static func reducedCovariance(
        covariance: [Double], intrinsicCount k: Int, rotations: [SIMD3<Double>], translations: [SIMD3<Double>]
    ) -> [Double] {
        let views = rotations.count, n = k + 6 * views, m = k + 12
        guard covariance.count == n * n else { return [Double](repeating: .nan, count: m * m) }
        let share = 1 / Double(max(views, 1))
        // basis[j] for j = 4 a + c: the pose part of the vector of coefficient (a, c), n long.
        var basis = [[Double]](repeating: [Double](repeating: 0, count: n), count: 12)
        let units = [SIMD3<Double>(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)]
        for view in 0..<views {
            let r = rotations[view]
            let rows = LensProjection.matrix(r)
            // derivatives[b][axis] = d(R(r) e_b)/dr_axis.
            let derivatives = units.map { unit in
                (0..<3).map { axis -> SIMD3<Double> in
                    var plus = r, minus = r
                    plus[axis] += 1e-6
                    minus[axis] -= 1e-6
                    return (LensProjection.rotate(unit, by: plus) - LensProjection.rotate(unit, by: minus)) / 2e-6
                }
            }
            // The board-frame point is R^T p - R^T t: coordinate b is sum over c of rows[c][b] p_c,
            // less (R^T t)_b.
            let t = translations[view]
            let back = SIMD3(
                rows[0].x * t.x + rows[1].x * t.y + rows[2].x * t.z,
                rows[0].y * t.x + rows[1].y * t.y + rows[2].y * t.z,
                rows[0].z * t.x + rows[1].z * t.y + rows[2].z * t.z)
            let base = k + 6 * view
            for axis in 0..<3 {
                for c in 0..<4 {
                    // d(R x)/dr_axis for the part of x that coefficient c carries.
                    var column = SIMD3<Double>(0, 0, 0)
                    for b in 0..<3 {
                        let weight = c < 3 ? rows[c][b] : -back[b]
                        column += weight * derivatives[b][axis]
                    }
                    for a in 0..<3 { basis[4 * a + c][base + axis] = column[a] * share }
                }
                basis[4 * axis + 3][base + 3 + axis] = share
            }
        }
        // C times each basis vector, then W^T C W.
        let products = basis.map { vector -> [Double] in
            var product = [Double](repeating: 0, count: n)
            covariance.withUnsafeBufferPointer { c in
                vector.withUnsafeBufferPointer { v in
                    for row in 0..<n {
                        var sum = 0.0
                        let offset = row * n
                        for column in k..<n { sum += c[offset + column] * v[column] }
                        product[row] = sum
                    }
                }
            }
            return product
        }
        var reduced = [Double](repeating: 0, count: m * m)
        for i in 0..<k {
            for j in 0..<k { reduced[i * m + j] = covariance[i * n + j] }
            for j in 0..<12 {
                reduced[i * m + k + j] = products[j][i]
                reduced[(k + j) * m + i] = products[j][i]
            }
        }
        for i in 0..<12 {
            for j in 0..<12 {
                var sum = 0.0
                for row in k..<n { sum += basis[i][row] * products[j][row] }
                reduced[(k + i) * m + k + j] = sum
            }
        }
        return reduced
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
