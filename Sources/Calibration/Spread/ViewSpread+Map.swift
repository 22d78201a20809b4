import Foundation
import MarkerDetection

extension ViewSpread {
    /// The views' spread of the projection over the image, beyond the corners' scatter: for each
    /// point of `noise`'s grid (and its centre and corners), how far the jackknife's cameras put it
    /// apart, as the standard deviation the corners' scatter leaves unexplained.
    ///
    /// Each pixel is unprojected by `camera` (the calibration's) to a point at `noise`'s distance.
    /// For each of the jackknife's cameras the rotation that best carries `camera`'s rays onto its
    /// own is fitted over the grid (as ``ProjectionDifference`` does: a camera turned a little says
    /// nothing about the lens), and the point is projected by it. The jackknife's 2x2 covariance of
    /// those projections ((G - 1) / G times the sum of their squared deviations from their mean)
    /// gives a worst-direction standard deviation; where it exceeds `noise`'s by more than chance
    /// allows (as for the parameters, ``CalibrationRun/include(_:)``), the spread is the root of
    /// the difference of their squares, scaled from Student's t at the jackknife's degrees of
    /// freedom to the normal's (so that 1.96 times the combined map is a 95% interval, as a
    /// parameter's is); otherwise 0. Where `camera` or one of the jackknife's cameras folds, the
    /// spread is infinite.
    ///
    /// - Parameters:
    ///   - camera: The calibration's camera, whose spread it is.
    ///   - noise: The calibration's projection-uncertainty map (``ProjectionUncertainty``): the
    ///     grid, the distance, and the scatter the spread goes beyond.
    public func map(of camera: Camera, beyond noise: UncertaintyMap) -> UncertaintyMap {
        let width = Double(noise.imageSize.width - 1), height = Double(noise.imageSize.height - 1)
        var pixels: [SIMD2<Double>] = []
        for row in 0..<noise.rows {
            for column in 0..<noise.columns {
                let point = noise.position(column: column, row: row)
                pixels.append(SIMD2(point.x, point.y))
            }
        }
        pixels += [SIMD2(width / 2, height / 2), SIMD2(0, 0), SIMD2(width, 0), SIMD2(0, height), SIMD2(width, height)]
        let scatter = noise.values + [noise.centre] + noise.corners
        let intrinsics = [camera.fx, camera.fy, camera.cx, camera.cy] + camera.distortion
        let fold = LensProjection.foldRadius(model: camera.model, intrinsics: intrinsics)
        let rays = pixels.map { LensProjection.unproject($0, model: camera.model, intrinsics: intrinsics, fold: fold) }
        // Per jackknife camera, each pixel's projection (nil where either camera folds).
        var projections: [[SIMD2<Double>?]] = []
        for other in cameras {
            let k = [other.fx, other.fy, other.cx, other.cy] + other.distortion
            let otherFold = LensProjection.foldRadius(model: other.model, intrinsics: k)
            let otherRays = pixels.map { LensProjection.unproject($0, model: other.model, intrinsics: k, fold: otherFold) }
            var pairs: [(SIMD3<Double>, SIMD3<Double>)] = []
            for index in rays.indices {
                if let ray = rays[index], let otherRay = otherRays[index] { pairs.append((ray, otherRay)) }
            }
            let omega = ProjectionDifference.fitRotation(pairs)
            projections.append(rays.indices.map { index in
                guard let ray = rays[index], otherRays[index] != nil else { return nil }
                return LensProjection.project(LensProjection.rotate(ray * noise.distance, by: omega), model: other.model, intrinsics: k)
            })
        }
        let g = Double(cameras.count)
        let limit = StudentT.chiSquare95Ratio(degreesOfFreedom: degreesOfFreedom)
        let scale = StudentT.quantile975(degreesOfFreedom: Double(degreesOfFreedom)) / StudentT.normal975
        let spread = pixels.indices.map { index -> Double in
            let points = projections.compactMap { $0[index] }
            guard points.count == cameras.count, !points.isEmpty else { return .infinity }
            let mean = points.reduce(SIMD2<Double>(0, 0), +) / g
            var xx = 0.0, xy = 0.0, yy = 0.0
            for point in points {
                let d = point - mean
                xx += d.x * d.x
                xy += d.x * d.y
                yy += d.y * d.y
            }
            let factor = (g - 1) / g
            xx *= factor
            xy *= factor
            yy *= factor
            let middle = (xx + yy) / 2, half = ((xx - yy) * (xx - yy) / 4 + xy * xy).squareRoot()
            let jackknife = max(0, middle + half)
            guard jackknife.isFinite else { return .infinity }
            let own = scatter[index] * scatter[index]
            guard own.isFinite else { return 0 }
            return jackknife > limit * own ? scale * (jackknife - own).squareRoot() : 0
        }
        return UncertaintyMap(
            imageSize: noise.imageSize, distance: noise.distance, columns: noise.columns, rows: noise.rows,
            values: Array(spread.prefix(noise.values.count)), centre: spread[noise.values.count],
            corners: Array(spread.suffix(4)))
    }
}

extension UncertaintyMap {
    /// The map of both parts: at each point the root of the sum of `noise`'s and `spread`'s squares
    /// (one grid, as ``ViewSpread/map(of:beyond:)`` makes it).
    public static func combining(_ noise: UncertaintyMap, _ spread: UncertaintyMap) -> UncertaintyMap {
        func both(_ a: Double, _ b: Double) -> Double { (a * a + b * b).squareRoot() }
        return UncertaintyMap(
            imageSize: noise.imageSize, distance: noise.distance, columns: noise.columns, rows: noise.rows,
            values: zip(noise.values, spread.values).map(both), centre: both(noise.centre, spread.centre),
            corners: zip(noise.corners, spread.corners).map(both))
    }
}
