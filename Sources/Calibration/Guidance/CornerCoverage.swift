public import MarkerDetection

/// Where the corners of the views fell, counted on a grid of cells over the image.
///
/// A cell is covered when at least ``minimumCorners`` corners fell in it; the coverage is the share
/// of covered cells. Calibrations whose corners stay in the middle of the image say little about
/// the distortion near its edges.
public struct CornerCoverage: Sendable, Hashable {
    /// Cells across.
    public let columns: Int
    /// Cells down.
    public let rows: Int
    /// The image size.
    public let imageSize: ImageSize
    /// Corners per cell, row by row from the top-left cell.
    public private(set) var counts: [Int]
    /// Corners a cell needs to count as covered.
    public let minimumCorners: Int

    /// An empty grid over images of `imageSize`.
    public init(imageSize: ImageSize, columns: Int = 8, rows: Int = 6, minimumCorners: Int = 3) {
        self.imageSize = imageSize
        self.columns = columns
        self.rows = rows
        self.minimumCorners = minimumCorners
        counts = Array(repeating: 0, count: columns * rows)
    }

    /// The grid of every point of `views`.
    public init(views: [CalibrationView], imageSize: ImageSize) {
        self.init(imageSize: imageSize)
        for view in views { add(view.points.map(\.image)) }
    }

    /// Counts `points`.
    public mutating func add(_ points: [ImagePoint]) {
        for point in points {
            guard let cell = cell(of: point) else { continue }
            counts[cell.row * columns + cell.column] += 1
        }
    }

    /// The cell `point` falls in, or `nil` outside the image.
    public func cell(of point: ImagePoint) -> (column: Int, row: Int)? {
        let u = (point.x + 0.5) / Double(imageSize.width), v = (point.y + 0.5) / Double(imageSize.height)
        guard u >= 0, u < 1, v >= 0, v < 1 else { return nil }
        return (Int(u * Double(columns)), Int(v * Double(rows)))
    }

    /// Whether a cell is covered.
    public func isCovered(column: Int, row: Int) -> Bool { counts[row * columns + column] >= minimumCorners }

    /// The share of covered cells, 0...1.
    public var fraction: Double {
        Double(counts.filter { $0 >= minimumCorners }.count) / Double(counts.count)
    }

    /// The image's thirds (left, right, top, bottom) in which no corner fell, by name.
    public var emptyThirds: [String] {
        var empty: [String] = []
        func corners(columns range: Range<Double>, rows rowRange: Range<Double>) -> Int {
            var total = 0
            for row in 0..<rows {
                for column in 0..<columns {
                    let u = (Double(column) + 0.5) / Double(columns), v = (Double(row) + 0.5) / Double(rows)
                    if range.contains(u), rowRange.contains(v) { total += counts[row * columns + column] }
                }
            }
            return total
        }
        if corners(columns: 0..<(1.0 / 3), rows: 0..<1) == 0 { empty.append("left") }
        if corners(columns: (2.0 / 3)..<1, rows: 0..<1) == 0 { empty.append("right") }
        if corners(columns: 0..<1, rows: 0..<(1.0 / 3)) == 0 { empty.append("top") }
        if corners(columns: 0..<1, rows: (2.0 / 3)..<1) == 0 { empty.append("bottom") }
        return empty
    }
}
