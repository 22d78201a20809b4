import Calibration
import Foundation
import MarkerDetection
import MarkerShutter
import Pixels
import Testing

/// Swift examples in Docs/architecture.md (detecting a board in a shared photo; calibrating the
/// shared chessboard photos and following coverage) are this test's code, and print what the
/// document says they print.
@Suite struct LibraryExampleTests {
    static let document = TestPaths.packageRoot + "/Docs/architecture.md"
    static let chessboard = TestPaths.sharedImages + "/chessboard"
    static let charucoBoard = TestPaths.sharedImages + "/charuco/board.jpg"
    static let photosAvailable = FileManager.default.fileExists(atPath: chessboard)
        && FileManager.default.fileExists(atPath: charucoBoard)

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

    /// The code of the document's Swift example whose imports end with `lastImport` (the lines after
    /// the imports), and the lines of the output block after it.
    static func documented(lastImport: String) throws -> (code: String, output: [String]) {
        let lines = try String(contentsOfFile: document, encoding: .utf8).components(separatedBy: "\n")
        let imports = try #require(lines.indices.first { index in
            lines[index] == lastImport && lines[..<index].last(where: { !$0.hasPrefix("import ") }) == "```swift"
        }, "no Swift example ending its imports with \(lastImport) in Docs/architecture.md")
        let close = try #require(lines[(imports + 1)...].firstIndex { $0.hasPrefix("```") })
        let code = lines[(imports + 1)..<close].drop(while: \.isEmpty).joined(separator: "\n")
        let opening = try #require(lines[(close + 1)...].firstIndex { $0.hasPrefix("```") })
        let end = try #require(lines[(opening + 1)...].firstIndex { $0.hasPrefix("```") })
        return (code, Array(lines[(opening + 1)..<end]))
    }

    @Test(.enabled(if: photosAvailable, "the shared photos are not next to the package (../shared/images)"))
    func theCalibrationExamplePrintsWhatTheDocumentShows() throws {
        let example = try Self.documented(lastImport: "import MarkerShutter")
        #expect(example.code == Self.code)
        let printed = try Self.run()
        #expect(printed == example.output, "printed:\n\(printed.joined(separator: "\n"))")
    }

    /// The detection example as the document shows it, without its import.
    static let detectionCode = """
        let pattern = try Pattern(parsing: "charuco:5x7:DICT_6X6_250")
        let detector = try MarkerDetector(pattern: pattern)   // one detector may serve many threads
        let detection = try detector.detect(ImageFile.read("../shared/images/charuco/board.jpg"))
        let rule = ValidityRule(defaultsFor: pattern)
        print(detection.markers.count, "markers,", detection.boardCorners.count, "corners, first corner", detection.boardCorners[0].point)
        print(Annotation.Badge(detection: detection, rule: rule).text)
        let annotated = try Annotation.draw(detection, on: ImageFile.read("../shared/images/charuco/board.jpg"),
                                            badge: Annotation.Badge(detection: detection, rule: rule))
        let target = try ImageFile.encode(PrintableTarget.render(pattern, width: 1000, height: 1400), as: .png)
        """

    /// The detection example's code, with the photo found from the package root and what it prints
    /// collected; it also checks that the drawing and the rendered target came out.
    static func runDetection() throws -> [String] {
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { String(describing: $0) }.joined(separator: " ")) }

        let pattern = try Pattern(parsing: "charuco:5x7:DICT_6X6_250")
        let detector = try MarkerDetector(pattern: pattern)   // one detector may serve many threads
        let detection = try detector.detect(ImageFile.read(charucoBoard))
        let rule = ValidityRule(defaultsFor: pattern)
        print(detection.markers.count, "markers,", detection.boardCorners.count, "corners, first corner", detection.boardCorners[0].point)
        print(Annotation.Badge(detection: detection, rule: rule).text)
        let annotated = try Annotation.draw(detection, on: ImageFile.read(charucoBoard),
                                            badge: Annotation.Badge(detection: detection, rule: rule))
        let target = try ImageFile.encode(PrintableTarget.render(pattern, width: 1000, height: 1400), as: .png)

        #expect(annotated.width == 640 && annotated.height == 480)
        #expect(target.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        return printed
    }

    @Test(.enabled(if: photosAvailable, "the shared photos are not next to the package (../shared/images)"))
    func theDetectionExamplePrintsWhatTheDocumentShows() throws {
        let example = try Self.documented(lastImport: "import MarkerDetection")
        #expect(example.code == Self.detectionCode)
        let printed = try Self.runDetection()
        #expect(printed == example.output, "printed:\n\(printed.joined(separator: "\n"))")
    }
}
