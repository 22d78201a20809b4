import Foundation
public import MarkerDetection

/// A projection-uncertainty map (``ProjectionUncertainty``) sampled over the image: a grid of
/// worst-direction standard deviations in pixels, with the centre and the four corners.
public struct UncertaintyMap: Sendable, Hashable {
    /// The grid's points across, by default.
    public static let defaultColumns = 32
    /// The level the share of the image is counted under, in pixels.
    public static let goodLevel = 0.5
    /// The names of the image's corners, in the order of ``corners``.
    public static let cornerNames = ["upper-left", "upper-right", "lower-left", "lower-right"]

    /// The image's size.
    public var imageSize: ImageSize
    /// The range at which each pixel's point was placed, in the target's units.
    public var distance: Double
    /// Grid points across: from x = 0 to the last pixel, evenly.
    public var columns: Int
    /// Grid points down: from y = 0 to the last pixel, evenly.
    public var rows: Int
    /// Row by row from the top, in pixels; infinite where the model cannot be inverted (beyond its
    /// fold, where it says nothing about where a point appears) or its spread has no bound.
    public var values: [Double]
    /// At the image's centre, in pixels.
    public var centre: Double
    /// At the upper-left, upper-right, lower-left and lower-right pixels, in pixels.
    public var corners: [Double]

    /// Makes a map.
    public init(imageSize: ImageSize, distance: Double, columns: Int, rows: Int, values: [Double], centre: Double, corners: [Double]) {
        self.imageSize = imageSize
        self.distance = distance
        self.columns = columns
        self.rows = rows
        self.values = values
        self.centre = centre
        self.corners = corners
    }

    /// The grid point's position in the image.
    public func position(column: Int, row: Int) -> ImagePoint {
        ImagePoint(
            x: Double(imageSize.width - 1) * Double(column) / Double(columns - 1),
            y: Double(imageSize.height - 1) * Double(row) / Double(rows - 1))
    }

    /// The value at a grid point.
    public func value(column: Int, row: Int) -> Double { values[row * columns + column] }

    /// The value at `point`, interpolated between the grid's four nearest points.
    public func value(at point: ImagePoint) -> Double {
        let gx = min(max(point.x / Double(imageSize.width - 1) * Double(columns - 1), 0), Double(columns - 1))
        let gy = min(max(point.y / Double(imageSize.height - 1) * Double(rows - 1), 0), Double(rows - 1))
        let x0 = min(Int(gx), columns - 2), y0 = min(Int(gy), rows - 2)
        let fx = gx - Double(x0), fy = gy - Double(y0)
        // Points of no weight are left out, so that a point the model cannot invert spoils only
        // its own neighbourhood.
        var sum = 0.0
        for (dx, dy, weight) in [(0, 0, (1 - fx) * (1 - fy)), (1, 0, fx * (1 - fy)), (0, 1, (1 - fx) * fy), (1, 1, fx * fy)]
        where weight > 0 {
            sum += weight * value(column: x0 + dx, row: y0 + dy)
        }
        return sum
    }

    /// The worst of the four corners: its name (``cornerNames``) and value.
    public var worstCorner: (name: String, value: Double) {
        var worst = 0
        for index in corners.indices where !(corners[index] <= corners[worst]) { worst = index }
        return (Self.cornerNames[worst], corners[worst])
    }

    /// The share of the grid's points under `level` pixels (points where the model cannot be
    /// inverted count as over).
    public func share(under level: Double = goodLevel) -> Double {
        guard !values.isEmpty else { return 0 }
        return Double(values.filter { $0 < level }.count) / Double(values.count)
    }
}
