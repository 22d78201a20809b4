import Foundation
import MarkerDetection
import Pixels
import Testing

/// Each scan of a progressive JPEG is a pass over the whole image: a small file of thousands of
/// scans took minutes to decode. More than 100 scans are refused before any is decoded.
@Suite struct JPEGScanLimitTests {
    /// `Fuzz/seeds/image_decode/progressive.jpg`: 24x16, ten scans, the last one from byte 831 to
    /// the end-of-image marker at 891.
    static func progressiveSeed() throws -> [UInt8] {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return Array(try Data(contentsOf: url.appendingPathComponent("Fuzz/seeds/image_decode/progressive.jpg")))
    }

    /// The seed with its last scan given `extra` more times.
    static func progressive(extraScans extra: Int) throws -> [UInt8] {
        let seed = try progressiveSeed()
        try #require(seed.count == 893 && seed[831] == 0xFF && seed[832] == 0xDA && seed[891] == 0xFF && seed[892] == 0xD9)
        let lastScan = seed[831..<891]
        return Array(seed[..<891]) + Array(repeating: Array(lastScan), count: extra).flatMap { $0 } + [0xFF, 0xD9]
    }

    @Test func aJPEGOfOneHundredScansIsDecoded() throws {
        let image = try ImageFile.decode(try Self.progressive(extraScans: 90))
        #expect(image.width == 24 && image.height == 16)
        #expect(ImageFile.jpegScanLimit == 100)
    }

    @Test(arguments: [91, 5000])
    func aJPEGOfMoreScansIsRefusedBeforeDecoding(extra: Int) throws {
        let bytes = try Self.progressive(extraScans: extra)
        #expect(throws: ImageFileError.undecodable(
            path: nil,
            reason: "JPEG of more than 100 scans (a progressive JPEG has about ten): refused, as decoding each scan is a pass over the whole image")
        ) {
            try ImageFile.decode(bytes)
        }
    }

    /// libjpeg's own error is the message, and libjpeg prints nothing.
    @Test func anErrorOfLibjpegIsTheDecodesMessage() throws {
        var bytes = try Self.progressiveSeed()
        bytes[158 + 4] = 0  // the frame header's precision: 0 bits
        #expect(throws: ImageFileError.undecodable(path: nil, reason: "corrupt JPEG: Unsupported JPEG data precision 0")) {
            try ImageFile.decode(bytes)
        }
    }
}
