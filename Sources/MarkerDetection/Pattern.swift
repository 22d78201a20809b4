/// The calibration target to look for, as a user writes it in a short string.
///
/// Parse one with ``init(parsing:)``; ``description`` writes it back in the same grammar, so that
/// `try Pattern(parsing: pattern.description) == pattern`. The grammar is written out once, in
/// ``grammar``, which the command line's help quotes.
///
/// Examples: `aruco:DICT_6X6_250`, `aruco:DICT_APRILTAG_36h11`, `aruco:boards/custom.yml`,
/// `gridboard:5x7:DICT_6X6_250`, `charuco:5x7:DICT_6X6_250`,
/// `charuco:8x6:DICT_4X4_50:square=35mm,marker=26mm,legacy`, `chessboard:9x6`,
/// `chessboard:9x6:square=25mm`, `apriltag:tag36h11`, `aprilgrid:6x6:tag36h11:size=88mm,spacing=0.3`,
/// `circles:7x6`, `acircles:4x11:spacing=20mm`.
/// Paths may not contain `:`.
///
/// Lengths are ``Length``s, read in one place for every kind: with a unit (`mm`, `cm`, `m`, `in`)
/// the target has a physical size (``unit``), and calibrations of it are in metres; without one
/// they are board units, as before (only their ratios matter).
public enum Pattern: Sendable, Hashable, CustomStringConvertible, LosslessStringConvertible {
    /// Loose markers of one dictionary, any id it holds.
    case aruco(MarkerDictionary)
    /// An ArUco grid board; only its own marker ids count.
    case gridBoard(ArucoGridBoard)
    /// A ChArUco board; only its own marker ids count.
    case charuco(CharucoBoard)
    /// A chessboard.
    case chessboard(Chessboard)
    /// Loose AprilTags of one family, any id, found by libapriltag 3.
    case aprilTag(AprilTagFamily, AprilTagOptions)
    /// Kalibr's AprilGrid, found by libapriltag 3; only its own tag ids count.
    case aprilGrid(AprilGrid)
    /// A grid of circles, symmetric or OpenCV's asymmetric one, found whole by `findCirclesGrid`.
    case circleGrid(CircleGrid)

    /// The pattern grammar, for `--help` texts and error messages.
    public static let grammar = """
        aruco:DICTIONARY                           loose ArUco or AprilTag markers
        gridboard:COLSxROWS:DICTIONARY[:OPTIONS]   ArUco grid board, COLS x ROWS markers
            options: marker=LENGTH (0.04), gap=LENGTH (0.01), first=ID (0)
        charuco:COLSxROWS:DICTIONARY[:OPTIONS]     ChArUco board, COLS x ROWS squares
            options: square=LENGTH (0.04), marker=LENGTH (0.02), legacy
        chessboard:COLSxROWS[:OPTIONS]             chessboard, COLS x ROWS inner corners
            options: square=LENGTH (1: lengths in squares)
        apriltag:FAMILY[:OPTIONS]                  loose AprilTags (libapriltag 3)
            options: decimate=F (2, or 1 below 720 px), sigma=F (0), refine=0|1 (1)
        aprilgrid:COLSxROWS:FAMILY[:OPTIONS]       Kalibr AprilGrid, COLS x ROWS tags (libapriltag 3)
            options: size=LENGTH (0.088), spacing=RATIO (0.3), first=ID (0), and
            those of apriltag
        circles:COLSxROWS[:OPTIONS]                circle grid, COLS x ROWS circles
        acircles:COLSxROWS[:OPTIONS]               OpenCV's asymmetric circle grid: ROWS rows
                                                   of COLS, every other row shifted by half
            options: spacing=LENGTH (1), the distance between neighbouring rows

        DICTIONARY  an OpenCV name (DICT_4X4_50 ... DICT_7X7_1000, DICT_ARUCO_ORIGINAL,
                    DICT_APRILTAG_16h5, _25h9, _36h10, _36h11; any case), or the path of an
                    OpenCV FileStorage dictionary file ending in .yml, .yaml, .xml or .json
        OPTIONS     comma-separated; `legacy` places ChArUco markers as OpenCV did before
                    4.6 on boards with an even number of rows
        LENGTH      a positive number with a unit, mm, cm, m or in (square=25mm): the
                    target's real size, so that calibrations come out in metres (the
                    defaults are then metres: marker=20mm beside square=40mm may be left
                    out); or without a unit, board units where only the ratios matter
                    (the defaults as given); all of a pattern's lengths in one unit
        ID          the first marker or tag id of the board (the others count on from
                    it): a whole number from 0 to 1000000
        FAMILY      tag36h11, tag25h9, tag16h5, tagStandard41h12, tagStandard52h13,
                    tagCircle21h7, tagCustom48h12, tag36h10, tagCircle49h12 (any case);
                    an AprilGrid takes tag36h11, tag25h9, tag16h5 or tag36h10
        """

    /// The largest marker or tag id a pattern may name (`first=ID`): more than any dictionary or
    /// family holds (tagStandard52h13 has 48,714 tags), and far from where counting on overflows.
    public static let maximumID = 1_000_000

    /// Parses a pattern string (see ``grammar``).
    ///
    /// Parsing reads no file: a dictionary path is checked when a detector is made.
    /// - Throws: ``PatternSyntaxError`` naming what was expected where the text went wrong.
    public init(parsing text: String) throws(PatternSyntaxError) {
        var parser = PatternParser(text: text)
        self = try parser.pattern()
    }

    /// Parses a pattern string, or returns `nil` when it is malformed (see ``init(parsing:)``).
    public init?(_ description: String) {
        guard let pattern = try? Pattern(parsing: description) else { return nil }
        self = pattern
    }

    /// The pattern in the grammar's canonical form: dictionary names as OpenCV spells them and
    /// options only where they differ from the defaults.
    public var description: String {
        switch self {
        case .aruco(let dictionary):
            return "aruco:\(dictionary)"
        case .gridBoard(let board):
            let options = [
                Self.length("marker", board.markerLength, board.unit, default: ArucoGridBoard.defaultMarkerLength),
                Self.length("gap", board.markerSeparation, board.unit, default: ArucoGridBoard.defaultMarkerSeparation),
                board.firstMarker == 0 ? nil : "first=\(board.firstMarker)",
            ]
            return Self.joined("gridboard:\(board.columns)x\(board.rows):\(board.dictionary)", options)
        case .charuco(let board):
            let options = [
                Self.length("square", board.squareLength, board.unit, default: CharucoBoard.defaultSquareLength),
                Self.length("marker", board.markerLength, board.unit, default: CharucoBoard.defaultMarkerLength),
                board.legacyLayout ? "legacy" : nil,
            ]
            return Self.joined("charuco:\(board.columns)x\(board.rows):\(board.dictionary)", options)
        case .chessboard(let board):
            return Self.joined(
                "chessboard:\(board.columns)x\(board.rows)", [Self.length("square", board.squareLength, board.unit, default: 1)])
        case .aprilTag(let family, let options):
            return Self.joined("apriltag:\(family)", options.patternOptions)
        case .aprilGrid(let grid):
            let options = [
                Self.length("size", grid.tagSize, grid.unit, default: AprilGrid.defaultTagSize),
                grid.tagSpacing == AprilGrid.defaultTagSpacing ? nil : "spacing=\(grid.tagSpacing)",
                grid.firstTag == 0 ? nil : "first=\(grid.firstTag)",
            ]
            return Self.joined("aprilgrid:\(grid.columns)x\(grid.rows):\(grid.family)", options + grid.options.patternOptions)
        case .circleGrid(let grid):
            let kind = grid.asymmetric ? "acircles" : "circles"
            return Self.joined(
                "\(kind):\(grid.columns)x\(grid.rows)", [Self.length("spacing", grid.spacing, grid.unit, default: CircleGrid.defaultSpacing)])
        }
    }

    /// The OpenCV dictionary whose markers the pattern carries, or `nil` for a chessboard and for
    /// AprilTag patterns (see ``aprilTagFamily``).
    public var dictionary: MarkerDictionary? {
        switch self {
        case .aruco(let dictionary): dictionary
        case .gridBoard(let board): board.dictionary
        case .charuco(let board): board.dictionary
        case .chessboard, .aprilTag, .aprilGrid, .circleGrid: nil
        }
    }

    /// The AprilTag family libapriltag looks for, or `nil` for OpenCV patterns.
    public var aprilTagFamily: AprilTagFamily? {
        switch self {
        case .aprilTag(let family, _): family
        case .aprilGrid(let grid): grid.family
        default: nil
        }
    }

    /// The unit the pattern's lengths are in, or `nil` when they are board units (or it has none):
    /// the target's physical size is known exactly when there is one.
    public var unit: LengthUnit? {
        switch self {
        case .aruco, .aprilTag: nil
        case .gridBoard(let board): board.unit
        case .charuco(let board): board.unit
        case .chessboard(let board): board.unit
        case .aprilGrid(let grid): grid.unit
        case .circleGrid(let grid): grid.unit
        }
    }

    /// `key=LENGTH` as the pattern writes it: always with a unit; in board units only where the
    /// value differs from `default`.
    private static func length(_ key: String, _ value: Double, _ unit: LengthUnit?, default: Double) -> String? {
        guard unit != nil || value != `default` else { return nil }
        return "\(key)=\(Length(value, unit))"
    }

    private static func joined(_ head: String, _ options: [String?]) -> String {
        let present = options.compactMap { $0 }
        return present.isEmpty ? head : head + ":" + present.joined(separator: ",")
    }
}

/// Reads a pattern string field by field (fields are separated by `:`).
private struct PatternParser {
    let text: String
    private var fields: [Substring]

    init(text: String) {
        self.text = text
        self.fields = text.split(separator: ":", omittingEmptySubsequences: false)
    }

    mutating func pattern() throws(PatternSyntaxError) -> Pattern {
        let kind = nextField()
        switch kind.lowercased() {
        case "aruco":
            let dictionary = try dictionary()
            try end()
            return .aruco(dictionary)
        case "gridboard":
            let (columns, rows) = try size(minimum: 1, of: "markers")
            var board = ArucoGridBoard(columns: columns, rows: rows, dictionary: try dictionary())
            var options = try options(allowed: ["marker", "gap", "first"], lengths: ["marker", "gap"])
            board.unit = options.unit
            board.markerLength = try options.length("marker", default: ArucoGridBoard.defaultMarkerLength)
            board.markerSeparation = try options.length("gap", default: ArucoGridBoard.defaultMarkerSeparation)
            board.firstMarker = try options.count("first") ?? board.firstMarker
            return .gridBoard(board)
        case "charuco":
            let (columns, rows) = try size(minimum: 2, of: "squares")
            var board = CharucoBoard(columns: columns, rows: rows, dictionary: try dictionary())
            var options = try options(allowed: ["square", "marker", "legacy"], lengths: ["square", "marker"])
            board.unit = options.unit
            board.squareLength = try options.length("square", default: CharucoBoard.defaultSquareLength)
            board.markerLength = try options.length("marker", default: CharucoBoard.defaultMarkerLength)
            board.legacyLayout = try options.flag("legacy")
            guard board.markerLength < board.squareLength else {
                throw error("a marker (\(Length(board.markerLength, board.unit))) smaller than its square "
                    + "(\(Length(board.squareLength, board.unit)))")
            }
            return .charuco(board)
        case "chessboard":
            let (columns, rows) = try size(minimum: 3, of: "inner corners")
            var options = try options(allowed: ["square"], lengths: ["square"])
            let unit = options.unit
            // Without a size the square is the unit of length (corners are in squares).
            let square = try options.length("square", default: unit == nil ? 1 : nil)
            return .chessboard(Chessboard(columns: columns, rows: rows, squareLength: square, unit: unit))
        case "circles", "acircles":
            let (columns, rows) = try size(minimum: 2, of: "circles")
            var grid = CircleGrid(columns: columns, rows: rows, asymmetric: kind.lowercased() == "acircles")
            var options = try options(allowed: ["spacing"], lengths: ["spacing"])
            grid.unit = options.unit
            // Without a size the spacing is the unit of length (points are in spacings).
            grid.spacing = try options.length("spacing", default: grid.unit == nil ? CircleGrid.defaultSpacing : nil)
            return .circleGrid(grid)
        case "apriltag":
            let family = try family()
            var options = try options(allowed: ["decimate", "sigma", "refine"], lengths: [])
            return .aprilTag(family, try options.aprilTagOptions())
        case "aprilgrid":
            let (columns, rows) = try size(minimum: 1, of: "tags")
            let family = try family()
            guard family.hasPlainBorder else {
                throw error("an AprilGrid family with a plain border (tag36h11, tag25h9, tag16h5 or tag36h10), found '\(family)'")
            }
            var grid = AprilGrid(columns: columns, rows: rows, family: family)
            var options = try options(allowed: ["size", "spacing", "first", "decimate", "sigma", "refine"], lengths: ["size"])
            grid.unit = options.unit
            grid.tagSize = try options.length("size", default: AprilGrid.defaultTagSize)
            grid.tagSpacing = try options.number("spacing", in: 0...1, excludingLower: true) ?? grid.tagSpacing
            grid.firstTag = try options.count("first") ?? grid.firstTag
            grid.options = try options.aprilTagOptions()
            guard grid.tagIDs.upperBound <= family.codeCount else {
                throw error("a grid within \(family)'s ids 0...\(family.codeCount - 1), found \(grid.tagCount) tags "
                    + "from id \(grid.firstTag) (up to \(grid.tagIDs.upperBound - 1))")
            }
            return .aprilGrid(grid)
        default:
            throw error("a pattern kind (aruco, gridboard, charuco, chessboard, apriltag, aprilgrid, circles or acircles) followed by ':', "
                + "found '\(kind)'")
        }
    }

    private mutating func family() throws(PatternSyntaxError) -> AprilTagFamily {
        let field = String(nextField())
        guard let family = AprilTagFamily(name: field) else {
            let names = AprilTagFamily.allCases.map(\.rawValue).joined(separator: ", ")
            throw error("an AprilTag family (\(names)), found '\(field)'")
        }
        return family
    }

    private mutating func nextField() -> Substring {
        fields.isEmpty ? "" : fields.removeFirst()
    }

    private func error(_ expected: String) -> PatternSyntaxError {
        PatternSyntaxError(text: text, expected: expected)
    }

    private mutating func end() throws(PatternSyntaxError) {
        guard fields.isEmpty else { throw error("nothing after the pattern, found ':\(fields.joined(separator: ":"))'") }
    }

    private mutating func size(minimum: Int, of what: String) throws(PatternSyntaxError) -> (Int, Int) {
        let field = nextField()
        let parts = field.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let columns = Int(parts[0]), let rows = Int(parts[1]) else {
            throw error("a size COLSxROWS in \(what), like 5x7, found '\(field)'")
        }
        guard columns >= minimum, rows >= minimum, columns <= 1000, rows <= 1000 else {
            throw error("a size of \(minimum)...1000 \(what) each way, found \(columns)x\(rows)")
        }
        return (columns, rows)
    }

    private mutating func dictionary() throws(PatternSyntaxError) -> MarkerDictionary {
        let field = String(nextField())
        if field.uppercased().hasPrefix("DICT_") {
            guard let name = PredefinedDictionary(name: field) else {
                let names = PredefinedDictionary.allCases.map(\.rawValue).joined(separator: ", ")
                throw error("a predefined dictionary (\(names)), found '\(field)'")
            }
            return .predefined(name)
        }
        let lowered = field.lowercased()
        guard MarkerDictionary.fileExtensions.contains(where: { lowered.hasSuffix($0) && lowered.count > $0.count })
        else {
            throw error("a dictionary: an OpenCV name like DICT_6X6_250 or a dictionary file ending in "
                + MarkerDictionary.fileExtensions.joined(separator: ", ") + ", found '\(field)'")
        }
        return .file(path: field)
    }

    /// The `key=value` options of the last field, of which `lengths` are ``Length``s in one unit.
    private mutating func options(allowed: [String], lengths: [String]) throws(PatternSyntaxError) -> PatternOptions {
        var options = try rawOptions(allowed: allowed)
        try options.findUnit(of: lengths)
        return options
    }

    private mutating func rawOptions(allowed: [String]) throws(PatternSyntaxError) -> PatternOptions {
        var options = PatternOptions(text: text)
        guard !fields.isEmpty else { return options }
        let field = fields.removeFirst()
        try end()
        for item in field.split(separator: ",", omittingEmptySubsequences: false) {
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = pair[0].lowercased()
            guard allowed.contains(key) else {
                throw error("an option (\(allowed.joined(separator: ", "))), found '\(item)'")
            }
            guard options.values[key] == nil else { throw error("each option once, found '\(key)' twice") }
            options.values[key] = pair.count == 2 ? String(pair[1]) : ""
        }
        return options
    }
}

/// The `key=value` options of one pattern string, taken out one by one with their expected type.
private struct PatternOptions {
    let text: String
    var values: [String: String] = [:]

    /// The unit every length of the pattern is in (see ``findUnit(of:)``), `nil` for board units.
    private(set) var unit: LengthUnit?

    /// Reads the lengths named in `keys` that are given, and finds their one unit: all of them carry
    /// the same unit, or none does.
    ///
    /// - Throws: For a value that is no ``Length``, or lengths in different units.
    mutating func findUnit(of keys: [String]) throws(PatternSyntaxError) {
        var found: [(key: String, length: Length)] = []
        for key in keys {
            guard let value = values[key] else { continue }
            guard let length = Length(parsing: value) else {
                let symbol = value.reversed().prefix { $0.isLetter }
                let unknownUnit = !symbol.isEmpty && symbol.count < value.count && LengthUnit(symbol: String(symbol.reversed())) == nil
                throw PatternSyntaxError(
                    text: text, expected: "\(key)=LENGTH with a positive number"
                        + (unknownUnit ? ", with a unit (mm, cm, m, in) or without one" : "") + ", found '\(key)=\(value)'")
            }
            found.append((key, length))
        }
        guard let first = found.first else { return }
        if let other = found.first(where: { $0.length.unit != first.length.unit }) {
            throw PatternSyntaxError(
                text: text, expected: "every length in one unit (or all without one), found "
                    + "\(first.key)=\(values[first.key] ?? "") and \(other.key)=\(values[other.key] ?? "")")
        }
        unit = first.length.unit
    }

    /// The length `key`, in the pattern's ``unit``; when it is not given, `default` (in metres) in that
    /// unit, or as it is in board units.
    ///
    /// - Throws: When `key` is not given and there is no default.
    mutating func length(_ key: String, default: Double?) throws(PatternSyntaxError) -> Double {
        if let value = values.removeValue(forKey: key), let length = Length(parsing: value) { return length.value }
        guard let `default` else {
            throw PatternSyntaxError(text: text, expected: "\(key)=LENGTH")
        }
        return unit.map { $0.value(ofMetres: `default`) } ?? `default`
    }

    /// A whole number in `0...Pattern.maximumID`, so that ids counted on from it cannot overflow.
    mutating func count(_ key: String) throws(PatternSyntaxError) -> Int? {
        guard let value = values.removeValue(forKey: key) else { return nil }
        guard let count = Int(value), (0...Pattern.maximumID).contains(count) else {
            throw PatternSyntaxError(
                text: text, expected: "\(key)=N with a whole number N from 0 to \(Pattern.maximumID), found '\(key)=\(value)'")
        }
        return count
    }

    mutating func number(_ key: String, in range: ClosedRange<Double>, excludingLower: Bool = false)
        throws(PatternSyntaxError) -> Double?
    {
        guard let value = values.removeValue(forKey: key) else { return nil }
        guard let number = Double(value), range.contains(number), !(excludingLower && number == range.lowerBound) else {
            let bounds = excludingLower ? "above \(range.lowerBound) and at most \(range.upperBound)" : "from \(range.lowerBound) to \(range.upperBound)"
            throw PatternSyntaxError(text: text, expected: "\(key)= a number \(bounds), found '\(key)=\(value)'")
        }
        return number
    }

    /// `key` alone or `key=1` is on, `key=0` off; absent gives `default`.
    mutating func toggle(_ key: String, default: Bool) throws(PatternSyntaxError) -> Bool {
        guard let value = values.removeValue(forKey: key) else { return `default` }
        switch value {
        case "", "1": return true
        case "0": return false
        default: throw PatternSyntaxError(text: text, expected: "'\(key)', '\(key)=1' or '\(key)=0', found '\(key)=\(value)'")
        }
    }

    /// The libapriltag options `decimate`, `sigma` and `refine`.
    mutating func aprilTagOptions() throws(PatternSyntaxError) -> AprilTagOptions {
        AprilTagOptions(
            decimate: try number("decimate", in: AprilTagOptions.decimateRange),
            sigma: try number("sigma", in: AprilTagOptions.sigmaRange) ?? AprilTagOptions.defaultSigma,
            refineEdges: try toggle("refine", default: true))
    }

    mutating func flag(_ key: String) throws(PatternSyntaxError) -> Bool {
        guard let value = values.removeValue(forKey: key) else { return false }
        guard value.isEmpty else {
            throw PatternSyntaxError(text: text, expected: "'\(key)' alone, without a value, found '\(key)=\(value)'")
        }
        return true
    }
}
