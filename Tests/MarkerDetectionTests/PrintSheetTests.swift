import Foundation
import MarkerDetection
import Pixels
import Testing

/// Boards drawn at their real size: the PDF rasterised by poppler (pdftoppm) is detected, and its
/// squares measured in the raster at the known resolution; pdfinfo reads the page size.
@Suite struct PrintSheetTests {
    static let poppler = FileManager.default.isExecutableFile(atPath: "/usr/bin/pdftoppm")
        && FileManager.default.isExecutableFile(atPath: "/usr/bin/pdfinfo")

    static func run(_ tool: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(tool) \(arguments)")
        return String(decoding: data, as: UTF8.self)
    }

    static func folder() throws -> String {
        let path = NSTemporaryDirectory() + "print-sheet-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The PDF of `pattern` on `paper`, rasterised at `dpi`: its page size in points and the
    /// mean distance between neighbouring board corners along rows and columns, in millimetres.
    static func measure(_ text: String, paper: PrintSheet.Paper, dpi: Int = 300, neighbours: (Int) -> Int?)
        throws -> (page: String, square: [Double], corners: Int)
    {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let pattern = try Pattern(parsing: text)
        let pdf = try PrintSheet.render(pattern, paper: paper, format: .pdf)
        try Data(pdf).write(to: URL(fileURLWithPath: root + "/sheet.pdf"))
        let info = try run("/usr/bin/pdfinfo", [root + "/sheet.pdf"])
        let page = info.split(separator: "\n").first { $0.hasPrefix("Page size:") }.map { String($0.dropFirst(10)).trimmingCharacters(in: .whitespaces) } ?? ""
        _ = try run("/usr/bin/pdftoppm", ["-r", "\(dpi)", "-gray", "-png", "-singlefile", root + "/sheet.pdf", root + "/page"])
        let image = try ImageFile.read(root + "/page.png")
        let detection = try MarkerDetector(pattern: pattern).detect(image)
        let points = Dictionary(uniqueKeysWithValues: detection.boardCorners.map { ($0.id, $0.point) })
        var distances: [Double] = []
        for (id, point) in points {
            guard let next = neighbours(id), let other = points[next] else { continue }
            distances.append(((point.x - other.x) * (point.x - other.x) + (point.y - other.y) * (point.y - other.y)).squareRoot())
        }
        let millimetres = distances.map { $0 / Double(dpi) * 25.4 }
        return (page, millimetres, points.count)
    }

    /// `chessboard:9x6:square=25mm` on A4 (landscape: 250 x 175 mm does not fit upright): every
    /// corner found, every square 25 mm within 0.5%.
    @Test(.enabled(if: poppler, "poppler-utils (pdftoppm, pdfinfo) is not installed"))
    func aChessboardsSquaresMeasureTheirSize() throws {
        let measured = try Self.measure("chessboard:9x6:square=25mm", paper: .a4) { $0 % 9 == 8 ? nil : $0 + 1 }
        #expect(measured.page == "841.89 x 595.276 pts (A4)")
        #expect(measured.corners == 54)
        #expect(measured.square.count == 48)
        let worst = measured.square.map { abs($0 / 25 - 1) }.max() ?? 1
        print("chessboard 25 mm on A4 at 300 dpi: squares \(measured.square.min()!)...\(measured.square.max()!) mm, worst \(worst * 100)%")
        #expect(worst < 0.005)
    }

    /// OpenCV's asymmetric circle grid with rows 20 mm apart on A4: every circle found, and the
    /// centres of neighbours in a row (two spacings apart) 40 mm apart within 0.5%.
    @Test(.enabled(if: poppler, "poppler-utils (pdftoppm, pdfinfo) is not installed"))
    func aCircleGridsSpacingMeasuresItsSize() throws {
        let measured = try Self.measure("acircles:4x11:spacing=20mm", paper: .a4) { $0 % 4 == 3 ? nil : $0 + 1 }
        #expect(measured.corners == 44)
        #expect(measured.square.count == 33)
        let worst = measured.square.map { abs($0 / 40 - 1) }.max() ?? 1
        print("acircles 20 mm on A4 at 300 dpi: neighbours in a row \(measured.square.min() ?? 0)...\(measured.square.max() ?? 0) mm, worst \(worst * 100)%")
        #expect(worst < 0.005)
        #expect(PrintSheet.sizeText(of: try Pattern(parsing: "acircles:4x11:spacing=20mm")) == "circles 10 mm across, rows 20 mm apart")
    }

    /// A ChArUco board of 35 mm squares on Letter: its corners found, squares 35 mm within 0.5%.
    @Test(.enabled(if: poppler, "poppler-utils (pdftoppm, pdfinfo) is not installed"))
    func aCharucoBoardsSquaresMeasureTheirSize() throws {
        let measured = try Self.measure("charuco:5x7:DICT_6X6_250:square=35mm,marker=26mm", paper: .letter) {
            $0 % 4 == 3 ? nil : $0 + 1
        }
        #expect(measured.page == "612 x 792 pts (letter)")
        #expect(measured.corners == 24)
        let worst = measured.square.map { abs($0 / 35 - 1) }.max() ?? 1
        print("ChArUco 35 mm on Letter at 300 dpi: squares \(measured.square.min()!)...\(measured.square.max()!) mm, worst \(worst * 100)%")
        #expect(worst < 0.005)
    }

    /// An AprilGrid of 1 in tags on A3: its tags' corners found, tags 1 in (25.4 mm) within 0.5%.
    @Test(.enabled(if: poppler, "poppler-utils (pdftoppm, pdfinfo) is not installed"))
    func anAprilGridInInchesMeasuresItsSize() throws {
        // Corners 2c and 2c+1 of a row are a tag's left and right edges.
        let measured = try Self.measure("aprilgrid:6x6:tag36h11:size=1in", paper: .a3, dpi: 200) { $0 % 2 == 0 ? $0 + 1 : nil }
        #expect(measured.page == "841.89 x 1190.55 pts (A3)")
        #expect(measured.corners == 144)
        let worst = measured.square.map { abs($0 / 25.4 - 1) }.max() ?? 1
        print("AprilGrid 1 in on A3 at 200 dpi: tags \(measured.square.min()!)...\(measured.square.max()!) mm, worst \(worst * 100)%")
        #expect(worst < 0.005)
    }

    /// The SVG is the page's size in millimetres, and every black square of a chessboard is one
    /// rectangle of exactly the square's size.
    @Test func anSVGSheetIsAtRealSize() throws {
        let svg = String(decoding: try PrintSheet.render(try Pattern(parsing: "chessboard:7x5:square=2cm"), paper: .a4, format: .svg), as: UTF8.self)
        #expect(svg.contains("width=\"210.0000mm\" height=\"297.0000mm\" viewBox=\"0 0 210.0000 297.0000\""))
        let path = try #require(svg.split(separator: "\n").first { $0.hasPrefix("<path fill=\"black\"") })
        let squares = path.components(separatedBy: "M").dropFirst()
        #expect(squares.count == 24)  // 8 x 6 squares, half of them black
        #expect(squares.allSatisfy { $0.contains("h20.0000v20.0000h-20.0000z") })
        #expect(svg.contains(">chessboard:7x5:square=2cm</text>"))
        #expect(svg.contains(">cm: this ruler is 100 mm long</text>"))
    }

    /// Without a unit there is no real size; a target larger than the paper says how large it is.
    @Test func whatCannotBePrintedSaysWhy() throws {
        #expect(throws: DetectionError.cannotRender(reason: "a sheet at real size needs the target's size with a unit (mm, cm, m or in), e.g. "
            + "chessboard:9x6:square=25mm or charuco:5x7:DICT_6X6_250:square=40mm,marker=20mm")) {
            try PrintSheet.render(try Pattern(parsing: "chessboard:9x6"), paper: .a4, format: .pdf)
        }
        let error = #expect(throws: DetectionError.self) {
            try PrintSheet.render(try Pattern(parsing: "chessboard:9x6:square=40mm"), paper: .a4, format: .pdf)
        }
        #expect("\(error.map { "\($0)" } ?? "")".contains("the target is 400.0 x 280.0 mm; A4 holds at most"))
        #expect(PrintSheet.Paper(name: "letter") == .letter)
        #expect(PrintSheet.sizeText(of: try Pattern(parsing: "gridboard:5x7:DICT_6X6_250:marker=40mm,gap=10mm")) == "markers 40 mm, gaps 10 mm")
    }
}
