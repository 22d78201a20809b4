/// A ChArUco board: a chessboard whose white squares hold ArUco markers.
///
/// Marker ids start at 0 and run row by row from the top. Board corners are the chessboard's inner
/// corners, `(columns - 1) * (rows - 1)` of them, numbered row by row from the top-left one.
///
/// OpenCV 4.6 changed where the markers go on boards with an even number of rows: the top-left
/// square is black (as on a plain chessboard), where older versions put marker 0 there. Boards
/// printed by older versions, and by tools that follow them, need ``legacyLayout``. With an odd
/// number of rows both layouts are the same.
public struct CharucoBoard: Sendable, Hashable {
    /// Squares across.
    public var columns: Int
    /// Squares down.
    public var rows: Int
    /// The markers' dictionary.
    public var dictionary: MarkerDictionary
    /// A square's side, in ``unit`` (only the ratio to ``markerLength`` matters for detection).
    public var squareLength: Double
    /// A marker's side, in the same unit as ``squareLength`` and smaller than it.
    public var markerLength: Double
    /// The unit of both lengths, or `nil` for board units.
    public var unit: LengthUnit?
    /// Places markers as OpenCV did before 4.6 on boards with an even number of rows.
    public var legacyLayout: Bool

    /// The square side a pattern string implies when it names none (metres: 4 cm).
    public static let defaultSquareLength = 0.04
    /// The marker side a pattern string implies when it names none (metres: 2 cm).
    public static let defaultMarkerLength = 0.02

    /// Describes a ChArUco board.
    ///
    /// - Parameters:
    ///   - columns: Squares across, at least 2.
    ///   - rows: Squares down, at least 2.
    ///   - dictionary: The markers' dictionary.
    ///   - squareLength: A square's side.
    ///   - markerLength: A marker's side, smaller than `squareLength`.
    ///   - legacyLayout: Use the marker layout of OpenCV before 4.6 (matters for even `rows` only).
    ///   - unit: The unit of both lengths, or `nil` for board units.
    public init(
        columns: Int, rows: Int, dictionary: MarkerDictionary,
        squareLength: Double = defaultSquareLength, markerLength: Double = defaultMarkerLength,
        legacyLayout: Bool = false, unit: LengthUnit? = nil
    ) {
        self.columns = columns
        self.rows = rows
        self.dictionary = dictionary
        self.squareLength = squareLength
        self.markerLength = markerLength
        self.legacyLayout = legacyLayout
        self.unit = unit
    }

    /// How many markers the board carries: half its squares, rounded down.
    public var markerCount: Int { columns * rows / 2 }
    /// How many inner corners the board has: `(columns - 1) * (rows - 1)`.
    public var cornerCount: Int { (columns - 1) * (rows - 1) }
}
