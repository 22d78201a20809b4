import Foundation
import Testing

/// A pattern that cannot be used as written is a usage error (exit 64) in every command, found
/// before anything is written; and OpenCV's thread library says nothing of its own.
@Suite struct UsageStatusTests {
    static let session = MarkerShutterBinary.packageRoot + "/Samples/charuco-session"

    @Test(arguments: [
        (["board", "charuco", "1000x1000", "DICT_6X6_250", "--out", "g"],
         "cannot render charuco:1000x1000:DICT_6X6_250: invalid pattern: the board needs markers 0...499999 but the dictionary has only 250 (0...249)"),
        (["board", "gridboard:50x50:DICT_4X4_50", "--out", "g"],
         "cannot render gridboard:50x50:DICT_4X4_50: invalid pattern: the board needs markers 0...2499 but the dictionary has only 50 (0...49)"),
        (["board", "chessboard", "1000x1000", "--out", "g"],
         "cannot render chessboard:1000x1000: cannot draw target: the image is too small to draw this target: a square would be 1 pixels (at least 4)"),
        (["process", session, "--pattern", "gridboard:50x50:DICT_4X4_50"],
         "cannot use pattern gridboard:50x50:DICT_4X4_50: invalid pattern: the board needs markers 0...2499 but the dictionary has only 50 (0...49)"),
        (["live", "--replay", session, "--pattern", "charuco:5x7:DICT_4X4_50:square=1,marker=1e-9", "--out", "g"],
         "cannot use pattern charuco:5x7:DICT_4X4_50:square=1,marker=1e-9: invalid pattern: the board's lengths"),
    ])
    func aPatternThatCannotBeUsedIsAUsageError(arguments: [String], message: String) throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let result = try MarkerShutterBinary.run(arguments, in: scratch)
        #expect(result.status == 64)
        #expect(result.standardError.hasPrefix("Error: " + message), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1, "one line, no usage text: \(result.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch).isEmpty)
    }

    @Test func moreOpenCVThreadsThanCoresRunOnePerCoreWithANote() throws {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let result = try MarkerShutterBinary.run(["process", Self.session, "--opencv-threads", "256", "--jobs", "1", "--output", "/dev/null"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(!result.standardError.contains("TBB"), "\(result.standardError)")
        #expect(result.standardError.hasPrefix("note: --opencv-threads 256 is more than the \(cores) cores: running \(cores)\n"),
                "\(result.standardError)")
        #expect(result.standardError.contains(" frames/s, 1 job, OpenCV threads \(cores))\n"), "\(result.standardError)")
    }
}
