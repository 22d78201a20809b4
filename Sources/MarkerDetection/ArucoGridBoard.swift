/// An ArUco grid board: `columns` x `rows` markers separated by a white gap.
///
/// Marker ids run row by row from the top-left marker, starting at ``firstMarker``.
public struct ArucoGridBoard: Sendable, Hashable {
    /// Markers across.
    public var columns: Int
    /// Markers down.
    public var rows: Int
    /// The markers' dictionary.
    public var dictionary: MarkerDictionary
    /// A marker's side, in ``unit`` (only the ratio to ``markerSeparation`` matters for detection).
    public var markerLength: Double
    /// The gap between neighbouring markers, in the same unit.
    public var markerSeparation: Double
    /// The unit of both lengths, or `nil` for board units.
    public var unit: LengthUnit?
    /// The id of the top-left marker.
    public var firstMarker: Int

    /// The marker side a pattern string implies when it names none (metres: 4 cm).
    public static let defaultMarkerLength = 0.04
    /// The gap a pattern string implies when it names none (metres: 1 cm).
    public static let defaultMarkerSeparation = 0.01

    /// Describes a grid board.
    ///
    /// - Parameters:
    ///   - columns: Markers across, at least 1.
    ///   - rows: Markers down, at least 1.
    ///   - dictionary: The markers' dictionary.
    ///   - markerLength: A marker's side.
    ///   - markerSeparation: The gap between neighbouring markers.
    ///   - firstMarker: The id of the top-left marker.
    ///   - unit: The unit of both lengths, or `nil` for board units.
    public init(
        columns: Int, rows: Int, dictionary: MarkerDictionary,
        markerLength: Double = defaultMarkerLength, markerSeparation: Double = defaultMarkerSeparation,
        firstMarker: Int = 0, unit: LengthUnit? = nil
    ) {
        self.columns = columns
        self.rows = rows
        self.dictionary = dictionary
        self.markerLength = markerLength
        self.markerSeparation = markerSeparation
        self.firstMarker = firstMarker
        self.unit = unit
    }

    /// How many markers the board carries.
    public var markerCount: Int { columns * rows }
    /// The ids on the board, row by row.
    public var markerIDs: Range<Int> { firstMarker..<(firstMarker + markerCount) }
}
