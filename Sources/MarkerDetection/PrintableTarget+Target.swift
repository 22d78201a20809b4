public import Pixels

extension PrintableTarget {
    /// What `board` draws: a board pattern, or a sheet of loose AprilTags, parsed from the words of
    /// its command line with ``init(parsing:)``.
    public enum Target: Sendable, Hashable {
        /// A grid board, ChArUco board, chessboard or AprilGrid.
        case board(Pattern)
        /// A sheet of loose AprilTags.
        case tagSheet(TagSheet)

        /// Parses a target given as words, each of which may hold several joined by ":": `charuco
        /// 5x7 DICT_6X6_250` is `charuco:5x7:DICT_6X6_250`. `aruco` followed by a size means a grid
        /// board (`gridboard`); `apriltag COLSxROWS FAMILY[:first=ID]` a ``TagSheet``; anything else
        /// a pattern string (``Pattern/grammar``).
        ///
        /// - Throws: ``TargetSyntaxError`` for no words, a malformed sheet or pattern, and loose
        ///   markers or tags, which have no board to print.
        public init(parsing arguments: [String]) throws(TargetSyntaxError) {
            guard !arguments.isEmpty else { throw .empty }
            var words = arguments.flatMap { $0.split(separator: ":").map(String.init) }
            if let sheet = try TagSheet(words: words) {
                self = .tagSheet(sheet)
                return
            }
            if words.first?.lowercased() == "aruco", words.count > 1 { words[0] = "gridboard" }
            let pattern: Pattern
            do {
                pattern = try Pattern(parsing: words.joined(separator: ":"))
            } catch {
                throw .pattern(error)
            }
            switch pattern {
            case .aruco: throw .noBoard("loose markers have no board to print: give a size (aruco 5x7 DICT_6X6_250)")
            case .aprilTag(let family, _): throw .noBoard("loose tags have no board to print: give a size (apriltag 4x3 \(family))")
            default: self = .board(pattern)
            }
        }

        /// How `board` names what it drew: the pattern string, or the sheet's description.
        public var name: String {
            switch self {
            case .board(let pattern): pattern.description
            case .tagSheet(let sheet): sheet.description
            }
        }

        /// A height that gives the target's squares the same size across and down in an image
        /// `width` pixels wide with a margin of a tenth of the width: a chessboard counts its
        /// `columns + 1` x `rows + 1` squares, an AprilGrid its tags and the gaps around them, a tag
        /// sheet its tags.
        public func fittingHeight(width: Int) -> Int {
            let (columns, rows): (Double, Double)
            switch self {
            case .tagSheet(let sheet): (columns, rows) = (Double(sheet.columns), Double(sheet.rows))
            case .board(.charuco(let board)): (columns, rows) = (Double(board.columns), Double(board.rows))
            case .board(.gridBoard(let board)): (columns, rows) = (Double(board.columns), Double(board.rows))
            case .board(.chessboard(let board)): (columns, rows) = (Double(board.columns + 1), Double(board.rows + 1))
            case .board(.circleGrid(let grid)):
                // The grid's extent in spacings and a quiet zone of one spacing around it.
                (columns, rows) = (Double(grid.asymmetric ? 2 * grid.columns - 1 : grid.columns - 1) + 2, Double(grid.rows - 1) + 2)
            case .board(.aruco), .board(.aprilTag): (columns, rows) = (1, 1)
            case .board(.aprilGrid(let grid)):
                // Tags and the gaps (with corner squares) around them.
                (columns, rows) = (
                    Double(grid.columns) * (1 + grid.tagSpacing) + grid.tagSpacing,
                    Double(grid.rows) * (1 + grid.tagSpacing) + grid.tagSpacing
                )
            }
            let margin = Double(width) / 10
            let inner = Double(width) - 2 * margin
            return Int((inner * rows / columns + 2 * margin).rounded())
        }

        /// Draws the target: ``PrintableTarget/render(_:width:height:margin:)`` for a board,
        /// ``PrintableTarget/renderTagSheet(family:columns:rows:firstTag:width:height:margin:)`` for a sheet.
        ///
        /// - Throws: What those throw.
        public func render(width: Int, height: Int, margin: Int? = nil) throws(DetectionError) -> PixelBuffer {
            switch self {
            case .board(let pattern):
                try PrintableTarget.render(pattern, width: width, height: height, margin: margin)
            case .tagSheet(let sheet):
                try PrintableTarget.renderTagSheet(
                    family: sheet.family, columns: sheet.columns, rows: sheet.rows, firstTag: sheet.firstTag, width: width,
                    height: height, margin: margin)
            }
        }
    }
}
