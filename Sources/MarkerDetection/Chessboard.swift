/// A classic chessboard, counted by its inner corners (where four squares meet).
///
/// A board of 10x7 squares has 9x6 inner corners. Corners are found with OpenCV's
/// `findChessboardCorners` and refined to sub-pixel positions with `cornerSubPix`; their ids are
/// their indices in OpenCV's order, row by row.
public struct Chessboard: Sendable, Hashable {
    /// Inner corners across.
    public var columns: Int
    /// Inner corners down.
    public var rows: Int
    /// A square's side, in ``unit`` (1 when the pattern names no size: lengths are then in squares).
    public var squareLength: Double
    /// The unit of ``squareLength``, or `nil` for board units.
    public var unit: LengthUnit?

    /// Describes a chessboard by its inner corners.
    ///
    /// - Parameters:
    ///   - columns: Inner corners across.
    ///   - rows: Inner corners down.
    ///   - squareLength: A square's side, in `unit`.
    ///   - unit: The unit of `squareLength`, or `nil` for board units.
    public init(columns: Int, rows: Int, squareLength: Double = 1, unit: LengthUnit? = nil) {
        self.columns = columns
        self.rows = rows
        self.squareLength = squareLength
        self.unit = unit
    }

    /// How many corners a complete detection has: `columns * rows`.
    public var cornerCount: Int { columns * rows }
}
