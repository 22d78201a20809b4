import Foundation
import Pixels

/// A board drawn on a sheet of paper at its real size, to print at 100%: the target centred, its
/// pattern and size printed above it, and a ruler below it to check the print with.
///
/// The pattern must give its size with a unit (`chessboard:9x6:square=25mm`, ``Pattern/unit``).
/// The target is drawn by ``PrintableTarget/render(_:width:height:margin:)`` at 240 pixels per
/// square (a grid board's marker, an AprilGrid's tag), and its black pixels become filled
/// rectangles placed so that the drawn board spans exactly its real extent: squares are whole
/// pixels, so a chessboard's or ChArUco board's squares measure exactly their stated size.
public enum PrintSheet {
    /// A paper size.
    public enum Paper: String, Sendable, CaseIterable, CustomStringConvertible {
        /// ISO A4, 210 x 297 mm.
        case a4 = "A4"
        /// US Letter, 8.5 x 11 in.
        case letter = "Letter"
        /// ISO A3, 297 x 420 mm.
        case a3 = "A3"

        /// Reads a paper's name in any case (`a4`, `LETTER`).
        public init?(name: String) {
            guard let paper = Paper.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else { return nil }
            self = paper
        }

        /// Width and height in millimetres, portrait.
        public var millimetres: (width: Double, height: Double) {
            switch self {
            case .a4: (210, 297)
            case .letter: (215.9, 279.4)
            case .a3: (297, 420)
            }
        }

        /// The name.
        public var description: String { rawValue }
    }

    /// The file a sheet is written as.
    public enum Format: String, Sendable, CaseIterable {
        /// PDF 1.4, one page of the paper's size.
        case pdf
        /// SVG whose width and height are the paper's in millimetres.
        case svg
    }

    /// White paper left around everything printed, in millimetres (most printers cannot print
    /// nearer the edge).
    public static let paperMargin = 6.0
    /// The height the lines of text and the ruler take above and below the target, in millimetres.
    static let header = 9.0
    static let footer = 9.0
    /// The pixels per square (marker, tag) at which the target is drawn before it becomes rectangles.
    static let pixelsPerFeature = 240.0

    /// The extent of `pattern`'s target in metres (width, height), or `nil` without a unit.
    public static func extent(of pattern: Pattern) -> (width: Double, height: Double)? {
        guard let unit = pattern.unit else { return nil }
        let extent = boardExtent(pattern)
        return (unit.metres(extent.width), unit.metres(extent.height))
    }

    /// The target's extent in the pattern's own lengths, and the length of one feature (square,
    /// marker or tag) in them.
    private static func boardExtent(_ pattern: Pattern) -> (width: Double, height: Double, feature: Double) {
        switch pattern {
        case .chessboard(let board):
            return (Double(board.columns + 1) * board.squareLength, Double(board.rows + 1) * board.squareLength, board.squareLength)
        case .charuco(let board):
            return (Double(board.columns) * board.squareLength, Double(board.rows) * board.squareLength, board.squareLength)
        case .gridBoard(let board):
            let pitch = board.markerLength + board.markerSeparation
            return (Double(board.columns) * pitch - board.markerSeparation, Double(board.rows) * pitch - board.markerSeparation,
                    board.markerLength)
        case .aprilGrid(let grid):
            let spacing = grid.tagSpacing
            return ((Double(grid.columns) * (1 + spacing) + spacing) * grid.tagSize, (Double(grid.rows) * (1 + spacing) + spacing) * grid.tagSize,
                    grid.tagSize)
        case .circleGrid(let grid):
            // From the outer edge of the first circle to that of the last: the centres' extent in
            // spacings, plus a circle's diameter.
            let across = Double(grid.asymmetric ? (grid.rows > 1 ? 2 * grid.columns - 1 : 2 * grid.columns - 2) : grid.columns - 1)
            let diameter = PrintableTarget.circleDiameter
            return ((across + diameter) * grid.spacing, (Double(grid.rows - 1) + diameter) * grid.spacing, grid.spacing)
        case .aruco, .aprilTag:
            return (0, 0, 0)
        }
    }

    /// What the sheet states about the size, in words: `squares 25 mm`.
    public static func sizeText(of pattern: Pattern) -> String {
        guard let unit = pattern.unit else { return "no size" }
        func length(_ value: Double) -> String { Length.number((value * 1e6).rounded() / 1e6) + " " + unit.rawValue }
        switch pattern {
        case .chessboard(let board): return "squares \(length(board.squareLength))"
        case .charuco(let board): return "squares \(length(board.squareLength)), markers \(length(board.markerLength))"
        case .gridBoard(let board): return "markers \(length(board.markerLength)), gaps \(length(board.markerSeparation))"
        case .aprilGrid(let grid): return "tags \(length(grid.tagSize)), spacing \(Length.number(grid.tagSpacing))"
        case .circleGrid(let grid):
            return "circles \(length(grid.spacing * PrintableTarget.circleDiameter)) across, rows \(length(grid.spacing)) apart"
        case .aruco, .aprilTag: return "no size"
        }
    }

    /// Draws `pattern` at its real size on `paper`, portrait or landscape (whichever it fits), as `format`.
    ///
    /// - Throws: ``DetectionError/cannotRender(reason:)`` for a pattern without a unit or loose
    ///   markers, or a target larger than the paper; what ``PrintableTarget/render(_:width:height:margin:)`` throws.
    public static func render(_ pattern: Pattern, paper: Paper, format: Format) throws(DetectionError) -> [UInt8] {
        let drawing = try draw(pattern, paper: paper)
        switch format {
        case .pdf: return drawing.pdf()
        case .svg: return drawing.svg()
        }
    }

    static func draw(_ pattern: Pattern, paper: Paper) throws(DetectionError) -> SheetDrawing {
        switch pattern {
        case .aruco, .aprilTag: throw .cannotRender(reason: "loose markers have no board to print")
        default: break
        }
        guard let unit = pattern.unit, let metres = extent(of: pattern) else {
            throw .cannotRender(
                reason: "a sheet at real size needs the target's size with a unit (mm, cm, m or in), e.g. "
                    + "chessboard:9x6:square=25mm or charuco:5x7:DICT_6X6_250:square=40mm,marker=20mm")
        }
        let board = (width: metres.width * 1000, height: metres.height * 1000)
        let size = paper.millimetres
        let room = { (width: Double, height: Double) in
            (width - 2 * paperMargin, height - 2 * paperMargin - header - footer)
        }
        let portrait = room(size.width, size.height), landscape = room(size.height, size.width)
        let page: (width: Double, height: Double)
        if board.width <= portrait.0, board.height <= portrait.1 {
            page = size
        } else if board.width <= landscape.0, board.height <= landscape.1 {
            page = (size.height, size.width)
        } else {
            throw .cannotRender(
                reason: String(format: "the target is %.1f x %.1f mm; %@ holds at most %.1f x %.1f mm (%.1f x %.1f across) inside its margins, "
                    + "ruler and text: choose a larger --paper or a smaller size", board.width, board.height, paper.rawValue,
                    portrait.0, portrait.1, landscape.0, landscape.1))
        }
        var drawing = SheetDrawing(width: page.width, height: page.height)
        let left = (page.width - board.width) / 2
        let top = paperMargin + header + (page.height - 2 * paperMargin - header - footer - board.height) / 2
        try place(pattern, at: (left, top), size: board, into: &drawing)
        drawing.texts.append(.init(x: paperMargin, y: paperMargin + 3, size: 3.2, text: pattern.description))
        drawing.texts.append(.init(
            x: paperMargin, y: paperMargin + 7, size: 2.6,
            text: "\(sizeText(of: pattern)); target \(format1(board.width)) x \(format1(board.height)) mm. Print at 100% (no fit to page) "
                + "and check with the ruler."))
        drawRuler(unit: unit, into: &drawing)
        return drawing
    }

    private static func format1(_ value: Double) -> String { String(format: "%.1f", value) }

    /// Renders the target, finds its black pixels' extent, and adds them as rectangles scaled so
    /// that the extent is `size` (mm), its top-left at `origin`.
    private static func place(
        _ pattern: Pattern, at origin: (Double, Double), size: (width: Double, height: Double), into drawing: inout SheetDrawing
    ) throws(DetectionError) {
        let extent = boardExtent(pattern)
        let scale = pixelsPerFeature / extent.feature
        let width = Int((extent.width * scale).rounded()), height = Int((extent.height * scale).rounded())
        guard width <= PrintableTarget.maximumSide, height <= PrintableTarget.maximumSide else {
            throw .cannotRender(reason: "the target has too many squares to draw (\(width)x\(height) pixels)")
        }
        let image = try PrintableTarget.render(pattern, width: width, height: height, margin: 0)
        // Each row's black runs; a run with the same ends as one in the row above grows that one's
        // rectangle downwards.
        struct Span: Hashable {
            var start: Int
            var end: Int
        }
        var rectangles: [(span: Span, top: Int, bottom: Int)] = []
        var open: [Span: Int] = [:]
        var box = (left: Int.max, top: Int.max, right: -1, bottom: -1)
        for y in 0...image.height {
            var spans = Set<Span>()
            if y < image.height {
                let row = image.row(y)
                var x = 0
                while x < image.width {
                    guard row[x] < 128 else {
                        x += 1
                        continue
                    }
                    let start = x
                    while x < image.width, row[x] < 128 { x += 1 }
                    spans.insert(Span(start: start, end: x))
                    box = (min(box.left, start), min(box.top, y), max(box.right, x), max(box.bottom, y + 1))
                }
            }
            for (span, top) in open where !spans.contains(span) {
                rectangles.append((span, top, y))
                open[span] = nil
            }
            for span in spans where open[span] == nil { open[span] = y }
        }
        guard box.right > box.left, box.bottom > box.top else { throw .cannotRender(reason: "the target drew nothing") }
        let sx = size.width / Double(box.right - box.left), sy = size.height / Double(box.bottom - box.top)
        for rectangle in rectangles.sorted(by: { ($0.top, $0.span.start) < ($1.top, $1.span.start) }) {
            drawing.rectangles.append(.init(
                x: origin.0 + Double(rectangle.span.start - box.left) * sx, y: origin.1 + Double(rectangle.top - box.top) * sy,
                width: Double(rectangle.span.end - rectangle.span.start) * sx, height: Double(rectangle.bottom - rectangle.top) * sy))
        }
    }

    /// A ruler along the bottom: 100 mm with a tick every millimetre (or 4 inches with a tick every
    /// tenth, for a pattern in inches), labelled every 10 mm (inch).
    private static func drawRuler(unit: LengthUnit, into drawing: inout SheetDrawing) {
        let inches = unit == .inch
        let step = inches ? 2.54 : 1.0, count = inches ? 40 : 100
        let x0 = paperMargin, y = drawing.height - paperMargin - 1
        drawing.lines.append(.init(x0: x0, y0: y, x1: x0 + Double(count) * step, y1: y, width: 0.2))
        for index in 0...count {
            let major = index % 10 == 0, middle = index % 5 == 0
            let x = x0 + Double(index) * step
            drawing.lines.append(.init(x0: x, y0: y, x1: x, y1: y - (major ? 4 : middle ? 2.8 : 1.8), width: 0.15))
            if major { drawing.texts.append(.init(x: x + 0.5, y: y - 4.5, size: 2.5, text: String(index / 10))) }
        }
        drawing.texts.append(.init(
            x: x0 + Double(count) * step + 3, y: y, size: 3,
            text: inches ? "inches: this ruler is 4 in long (101.6 mm)" : "cm: this ruler is 100 mm long"))
    }
}
