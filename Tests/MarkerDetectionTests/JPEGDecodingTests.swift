import MarkerDetection
import Pixels
import Testing

/// JPEGs are decoded by libjpeg straight to BGR or gray, turned as their Exif orientation says,
/// motion JPEG frames without Huffman tables included (libjpeg-turbo fills in the standard ones);
/// only CMYK and other colour spaces go through OpenCV's imdecode. The pixels must be the ones
/// imdecode gives.
@Suite struct JPEGDecodingTests {
    /// A colourful 96x64 picture with fine detail, as JPEG at quality 90 (OpenCV's encoder:
    /// baseline, 4:2:0, the standard Huffman tables).
    static func colourJPEG() throws -> [UInt8] {
        let image = try PixelBuffer(width: 96, height: 64, format: .bgr24) { bytes in
            var state: UInt32 = 12345
            for index in 0..<bytes.count {
                state = state &* 1_103_515_245 &+ 12345
                let x = (index / 3) % 96, y = index / 288
                bytes[index] = UInt8(truncatingIfNeeded: (x * 2 + y * (index % 3 + 1)) + Int(state >> 28))
            }
        }
        return try ImageFile.encode(image, as: .jpeg(quality: 90))
    }

    /// The JPEG's segments before its first scan, as (marker, whole segment bytes), and the rest.
    static func segments(of jpeg: [UInt8]) -> (segments: [(marker: UInt8, bytes: [UInt8])], rest: [UInt8]) {
        var segments: [(UInt8, [UInt8])] = []
        var offset = 2
        while jpeg[offset + 1] != 0xDA {
            let length = Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3])
            segments.append((jpeg[offset + 1], Array(jpeg[offset..<(offset + 2 + length)])))
            offset += 2 + length
        }
        return (segments, Array(jpeg[offset...]))
    }

    /// An APP1 Exif segment holding only an orientation tag (big-endian TIFF, one IFD entry).
    static func exifSegment(orientation: UInt8) -> [UInt8] {
        let header: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8]
        let entry: [UInt8] = [0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, orientation, 0, 0, 0, 0, 0, 0]
        let body: [UInt8] = Array("Exif".utf8) + [0, 0] + header + entry
        let length = body.count + 2
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + body
    }

    static func withExif(_ jpeg: [UInt8], orientation: UInt8) -> [UInt8] {
        [0xFF, 0xD8] + exifSegment(orientation: orientation) + jpeg.dropFirst(2)
    }

    static func pixels(_ image: PixelBuffer) -> [[UInt8]] { (0..<image.height).map { image.row($0) } }

    @Test func exifOfOrientationOneChangesNothing() throws {
        let jpeg = try Self.colourJPEG()
        let direct = try ImageFile.decode(jpeg)
        let withExif = try ImageFile.decode(Self.withExif(jpeg, orientation: 1))
        #expect(direct.format == .bgr24 && direct.width == 96 && direct.height == 64)
        #expect(withExif.width == 96 && withExif.height == 64)
        let same = Self.pixels(direct) == Self.pixels(withExif)
        #expect(same, "the two decodings differ")
    }

    @Test func exifOrientationIsStillApplied() throws {
        let jpeg = try Self.colourJPEG()
        let upright = try ImageFile.decode(jpeg)
        // Orientation 6: the stored picture must be turned 90 degrees clockwise to be seen upright.
        let turned = try ImageFile.decode(Self.withExif(jpeg, orientation: 6))
        #expect(turned.width == 64 && turned.height == 96)
        // Clockwise: the stored picture's bottom-left pixel becomes the top-left one.
        #expect(Array(turned.row(0).prefix(3)) == Array(upright.row(63).prefix(3)))
    }

    /// A picture turned as Exif orientation `orientation` says, as OpenCV's ApplyExifOrientation
    /// turns it: 5 to 8 transpose first; then 2 and 6 mirror left to right, 3 and 7 turn half
    /// round, 4 and 8 mirror top to bottom. Each pixel is its `channels` bytes.
    static func turned(_ rows: [[[UInt8]]], orientation: Int) -> [[[UInt8]]] {
        var rows = rows
        if orientation >= 5 {
            rows = (0..<rows[0].count).map { x in rows.map { $0[x] } }
        }
        switch orientation {
        case 2, 6: rows = rows.map { Array($0.reversed()) }
        case 3, 7: rows = rows.reversed().map { Array($0.reversed()) }
        case 4, 8: rows = rows.reversed()
        default: break
        }
        return rows
    }

    static func pixelRows(_ image: PixelBuffer) -> [[[UInt8]]] {
        let size = image.format == .gray8 ? 1 : 3
        return (0..<image.height).map { y in
            let row = image.row(y)
            return (0..<image.width).map { x in Array(row[(x * size)..<(x * size + size)]) }
        }
    }

    /// The picture is turned as its Exif orientation says, for all eight, in colour and in gray.
    @Test(arguments: 1...8)
    func everyExifOrientationTurnsThePictureAsOpenCVDoes(orientation: Int) throws {
        let jpeg = try Self.colourJPEG()
        for channels in [ImageFile.Channels.bgr, .gray] {
            let upright = try ImageFile.decode(jpeg, channels: channels)
            let turned = try ImageFile.decode(Self.withExif(jpeg, orientation: UInt8(orientation)), channels: channels)
            #expect([turned.width, turned.height] == (orientation >= 5 ? [64, 96] : [96, 64]))
            let same = Self.pixelRows(turned) == Self.turned(Self.pixelRows(upright), orientation: orientation)
            #expect(same, "orientation \(orientation), \(channels): turned otherwise")
        }
    }

    @Test func motionJPEGWithoutHuffmanTablesDecodesAsWithThem() throws {
        let jpeg = try Self.colourJPEG()
        let (segments, rest) = Self.segments(of: jpeg)
        #expect(segments.contains { $0.marker == 0xC4 })
        let motion = [0xFF, 0xD8] + segments.filter { $0.marker != 0xC4 }.flatMap(\.bytes) + rest
        #expect(motion.count < jpeg.count)
        let same = try Self.pixels(ImageFile.decode(motion)) == Self.pixels(ImageFile.decode(jpeg))
        #expect(same, "the frame without Huffman tables decodes differently")
    }

    @Test func grayscaleJPEGIsReadAsBGR() throws {
        let gray = try PixelBuffer(width: 32, height: 16, format: .gray8) { bytes in
            for index in 0..<bytes.count { bytes[index] = UInt8(truncatingIfNeeded: index * 5) }
        }
        let decoded = try ImageFile.decode(ImageFile.encode(gray, as: .jpeg(quality: 95)))
        #expect(decoded.format == .bgr24 && decoded.width == 32 && decoded.height == 16)
        for y in 0..<16 {
            let row = decoded.row(y)
            let pixels = stride(from: 0, to: row.count, by: 3).map { Array(row[$0..<($0 + 3)]) }
            #expect(pixels.allSatisfy { Set($0).count == 1 })
        }
    }

    /// The luma as BGR24 pixels imply it (OpenCV's weights, rounded).
    static func luma(of image: PixelBuffer) -> [[Int]] {
        (0..<image.height).map { y in
            let row = image.row(y)
            return stride(from: 0, to: row.count, by: 3).map { (x: Int) -> Int in
                let blue: Double = 0.114 * Double(row[x]), green: Double = 0.587 * Double(row[x + 1])
                let red: Double = 0.299 * Double(row[x + 2])
                return Int((blue + green + red).rounded())
            }
        }
    }

    @Test func grayDecodingGivesTheLumaAlone() throws {
        let jpeg = try Self.colourJPEG()
        let gray = try ImageFile.decode(jpeg, channels: .gray)
        #expect(gray.format == .gray8 && gray.width == 96 && gray.height == 64)
        // libjpeg gives the file's own luma; BGR pixels are that luma plus upsampled chroma,
        // converted and rounded, and clamped where colours saturate (this picture's random pixels
        // do, in a few places), so the two agree within rounding nearly everywhere.
        let fromColour = Self.luma(of: try ImageFile.decode(jpeg))
        let differences = zip(Self.pixels(gray), fromColour).flatMap { zip($0, $1).map { abs(Int($0) - $1) } }
        let close = differences.filter { $0 <= 1 }.count
        #expect(close * 100 >= differences.count * 97, "\(differences.count - close) of \(differences.count) differ by more than 1")
        // Through imdecode (Exif data), which asks libjpeg for the same luma: the same pixels.
        let throughOpenCV = try ImageFile.decode(Self.withExif(jpeg, orientation: 1), channels: .gray)
        #expect(throughOpenCV.format == .gray8)
        #expect(Self.pixels(throughOpenCV) == Self.pixels(gray), "the two gray decodings differ")
    }

    @Test func grayDecodingOfOtherFormatsAndGrayJPEGs() throws {
        let colour = try ImageFile.decode(Self.colourJPEG())
        let png = try ImageFile.decode(ImageFile.encode(colour, as: .png), channels: .gray)
        #expect(png.format == .gray8 && png.width == 96 && png.height == 64)
        let differences = zip(Self.pixels(png), Self.luma(of: colour)).flatMap { zip($0, $1).map { abs(Int($0) - $1) } }
        #expect(differences.max()! <= 1, "largest difference \(differences.max()!)")
        let plain = try PixelBuffer(width: 32, height: 16, format: .gray8) { bytes in
            for index in 0..<bytes.count { bytes[index] = UInt8(truncatingIfNeeded: index * 5) }
        }
        let encoded = try ImageFile.encode(plain, as: .jpeg(quality: 95))
        let gray = try ImageFile.decode(encoded, channels: .gray)
        let bgr = try ImageFile.decode(encoded)
        #expect(gray.format == .gray8 && gray.width == 32 && gray.height == 16)
        #expect(Self.pixels(gray) == Self.pixels(bgr).map { row in stride(from: 0, to: row.count, by: 3).map { row[$0] } })
    }
}
