import Foundation
import Testing

/// What the C libraries print on their own (libjpeg's warnings on corrupt data) never reaches the
/// user raw: the frame is read, and the tool's own messages say what happened.
@Suite struct LibraryMessagesTests {
    @Test func libjpegWarningsOnCorruptDataAreNotPrinted() throws {
        let folder = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let frames = folder + "/frames"
        try FileManager.default.createDirectory(atPath: frames, withIntermediateDirectories: false)
        let original = try Data(contentsOf: URL(fileURLWithPath: MarkerShutterBinary.packageRoot + "/Samples/charuco-session/frame_000000.jpg"))
        let scan = try #require(original.firstRange(of: Data([0xFF, 0xDA])))
        // The scan cut short, then the end-of-image marker: libjpeg fills the rest with gray and warns.
        let cut = original.prefix(scan.lowerBound + 2000) + Data([0xFF, 0xD9])
        try cut.write(to: URL(fileURLWithPath: frames + "/cut.jpg"))
        let result = try MarkerShutterBinary.run(["process", frames, "--output", folder + "/rows.jsonl"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(!result.standardError.contains("JPEG"), "\(result.standardError)")
        #expect(result.standardError.contains("valid frames: 0 of 1\n"), "\(result.standardError)")
        let row = try String(contentsOfFile: folder + "/rows.jsonl", encoding: .utf8)
        #expect(row.hasPrefix("{\"index\":0,\"file\":\"cut.jpg\",\"t\":0,"), "\(row)")
    }
}
