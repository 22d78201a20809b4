/// Kalibr's AprilGrid: `columns` x `rows` AprilTags with black borders two cells wide, separated by
/// gaps of ``tagSpacing`` times the tag size, with a black square of the gap's size at every tag
/// corner (so each tag corner is an X-junction, like a chessboard corner).
///
/// As Kalibr lays it out, tag ids run row by row from the bottom-left tag (``firstTag``), and board
/// corners too, two rows and two columns of them per tag: the tag in column `c` and row `r` (both
/// counted from the bottom-left) has corners `(2r + dy) * 2 * columns + 2c + dx`, with `dx` 0 on
/// its left and 1 on its right, `dy` 0 at its bottom and 1 at its top.
public struct AprilGrid: Sendable, Hashable {
    /// Tags across.
    public var columns: Int
    /// Tags down.
    public var rows: Int
    /// The tags' family: one with a plain border (``AprilTagFamily/hasPlainBorder``).
    public var family: AprilTagFamily
    /// A tag's side, outer edge of the black border to outer edge, in ``unit`` (Kalibr's `tagSize`).
    public var tagSize: Double
    /// The unit of ``tagSize``, or `nil` for board units.
    public var unit: LengthUnit?
    /// The gap between tags as a ratio of ``tagSize`` (Kalibr's `tagSpacing`), above 0 and at most 1.
    public var tagSpacing: Double
    /// The id of the bottom-left tag.
    public var firstTag: Int
    /// How libapriltag looks for the tags.
    public var options: AprilTagOptions

    /// The tag size a pattern string implies when it names none (Kalibr's sample grid: 8.8 cm).
    public static let defaultTagSize = 0.088
    /// The spacing a pattern string implies when it names none (Kalibr's default, 0.3).
    public static let defaultTagSpacing = 0.3
    /// The cells a tag's black border is wide on an AprilGrid.
    public static let borderCells = 2

    /// Describes an AprilGrid.
    ///
    /// - Parameters:
    ///   - columns: Tags across, at least 1.
    ///   - rows: Tags down, at least 1.
    ///   - family: The tag family.
    ///   - tagSize: A tag's side.
    ///   - tagSpacing: The gap between tags as a ratio of the tag's side.
    ///   - firstTag: The id of the bottom-left tag.
    ///   - options: Detector options.
    ///   - unit: The unit of `tagSize`, or `nil` for board units.
    public init(
        columns: Int, rows: Int, family: AprilTagFamily = .tag36h11, tagSize: Double = defaultTagSize,
        tagSpacing: Double = defaultTagSpacing, firstTag: Int = 0, options: AprilTagOptions = AprilTagOptions(),
        unit: LengthUnit? = nil
    ) {
        self.columns = columns
        self.rows = rows
        self.family = family
        self.tagSize = tagSize
        self.tagSpacing = tagSpacing
        self.firstTag = firstTag
        self.options = options
        self.unit = unit
    }

    /// How many tags the grid carries.
    public var tagCount: Int { columns * rows }
    /// The tag ids on the grid, row by row from the bottom-left.
    public var tagIDs: Range<Int> { firstTag..<(firstTag + tagCount) }
    /// How many corners the grid has: four per tag.
    public var cornerCount: Int { 4 * tagCount }

    /// The board corner id of one corner of one tag.
    ///
    /// - Parameters:
    ///   - tag: A tag id in ``tagIDs``.
    ///   - right: The tag's right corner (else its left).
    ///   - top: The tag's top corner (else its bottom), as the grid is printed.
    public func cornerID(tag: Int, right: Bool, top: Bool) -> Int {
        let index = tag - firstTag
        let (row, column) = index.quotientAndRemainder(dividingBy: columns)
        return (2 * row + (top ? 1 : 0)) * 2 * columns + 2 * column + (right ? 1 : 0)
    }
}
