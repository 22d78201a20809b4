import Foundation
import Testing

/// Inputs that used to end the tool with a trap (SIGILL, status 132): a one-character relative
/// output name, and a first marker id at the end of `Int`. Each now works or is a range error.
@Suite struct LastCrashesTests {
    static let session = MarkerShutterBinary.packageRoot + "/Samples/charuco-session"

    /// Every output option of `process`, given a one-character name relative to the working folder.
    @Test func processWritesToOneCharacterNames() throws {
        let folder = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try MarkerShutterBinary.run(
            ["process", Self.session, "--output", "g", "--annotate", "a", "--select", "s"], in: folder)
        #expect(result.status == 0, "\(result.standardError)")
        let rows = try String(contentsOfFile: folder + "/g", encoding: .utf8).split(separator: "\n")
        #expect(rows.count == 120)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/a").count == 120)
        #expect(try !FileManager.default.contentsOfDirectory(atPath: folder + "/s").isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["a", "g", "s"])
    }

    /// `live --out`, `--record` and `--calibration-out`, each a one-character name.
    @Test func liveWritesToOneCharacterNames() throws {
        let folder = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try MarkerShutterBinary.run(
            ["live", "--replay", Self.session, "--auto", "--calibrate", "--out", "g", "--record", "r", "--calibration-out", "c"],
            in: folder)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(FileManager.default.fileExists(atPath: folder + "/g/capture_0001.png"))
        #expect(FileManager.default.fileExists(atPath: folder + "/g/capture_0001.json"))
        let manifest = try String(contentsOfFile: folder + "/r/manifest.jsonl", encoding: .utf8)
        #expect(manifest.split(separator: "\n").count == 120)
        #expect(FileManager.default.fileExists(atPath: folder + "/c/calibration.json"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["c", "g", "r"])
    }

    @Test func boardWritesToAOneCharacterName() throws {
        let folder = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try MarkerShutterBinary.run(["board", "chessboard", "9x6", "--width", "200", "--out", "g"], in: folder)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == "wrote g: chessboard:9x6, 200x152 pixels\n")
        let png = try Data(contentsOf: URL(fileURLWithPath: folder + "/g"))
        #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["g"])
    }

    /// A first id at the end of `Int` was added to the tag count and trapped; it is a range error.
    @Test(arguments: [
        (["board", "aprilgrid:6x6:tag36h11:first=9223372036854775807", "--out", "g"],
         "first=N with a whole number N from 0 to 1000000, found 'first=9223372036854775807'"),
        (["board", "gridboard:5x7:DICT_6X6_250:first=9223372036854775807", "--out", "g"],
         "first=N with a whole number N from 0 to 1000000, found 'first=9223372036854775807'"),
        (["board", "apriltag", "4x3", "tag36h11:first=9223372036854775807", "--out", "g"],
         "12 tags from id 9223372036854775807 do not fit in tag36h11's ids 0...586"),
        (["board", "apriltag", "4x3", "tag36h11:first=9223372036854775808", "--out", "g"],
         "a sheet of tags is apriltag COLSxROWS FAMILY[:first=ID]"),
        (["process", session, "--pattern", "aprilgrid:6x6:tag36h11:first=9223372036854775807"],
         "first=N with a whole number N from 0 to 1000000, found 'first=9223372036854775807'"),
        (["live", "--replay", session, "--pattern", "aprilgrid:6x6:tag36h11:first=9223372036854775800", "--out", "g"],
         "first=N with a whole number N from 0 to 1000000, found 'first=9223372036854775800'"),
        (["calibrate", session, "--pattern", "aprilgrid:6x6:tag36h11:first=9223372036854775807", "--out", "g"],
         "first=N with a whole number N from 0 to 1000000, found 'first=9223372036854775807'"),
    ])
    func aFirstIDAtTheEndOfIntIsARangeError(arguments: [String], message: String) throws {
        try MarkerShutterBinary.expectUsageError(arguments, message: message)
    }
}
