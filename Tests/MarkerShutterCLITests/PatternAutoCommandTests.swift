import Foundation
import Testing

/// `board --identify` and `--pattern auto` end to end: what is printed where, the exit status, and
/// the identified pattern recorded where a pattern is recorded (sidecars, calibration.json).
@Suite struct PatternAutoCommandTests {
    static let chessboard = MarkerShutterBinary.sharedImages + "/chessboard"
    static let available = FileManager.default.fileExists(atPath: chessboard + "/left01.jpg")
    static let missing = "the shared photos are not next to the package (../shared/images)"

    /// The pattern on standard output, what was found on standard error.
    @Test(.enabled(if: available, Comment(rawValue: missing)))
    func identifyPrintsThePatternOfPhotos() throws {
        let photos = (1...5).map { Self.chessboard + "/left0\($0).jpg" }
        let result = try MarkerShutterBinary.run(["board", "--identify"] + photos)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == "chessboard:9x6\n")
        #expect(result.standardError == "found chessboard:9x6 in 5 of 5 frames\n")
    }

    /// Photos that leave doubt print nothing on standard output and exit 1; files that are no
    /// images are named and passed over.
    @Test(.enabled(if: available, Comment(rawValue: missing)))
    func identifyPrintsNothingWhenUnsure() throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        #expect(FileManager.default.createFile(atPath: scratch + "/notes.txt", contents: Data("not a photo".utf8)))
        // A grid board of a dictionary of its own: no predefined dictionary reads it.
        let custom = MarkerShutterBinary.sharedImages + "/aruco/gridboard.png"
        let result = try MarkerShutterBinary.run(["board", "--identify", custom, scratch + "/notes.txt"])
        #expect(result.status == 1)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.contains("note: \(scratch)/notes.txt is not an image that can be read"), "\(result.standardError)")
        #expect(result.standardError.contains("no target found in 1 frame"), "\(result.standardError)")
        let nothing = try MarkerShutterBinary.run(["board", "--identify", scratch + "/notes.txt"])
        #expect(nothing.status == 1)
        #expect(nothing.standardError.contains("none of the 1 photos could be read"), "\(nothing.standardError)")
    }

    @Test func identifyTakesNoRenderingOptions() throws {
        let result = try MarkerShutterBinary.run(["board", "--identify", "a.jpg", "--out", "b.png"])
        #expect(result.status == 64)
        #expect(result.standardError.contains("--identify prints a pattern: it takes no --out"), "\(result.standardError)")
    }

    /// calibrate without --pattern on photos without sidecars: the target is identified from the
    /// first five, said, and recorded in calibration.json.
    @Test(.enabled(if: available, Comment(rawValue: missing)))
    func calibrateIdentifiesPhotosWithoutSidecars() throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let result = try MarkerShutterBinary.run(["calibrate", Self.chessboard, "--out", "cal"], in: scratch)
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardError.split(separator: "\n").map(String.init)
        #expect(lines.first == "\(Self.chessboard): found chessboard:9x6 in 5 of 5 frames")
        #expect(lines.dropFirst().first == "\(Self.chessboard): detected chessboard:9x6 in 9 pictures, target in 9")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: scratch + "/cal/calibration.json")))
        #expect((json as? [String: Any])?["pattern"] as? String == "chessboard:9x6")
    }

    /// live --pattern auto on a replay: identified from its first frames, and the pattern found is
    /// the one the pictures' sidecars record.
    @Test func liveReplayRecordsTheIdentifiedPattern() throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let session = MarkerShutterBinary.packageRoot + "/Samples/charuco-session"
        let result = try MarkerShutterBinary.run(["live", "--replay", session, "--pattern", "auto", "--auto", "--out", "picks"], in: scratch)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("\(session): found charuco:5x7:DICT_6X6_50 in 5 of 5 frames"), "\(result.standardError)")
        let sidecars = try FileManager.default.contentsOfDirectory(atPath: scratch + "/picks").filter { $0.hasSuffix(".json") }
        try #require(!sidecars.isEmpty)
        for name in sidecars {
            let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: scratch + "/picks/" + name)))
            #expect((object as? [String: Any])?["pattern"] as? String == "charuco:5x7:DICT_6X6_50", "\(name)")
        }
    }
}
