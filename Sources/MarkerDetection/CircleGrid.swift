/// A grid of dark circles on a light ground, found with OpenCV's `findCirclesGrid`: symmetric
/// (`columns` x `rows` circles in rows and columns) or OpenCV's asymmetric grid (`rows` rows of
/// `columns` circles, every other row shifted by half the distance between two circles of a row).
///
/// Points are the circles' centres, numbered as OpenCV orders them: row by row, `id = row *
/// columns + column`. Point `(column, row)` lies at `(column, row) x spacing` on a symmetric grid and
/// at `(2 column + row % 2, row) x spacing` on an asymmetric one, as OpenCV's calibration sample
/// lays out its `acircles` pattern: ``spacing`` is the distance between neighbouring rows, half the
/// distance between neighbours within a row of an asymmetric grid. The whole grid must be in view.
public struct CircleGrid: Sendable, Hashable {
    /// Circles in each row.
    public var columns: Int
    /// Rows of circles.
    public var rows: Int
    /// Whether every other row is shifted by half a row's spacing (OpenCV's `acircles` pattern).
    public var asymmetric: Bool
    /// The distance between neighbouring rows, in ``unit`` (1 when the pattern names no size:
    /// lengths are then in spacings).
    public var spacing: Double
    /// The unit of ``spacing``, or `nil` for board units.
    public var unit: LengthUnit?

    /// The spacing a pattern string implies when it names none: 1, so that lengths come out in
    /// spacings.
    public static let defaultSpacing = 1.0

    /// Describes a circle grid.
    ///
    /// - Parameters:
    ///   - columns: Circles in each row, at least 2.
    ///   - rows: Rows of circles, at least 2.
    ///   - asymmetric: OpenCV's asymmetric layout.
    ///   - spacing: The distance between neighbouring rows, in `unit`.
    ///   - unit: The unit of `spacing`, or `nil` for board units.
    public init(columns: Int, rows: Int, asymmetric: Bool, spacing: Double = defaultSpacing, unit: LengthUnit? = nil) {
        self.columns = columns
        self.rows = rows
        self.asymmetric = asymmetric
        self.spacing = spacing
        self.unit = unit
    }

    /// How many circles the grid has.
    public var pointCount: Int { columns * rows }

    /// Where point `id` lies on the board, in ``unit``.
    public func position(of id: Int) -> (x: Double, y: Double) {
        let (row, column) = id.quotientAndRemainder(dividingBy: columns)
        let x = asymmetric ? Double(2 * column + row % 2) : Double(column)
        return (x * spacing, Double(row) * spacing)
    }
}
