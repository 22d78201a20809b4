import Foundation
import Testing

/// Frames that are not regular files (a FIFO without a writer, a device, a folder) or that are
/// larger than the file limit: each is an error row in `process` and a skipped frame in
/// `live --replay`, read from nothing but its metadata, so neither run can hang on it.
@Suite struct SpecialFileTests {
    /// A folder with two readable frames around a FIFO, a symlink to /dev/zero, a sparse 1 GiB
    /// file and a folder, all named like frames.
    static func makeFolder() throws -> String {
        let folder = try MarkerShutterBinary.temporaryFolder("special-files")
        let photo = MarkerShutterBinary.sharedImages + "/chessboard/left01.jpg"
        try FileManager.default.copyItem(atPath: photo, toPath: folder + "/f1.jpg")
        #expect(mkfifo(folder + "/f2.jpg", 0o644) == 0)
        try FileManager.default.createSymbolicLink(atPath: folder + "/f3.jpg", withDestinationPath: "/dev/zero")
        #expect(FileManager.default.createFile(atPath: folder + "/f4.jpg", contents: Data([0xFF, 0xD8, 0xFF])))
        #expect(truncate(folder + "/f4.jpg", 1 << 30) == 0)
        try FileManager.default.createDirectory(atPath: folder + "/f5.jpg", withIntermediateDirectories: false)
        try FileManager.default.copyItem(atPath: photo, toPath: folder + "/f6.jpg")
        return folder
    }

    static let reasons = [
        "f2.jpg": "is a FIFO, not a regular file",
        "f3.jpg": "is a character device, not a regular file",
        "f4.jpg": "is 1073741824 bytes, more than the limit of 268435456 bytes for an image file",
        "f5.jpg": "is a directory, not a regular file",
    ]

    @Test func processGivesEachAnErrorRowAndGoesOn() throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try MarkerShutterBinary.run(["process", folder, "--pattern", "chessboard:9x6"])
        #expect(result.status == 2)
        let rows = result.jsonLines
        #expect(rows.map { $0["file"] as? String } == ["f1.jpg", "f2.jpg", "f3.jpg", "f4.jpg", "f5.jpg", "f6.jpg"])
        #expect(rows.filter { $0["valid"] as? Bool == true }.map { $0["file"] as? String } == ["f1.jpg", "f6.jpg"])
        for row in rows {
            guard let file = row["file"] as? String, let reason = Self.reasons[file] else { continue }
            #expect(row["error"] as? String == "'\(folder)/\(file)' \(reason)")
        }
        #expect(result.standardError.contains("errors: 4"))
    }

    @Test func liveReplaySkipsEachAndReplaysTheRest() throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let pictures = try MarkerShutterBinary.temporaryFolder("special-files-pictures")
        defer { try? FileManager.default.removeItem(atPath: pictures) }
        let result = try MarkerShutterBinary.run(["live", "--replay", folder, "--pattern", "chessboard:9x6", "--out", pictures])
        #expect(result.status == 0)
        for (file, reason) in Self.reasons {
            #expect(result.standardError.contains("skipping \(file): '\(folder)/\(file)' \(reason)"), "\(result.standardError)")
        }
        #expect(result.standardError.contains("stopped (end of frames): 2 frames received"), "\(result.standardError)")
    }
}
