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

    /// Describes a chessboard by its inner corners.
    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }

    /// How many corners a complete detection has: `columns * rows`.
    public var cornerCount: Int { columns * rows }
}
