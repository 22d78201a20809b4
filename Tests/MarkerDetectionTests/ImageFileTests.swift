import Foundation
import MarkerDetection
import Pixels
import Testing

/// Image files, including every kind of bad input: each gets its own typed error, never a crash.
@Suite struct ImageFileTests {
    /// A fresh folder for files a test writes, removed afterwards.
    final class Scratch {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("image-file-tests-\(UUID().uuidString)")
        init() throws { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(at: folder) }
        func write(_ bytes: [UInt8], as name: String) throws -> String {
            let url = folder.appendingPathComponent(name)
            try Data(bytes).write(to: url)
            return url.path
        }
    }

    /// A PNG signature and IHDR chunk claiming `width` x `height` pixels, with no pixel data.
    static func pngHeader(width: UInt32, height: UInt32) -> [UInt8] {
        func big(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + big(13) + Array("IHDR".utf8) + big(width)
            + big(height) + [8, 0, 0, 0, 0] + [0, 0, 0, 0]
    }

    static func gradient(width: Int, height: Int, format: PixelFormat) throws -> PixelBuffer {
        try PixelBuffer(width: width, height: height, format: format) { bytes in
            for index in 0..<bytes.count { bytes[index] = UInt8(truncatingIfNeeded: index * 7) }
        }
    }

    @Test func zeroByteFileIsEmpty() throws {
        let scratch = try Scratch()
        let path = try scratch.write([], as: "empty.jpg")
        #expect(throws: ImageFileError.empty(path: path)) { try ImageFile.read(path) }
    }

    @Test(.enabled(if: SharedImages.available, Comment(rawValue: SharedImages.missing)))
    func truncatedJPEGIsTruncated() throws {
        let scratch = try Scratch()
        let whole = try [UInt8](Data(contentsOf: URL(fileURLWithPath: SharedImages.path("charuco/board.jpg"))))
        for length in [20, 400, whole.count / 2, whole.count - 2] {
            let path = try scratch.write(Array(whole.prefix(length)), as: "cut-\(length).jpg")
            #expect(throws: ImageFileError.truncated(path: path)) { try ImageFile.read(path) }
        }
    }

    @Test func textFileNamedPNGIsNotAnImage() throws {
        let scratch = try Scratch()
        let path = try scratch.write(Array("this is not a picture\n".utf8), as: "frame.png")
        #expect(throws: ImageFileError.unrecognizedFormat(path: path)) { try ImageFile.read(path) }
    }

    @Test func hugeHeaderIsRefusedBeforeDecoding() throws {
        let scratch = try Scratch()
        let path = try scratch.write(Self.pngHeader(width: 100_000, height: 100_000), as: "huge.png")
        #expect(throws: ImageFileError.tooManyPixels(path: path, width: 100_000, height: 100_000, limit: 40_000_000)) {
            try ImageFile.read(path)
        }
        #expect(try ImageFile.header(of: Self.pngHeader(width: 100_000, height: 100_000))
            == ImageFile.Header(format: .png, width: 100_000, height: 100_000))
    }

    @Test func pixelLimitIsConfigurable() throws {
        let png = try ImageFile.encode(Self.gradient(width: 40, height: 30, format: .gray8), as: .png)
        #expect(try ImageFile.decode(png, pixelLimit: 1200).width == 40)
        #expect(throws: ImageFileError.tooManyPixels(path: nil, width: 40, height: 30, limit: 1199)) {
            try ImageFile.decode(png, pixelLimit: 1199)
        }
    }

    @Test func oneByOneImageDecodesButIsTooSmallToDetectIn() throws {
        let png = try ImageFile.encode(Self.gradient(width: 1, height: 1, format: .bgr24), as: .png)
        let image = try ImageFile.decode(png)
        #expect(image.width == 1 && image.height == 1 && image.format == .bgr24)
        let detector = try MarkerDetector(pattern: Pattern(parsing: "aruco:DICT_6X6_250"))
        #expect(throws: DetectionError.imageTooSmall(width: 1, height: 1, minimum: 16)) { try detector.detect(image) }
    }

    @Test func strideSmallerThanWidthCannotBeMade() {
        #expect(throws: PixelBufferError.strideTooSmall(rowStride: 600, width: 640, format: .gray8)) {
            try PixelBuffer(width: 640, height: 480, format: .gray8, rowStride: 600)
        }
    }

    @Test func missingFileIsUnreadableWithErrno() {
        #expect(throws: ImageFileError.unreadable(path: "/nonexistent/frame.png", errno: ENOENT)) {
            try ImageFile.read("/nonexistent/frame.png")
        }
        #expect(ImageFileError.unreadable(path: "/x.png", errno: ENOENT).description
            == "cannot read '/x.png': No such file or directory (ENOENT)")
    }

    @Test(arguments: [PixelFormat.gray8, .bgr24])
    func pngRoundTripsExactly(format: PixelFormat) throws {
        let image = try Self.gradient(width: 33, height: 17, format: format)
        let decoded = try ImageFile.decode(ImageFile.encode(image, as: .png))
        #expect(decoded.width == 33 && decoded.height == 17 && decoded.format == .bgr24)
        for y in 0..<17 {
            let row = decoded.row(y)
            let expected = format == .bgr24 ? image.row(y) : image.row(y).flatMap { [$0, $0, $0] }
            #expect(row == expected)
        }
    }

    @Test func rgbIsWrittenWithItsChannelsInOrder() throws {
        let red = try PixelBuffer(copying: [255, 0, 0] + [255, 0, 0], width: 2, height: 1, format: .rgb24)
        let decoded = try ImageFile.decode(ImageFile.encode(red, as: .png))
        #expect(decoded.row(0) == [0, 0, 255, 0, 0, 255])  // BGR
    }

    @Test func jpegIsWrittenAndReadBack() throws {
        let image = try Self.gradient(width: 64, height: 48, format: .bgr24)
        let jpeg = try ImageFile.encode(image, as: .jpeg(quality: 90))
        #expect(Array(jpeg.prefix(2)) == [0xFF, 0xD8])
        #expect(try ImageFile.header(of: jpeg) == ImageFile.Header(format: .jpeg, width: 64, height: 48))
        #expect(throws: ImageFileError.self) { try ImageFile.encode(image, as: .jpeg(quality: 101)) }
    }

    @Test func bmpAndTIFFAreRead() throws {
        // Minimal 2x1 24-bit BMP (bottom-up) and 2x1 8-bit TIFF, written by hand.
        let bmp: [UInt8] = [0x42, 0x4D, 62, 0, 0, 0, 0, 0, 0, 0, 54, 0, 0, 0, 40, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 1, 0, 24, 0]
            + [UInt8](repeating: 0, count: 24) + [10, 20, 30, 40, 50, 60, 0, 0]
        #expect(try ImageFile.decode(bmp).row(0) == [10, 20, 30, 40, 50, 60])
        var tiff: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0, 8, 0]
        let entries: [(UInt16, UInt16, UInt32)] = [(256, 3, 2), (257, 3, 1), (258, 3, 8), (259, 3, 1), (262, 3, 1),
                                                   (273, 4, 110), (278, 3, 1), (279, 4, 2)]
        for (tag, type, value) in entries {
            tiff += [UInt8(tag & 0xFF), UInt8(tag >> 8), UInt8(type), 0, 1, 0, 0, 0]
            tiff += [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), 0, 0]
        }
        tiff += [0, 0, 0, 0, 77, 99]
        #expect(tiff.count == 112)
        #expect(try ImageFile.header(of: tiff) == ImageFile.Header(format: .tiff, width: 2, height: 1))
        #expect(try ImageFile.decode(tiff).row(0) == [77, 77, 77, 99, 99, 99])
    }

    /// A little-endian TIFF whose directory holds `entries` (tag, type, value), one value each.
    /// A BMP header 1,111,528 pixels wide and 1 high: under the pixel limit, but wider than
    /// OpenCV's decoders take (2^20 a side), which they refuse with an exception of their own.
    @Test func aSideLongerThanOpenCVTakesIsRefusedInOurWords() throws {
        var bmp: [UInt8] = [0x42, 0x4D, 62, 0, 0, 0, 0, 0, 0, 0, 54, 0, 0, 0, 40, 0, 0, 0, 0xE8, 0xF5, 0x10, 0, 1, 0, 0, 0, 1, 0, 24, 0]
        bmp += [UInt8](repeating: 0, count: 24) + [UInt8](repeating: 0x98, count: 64)
        #expect(try ImageFile.header(of: bmp) == ImageFile.Header(format: .bmp, width: 1_111_528, height: 1))
        let reason = "BMP of 1111528x1 pixels: a side over 1048576 pixels, more than OpenCV's decoders take"
        #expect(throws: ImageFileError.undecodable(path: nil, reason: reason)) { try ImageFile.decode(bmp) }
        #expect(throws: ImageFileError.undecodable(path: nil, reason: reason)) { try ImageFile.decode(bmp, channels: .gray) }
    }

    static func tiff(_ entries: [(UInt16, UInt16, UInt32)], pixels: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0, UInt8(entries.count), 0]
        let pixelOffset = UInt32(10 + 12 * entries.count + 4)
        for (tag, type, value) in entries {
            let value = tag == 273 ? pixelOffset : value
            bytes += [UInt8(tag & 0xFF), UInt8(tag >> 8), UInt8(type), 0, 1, 0, 0, 0]
            bytes += [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: value >> $0) }
        }
        return bytes + [0, 0, 0, 0] + pixels
    }

    /// Today's decoder may take the other copy of a size given twice: such a TIFF is refused, not
    /// decoded to 8000x8000 pixels from a file of a few bytes.
    @Test func tiffWithItsSizeGivenTwiceIsRefused() throws {
        let rest: [(UInt16, UInt16, UInt32)] = [(258, 3, 8), (259, 3, 1), (262, 3, 1), (273, 4, 0), (278, 3, 1), (279, 4, 2)]
        let small = Self.tiff([(256, 3, 2), (257, 3, 1)] + rest, pixels: [77, 99])
        #expect(try ImageFile.decode(small).row(0) == [77, 77, 77, 99, 99, 99])
        let twice = Self.tiff([(256, 4, 8000), (257, 4, 8000), (256, 3, 2), (257, 3, 1)] + rest, pixels: [77, 99])
        #expect(throws: ImageFileError.undecodable(path: nil, reason: "corrupt TIFF: the image width is given twice (8000 and 2)")) {
            try ImageFile.decode(twice)
        }
        let scratch = try Scratch()
        let path = try scratch.write(twice, as: "twice.tif")
        #expect(throws: ImageFileError.undecodable(path: path, reason: "corrupt TIFF: the image width is given twice (8000 and 2)")) {
            try ImageFile.read(path)
        }
    }

    @Test func jpegWithTwoFrameHeadersIsRefused() throws {
        let jpeg = try ImageFile.encode(Self.gradient(width: 64, height: 48, format: .bgr24), as: .jpeg(quality: 90))
        // A second copy of the frame header (SOF0) right after the first.
        var offset = 2
        while !(jpeg[offset] == 0xFF && jpeg[offset + 1] == 0xC0) { offset += 2 + (Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3])) }
        let length = 2 + (Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3]))
        let doubled = Array(jpeg[..<(offset + length)]) + Array(jpeg[offset..<(offset + length)]) + Array(jpeg[(offset + length)...])
        #expect(throws: ImageFileError.undecodable(path: nil, reason: "corrupt JPEG: a second frame header at byte \(offset + length + 2)")) {
            try ImageFile.decode(doubled)
        }
    }

    /// A FIFO without a writer would block an open() forever; it is refused from its metadata.
    @Test func fifoIsRefusedWithoutWaitingForAWriter() throws {
        let scratch = try Scratch()
        let path = scratch.folder.appendingPathComponent("frame.jpg").path
        #expect(mkfifo(path, 0o644) == 0)
        #expect(throws: ImageFileError.notARegularFile(path: path, kind: "FIFO")) { try ImageFile.read(path) }
        #expect(ImageFileError.notARegularFile(path: path, kind: "FIFO").description == "'\(path)' is a FIFO, not a regular file")
    }

    @Test func devicesAndFoldersAreRefusedEvenBehindASymlink() throws {
        let scratch = try Scratch()
        let link = scratch.folder.appendingPathComponent("zero.jpg").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/zero")
        #expect(throws: ImageFileError.notARegularFile(path: link, kind: "character device")) { try ImageFile.read(link) }
        #expect(throws: ImageFileError.notARegularFile(path: scratch.folder.path, kind: "directory")) {
            try ImageFile.read(scratch.folder.path)
        }
    }

    /// A sparse file costs no disk space; it is refused from its size before a byte is read.
    @Test func fileLargerThanTheLimitIsRefusedUnread() throws {
        let scratch = try Scratch()
        let path = try scratch.write([0xFF, 0xD8, 0xFF], as: "huge.jpg")
        #expect(truncate(path, 1 << 30) == 0)
        #expect(ImageFile.fileByteLimit == 256 << 20)
        #expect(throws: ImageFileError.fileTooLarge(path: path, bytes: 1 << 30, limit: 256 << 20)) { try ImageFile.read(path) }
        #expect(ImageFileError.fileTooLarge(path: "/f.jpg", bytes: 1 << 30, limit: 256 << 20).description
            == "'/f.jpg' is 1073741824 bytes, more than the limit of 268435456 bytes for an image file")
        // Just at the limit, the header is read and judged: here, a truncated JPEG.
        #expect(truncate(path, off_t(ImageFile.fileByteLimit)) == 0)
        #expect(throws: ImageFileError.undecodable(path: path, reason: "corrupt JPEG: segment length 0 at byte 4")) { try ImageFile.read(path) }
    }

    /// A PNG header claiming too many pixels in front of 100 MB of data is refused, and so is
    /// a JPEG whose header comes after 100 kB of Exif data (beyond the first piece read).
    @Test func theHeaderDecidesBeforeTheRestOfTheFile() throws {
        let scratch = try Scratch()
        let huge = try scratch.write(Self.pngHeader(width: 100_000, height: 100_000), as: "huge.png")
        #expect(truncate(huge, 100_000_000) == 0)
        #expect(throws: ImageFileError.tooManyPixels(path: huge, width: 100_000, height: 100_000, limit: 40_000_000)) {
            try ImageFile.read(huge)
        }
        let jpeg = try ImageFile.encode(Self.gradient(width: 64, height: 48, format: .bgr24), as: .jpeg(quality: 90))
        // APP2 segments (ICC profile data to a reader) of 60000 bytes each, before the frame header.
        let segment: [UInt8] = [0xFF, 0xE2, 0xEA, 0x60] + [UInt8](repeating: 0x41, count: 59_998)
        let padded = try scratch.write(Array(jpeg[..<2]) + segment + segment + Array(jpeg[2...]), as: "padded.jpg")
        let image = try ImageFile.read(padded)
        #expect(image.width == 64 && image.height == 48)
        #expect(throws: ImageFileError.tooManyPixels(path: padded, width: 64, height: 48, limit: 3000)) {
            try ImageFile.read(padded, pixelLimit: 3000)
        }
    }
}
