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
        // The same with Exif data (orientation 1), which imdecode decoded, printing libjpeg's warning itself.
        let tiff: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0]
        let body = Array("Exif".utf8) + [0, 0] + tiff
        let exif: [UInt8] = [0xFF, 0xE1, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
        try (Data([0xFF, 0xD8]) + Data(exif) + cut.dropFirst(2)).write(to: URL(fileURLWithPath: frames + "/exif.jpg"))
        let result = try MarkerShutterBinary.run(["process", frames, "--output", folder + "/rows.jsonl"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(!result.standardError.contains("JPEG"), "\(result.standardError)")
        #expect(result.standardError.contains("valid frames: 0 of 2\n"), "\(result.standardError)")
        let rows = try String(contentsOfFile: folder + "/rows.jsonl", encoding: .utf8).split(separator: "\n")
        #expect(rows.count == 2)
        #expect(rows.first?.hasPrefix("{\"index\":0,\"file\":\"cut.jpg\",\"t\":0,\"sequence\":null,\"valid\":false") == true, "\(rows)")
        #expect(rows.last?.hasPrefix("{\"index\":1,\"file\":\"exif.jpg\",") == true, "\(rows)")
    }
}
