import Foundation
public import MarkerDetection

/// How far apart two cameras put the same points, over the image: mrcal's `projection_diff`.
///
/// Each grid point of the image is unprojected by the first camera to a point at ``distance``;
/// the rotation that best carries these points onto the second camera's unprojections of the same
/// pixels is fitted (least squares over the whole grid: two solves of one camera differ by how
/// their frames are turned, which says nothing about the lens), and the rotated points are projected
/// by the second camera. The difference is the distance, in pixels, from there to the grid point.
public struct ProjectionDifference: Sendable, Hashable {
    /// The image's size.
    public var imageSize: ImageSize
    /// The range at which the points were placed.
    public var distance: Double
    /// Grid points across and down (as in ``UncertaintyMap``).
    public var columns: Int
    /// Grid points down.
    public var rows: Int
    /// Row by row from the top, in pixels; not a number where either camera cannot be inverted.
    public var values: [Double]
    /// The fitted rotation, as a Rodrigues vector.
    public var rotation: [Double]
    /// At the image's centre, in pixels.
    public var centre: Double
    /// At the upper-left, upper-right, lower-left and lower-right pixels.
    public var corners: [Double]

    /// The mean over the grid's points, in pixels.
    public var mean: Double {
        let finite = values.filter(\.isFinite)
        return finite.isEmpty ? .nan : finite.reduce(0, +) / Double(finite.count)
    }

    /// The 95th percentile over the grid's points, in pixels.
    public var percentile95: Double { Self.percentile(values, 0.95) }

    /// The `fraction` quantile of the finite values (the nearest rank).
    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.filter(\.isFinite).sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted[min(sorted.count - 1, max(0, Int((Double(sorted.count) * fraction).rounded(.up)) - 1))]
    }

    /// The difference from `a` to `b` (one image size and model) at `distance`, over a grid of
    /// `columns` points across.
    public init(from a: Camera, to b: Camera, distance: Double, columns: Int = UncertaintyMap.defaultColumns) {
        let columns = max(2, columns)
        let width = Double(a.imageSize.width - 1), height = Double(a.imageSize.height - 1)
        let rows = max(2, Int((Double(columns - 1) * height / max(width, 1)).rounded()) + 1)
        let ka = [a.fx, a.fy, a.cx, a.cy] + a.distortion, kb = [b.fx, b.fy, b.cx, b.cy] + b.distortion
        var pixels: [SIMD2<Double>] = []
        for row in 0..<rows {
            for column in 0..<columns {
                pixels.append(SIMD2(width * Double(column) / Double(columns - 1), height * Double(row) / Double(rows - 1)))
            }
        }
        let extra = [SIMD2(width / 2, height / 2), SIMD2(0, 0), SIMD2(width, 0), SIMD2(0, height), SIMD2(width, height)]
        let fromA = (pixels + extra).map { LensProjection.unproject($0, model: a.model, intrinsics: ka) }
        let fromB = (pixels + extra).map { LensProjection.unproject($0, model: b.model, intrinsics: kb) }
        var pairs: [(SIMD3<Double>, SIMD3<Double>)] = []
        for index in pixels.indices {
            if let p = fromA[index], let u = fromB[index] { pairs.append((p, u)) }
        }
        let omega = Self.fitRotation(pairs)
        let all = (pixels + extra).indices.map { index -> Double in
            guard let p = fromA[index] else { return .nan }
            let q = LensProjection.project(LensProjection.rotate(p * distance, by: omega), model: b.model, intrinsics: kb)
            let d = q - (pixels + extra)[index]
            return (d * d).sum().squareRoot()
        }
        imageSize = a.imageSize
        self.distance = distance
        self.columns = columns
        self.rows = rows
        values = Array(all.prefix(pixels.count))
        rotation = [omega.x, omega.y, omega.z]
        centre = all[pixels.count]
        corners = Array(all.suffix(4))
    }

    /// The rotation (a Rodrigues vector) that best turns each first direction onto its second, by
    /// Gauss-Newton on the sum of squared differences.
    static func fitRotation(_ pairs: [(SIMD3<Double>, SIMD3<Double>)]) -> SIMD3<Double> {
        var omega = SIMD3<Double>(0, 0, 0)
        for _ in 0..<8 {
            // Normal equations of e = R p - u with the update R <- exp([d]x) R: de/dd_i = e_i x (R p).
            var a = [[Double]](repeating: [0, 0, 0], count: 3), g: [Double] = [0, 0, 0]
            for (p, u) in pairs {
                let rp = LensProjection.rotate(p, by: omega)
                let e = rp - u
                let columns = [SIMD3(0, -rp.z, rp.y), SIMD3(rp.z, 0, -rp.x), SIMD3(-rp.y, rp.x, 0)]
                for i in 0..<3 {
                    g[i] += (columns[i] * e).sum()
                    for j in 0..<3 { a[i][j] += (columns[i] * columns[j]).sum() }
                }
            }
            guard let step = solve3(a, g.map { -$0 }) else { break }
            omega = compose(step, omega)
            if (step * step).sum() < 1e-24 { break }
        }
        return omega
    }

    /// The Rodrigues vector of exp([d]x) R(omega).
    private static func compose(_ d: SIMD3<Double>, _ omega: SIMD3<Double>) -> SIMD3<Double> {
        let m = (0..<3).map { column -> SIMD3<Double> in
            var unit = SIMD3<Double>(0, 0, 0)
            unit[column] = 1
            return LensProjection.rotate(LensProjection.rotate(unit, by: omega), by: d)
        }
        // m[c] is column c of the composed matrix.
        let trace = m[0].x + m[1].y + m[2].z
        let angle = acos(min(1, max(-1, (trace - 1) / 2)))
        let axis = SIMD3(m[1].z - m[2].y, m[2].x - m[0].z, m[0].y - m[1].x)
        guard angle > 1e-12 else { return axis / 2 }
        return axis * (angle / (2 * sin(angle)))
    }

    private static func solve3(_ a: [[Double]], _ b: [Double]) -> SIMD3<Double>? {
        func det(_ m: [[Double]]) -> Double {
            m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
        }
        let d = det(a)
        guard abs(d) > 1e-300, d.isFinite else { return nil }
        var x = SIMD3<Double>(0, 0, 0)
        for column in 0..<3 {
            var m = a
            for row in 0..<3 { m[row][column] = b[row] }
            x[column] = det(m) / d
        }
        return x
    }
}

extension ProjectionDifference {
    /// The grid point's position in the image.
    public func position(column: Int, row: Int) -> ImagePoint {
        ImagePoint(
            x: Double(imageSize.width - 1) * Double(column) / Double(columns - 1),
            y: Double(imageSize.height - 1) * Double(row) / Double(rows - 1))
    }

    /// The grid as an ``UncertaintyMap`` (of differences), for drawing.
    var asMap: UncertaintyMap {
        UncertaintyMap(imageSize: imageSize, distance: distance, columns: columns, rows: rows, values: values, centre: centre, corners: corners)
    }
}
