import Calibration
import Foundation
import MarkerDetection
import MarkerShutter
import Testing

/// The Swift example in Docs/architecture.md (calibrating the shared chessboard photos and
/// following coverage) is this test's code, and prints what the document says it prints.
@Suite struct LibraryExampleTests {
    static let document = TestPaths.packageRoot + "/Docs/architecture.md"
    static let chessboard = TestPaths.sharedImages + "/chessboard"
    static let photosAvailable = FileManager.default.fileExists(atPath: chessboard)

    /// The example as the document shows it, without its imports; `run` below is the same code.
    static let code = """
        let pictures = try PictureSet(folder: "../shared/images/chessboard", pattern: Pattern(parsing: "chessboard:9x6"))
        let result = try pictures.calibrate(.pinhole)
        let report = CalibrationReport(result: result, pattern: pictures.pattern.description)
        let fx = result.run.parameter("fx")!
        print(String(format: "fx %.2f ± %.2f px, RMS %.3f px", fx.value, fx.interval95, result.run.rms))
        print(report.advice)

        var coverage = ViewCoverage()
        coverage.add(BoardView(x: 0.2, y: 0.5, size: 0.3, skew: 0.0))
        coverage.add(BoardView(x: 0.7, y: 0.4, size: 0.5, skew: 0.25))
        print(coverage.statusText)
        """

    /// The example's code, with the shared photos' folder found from the package root and what it
    /// prints collected.
    static func run() throws -> [String] {
        var printed: [String] = []
        func print(_ item: Any) { printed.append(String(describing: item)) }

        let pictures = try PictureSet(folder: chessboard, pattern: Pattern(parsing: "chessboard:9x6"))
        let result = try pictures.calibrate(.pinhole)
        let report = CalibrationReport(result: result, pattern: pictures.pattern.description)
        let fx = result.run.parameter("fx")!
        print(String(format: "fx %.2f ± %.2f px, RMS %.3f px", fx.value, fx.interval95, result.run.rms))
        print(report.advice)

        var coverage = ViewCoverage()
        coverage.add(BoardView(x: 0.2, y: 0.5, size: 0.3, skew: 0.0))
        coverage.add(BoardView(x: 0.7, y: 0.4, size: 0.5, skew: 0.25))
        print(coverage.statusText)
        return printed
    }

    /// The fenced block that follows the line starting `start` in `text`, and the line after it.
    static func block(after start: String, in lines: [String], from index: Int = 0) -> (body: [String], end: Int)? {
        guard let opening = lines[index...].firstIndex(where: { $0.hasPrefix(start) }) else { return nil }
        guard let close = lines[(opening + 1)...].firstIndex(where: { $0.hasPrefix("```") }) else { return nil }
        return (Array(lines[(opening + 1)..<close]), close + 1)
    }

    @Test(.enabled(if: photosAvailable, "the shared photos are not next to the package (../shared/images)"))
    func theCalibrationExamplePrintsWhatTheDocumentShows() throws {
        let lines = try String(contentsOfFile: Self.document, encoding: .utf8).components(separatedBy: "\n")
        let start = try #require(lines.firstIndex(of: "import Calibration"), "the example is not in Docs/architecture.md")
        let code = try #require(Self.block(after: "import MarkerShutter", in: lines, from: start))
        #expect(code.body.drop(while: \.isEmpty).joined(separator: "\n") == Self.code)

        let output = try #require(Self.block(after: "```", in: lines, from: code.end))
        #expect(try Self.run() == output.body)
    }
}
