import MarkerDetection
import Pixels
@testable import RosBags
import Testing

/// sensor_msgs/Image and CompressedImage deserialized from bytes made by hand, as ROS 1 serializes
/// them and as CDR does (little- and big-endian), and their pixels decoded.
struct ImageMessageTests {
    /// Little-endian bytes of ROS 1's serialization.
    struct ROS1Bytes {
        var bytes: [UInt8] = []
        mutating func u32(_ value: UInt32) { bytes += withUnsafeBytes(of: value.littleEndian, Array.init) }
        mutating func string(_ text: String) { u32(UInt32(text.utf8.count)); bytes += Array(text.utf8) }
        mutating func array(_ data: [UInt8]) { u32(UInt32(data.count)); bytes += data }
    }

    /// CDR: the encapsulation header, then numbers aligned to their size from after it.
    struct CDRBytes {
        var bytes: [UInt8]
        let bigEndian: Bool
        init(bigEndian: Bool) {
            self.bigEndian = bigEndian
            bytes = [0, bigEndian ? 0 : 1, 0, 0]
        }
        mutating func u32(_ value: UInt32) {
            while (bytes.count - 4) % 4 != 0 { bytes.append(0) }
            bytes += withUnsafeBytes(of: bigEndian ? value.bigEndian : value.littleEndian, Array.init)
        }
        mutating func u8(_ value: UInt8) { bytes.append(value) }
        mutating func string(_ text: String) { u32(UInt32(text.utf8.count + 1)); bytes += Array(text.utf8) + [0] }
        mutating func array(_ data: [UInt8]) { u32(UInt32(data.count)); bytes += data }
    }

    static let pixels: [UInt8] = [10, 20, 30, 40, 50, 60, 0xEE, 70, 80, 90, 100, 110, 120, 0xEE]  // 2x2 bgr8, step 7

    @Test func aROS1ImageWithAPaddedStep() throws {
        var message = ROS1Bytes()
        message.u32(7)  // seq
        message.u32(1_700_000_000)
        message.u32(123_456_789)
        message.string("camera_optical")
        message.u32(2)  // height
        message.u32(2)  // width
        message.string("bgr8")
        message.bytes.append(0)
        message.u32(7)  // step
        message.array(Self.pixels)
        let image = try ImageMessage(message.bytes, length: message.bytes.count, kind: .raw, encoding: .ros1)
        #expect(image.stamp == 1_700_000_000_123_456_789)
        #expect(image.frameID == "camera_optical")
        #expect(image.payload == .raw(width: 2, height: 2, encoding: "bgr8", step: 7, bigEndian: false))
        let pixels = try image.pixels()
        #expect(pixels.format == .bgr24)
        #expect(pixels.row(0) == [10, 20, 30, 40, 50, 60])
        #expect(pixels.row(1) == [70, 80, 90, 100, 110, 120])
    }

    @Test(arguments: [false, true])
    func aCDRImageEitherEndianness(bigEndian: Bool) throws {
        var message = CDRBytes(bigEndian: bigEndian)
        message.u32(1_700_000_001)
        message.u32(5)
        message.string("cam")
        message.u32(2)
        message.u32(2)
        message.string("rgb8")
        message.u8(0)
        message.u32(7)
        message.array(Self.pixels)
        let image = try ImageMessage(message.bytes, length: message.bytes.count, kind: .raw, encoding: .cdr)
        #expect(image.stamp == 1_700_000_001_000_000_005)
        #expect(image.frameID == "cam")
        // rgb8 comes as BGR.
        let pixels = try image.pixels()
        #expect(pixels.row(0) == [30, 20, 10, 60, 50, 40])
        #expect(pixels.row(1) == [90, 80, 70, 120, 110, 100])
    }

    @Test func aCDRCompressedImage() throws {
        let png = try ImageFile.encode(try PixelBuffer(copying: [1, 2, 3, 4, 5, 6], width: 3, height: 2, format: .gray8), as: .png)
        var message = CDRBytes(bigEndian: false)
        message.u32(12)
        message.u32(0)
        message.string("")
        message.string("png")
        message.array(png)
        let image = try ImageMessage(message.bytes, length: message.bytes.count, kind: .compressed, encoding: .cdr)
        #expect(image.payload == .compressed(format: "png"))
        #expect(image.fileExtension == "png")
        #expect(try image.imageFile().bytes == png)
        let pixels = try image.pixels(channels: .gray)
        #expect(pixels.row(0) == [1, 2, 3] && pixels.row(1) == [4, 5, 6])
    }

    @Test func lengthsPastTheMessageAreRefused() throws {
        var message = ROS1Bytes()
        message.u32(0)
        message.u32(1)
        message.u32(2)
        message.string("x")
        message.u32(2)
        message.u32(2)
        message.string("mono8")
        message.bytes.append(0)
        message.u32(2)
        message.u32(0xFFFF_FFF0)  // the data's length: far past the message
        message.bytes += [1, 2, 3, 4]
        #expect(throws: Malformed("data claims 4294967280 bytes, but the message has 4 left")) {
            try ImageMessage(message.bytes, length: message.bytes.count, kind: .raw, encoding: .ros1)
        }
        // Cut in the header: every prefix is refused, none crashes.
        for count in 0..<(message.bytes.count - 5) {
            #expect(throws: Malformed.self) { try ImageMessage(Array(message.bytes.prefix(count)), length: count, kind: .raw, encoding: .ros1) }
        }
        // A CDR string without its NUL, a nanosecond count of a second or more.
        var cdr = CDRBytes(bigEndian: false)
        cdr.u32(1)
        cdr.u32(0)
        cdr.u32(3)
        cdr.bytes += Array("abc".utf8)
        #expect(throws: Malformed("the header's frame_id does not end with the NUL that CDR strings end with")) {
            try ImageMessage(cdr.bytes, length: cdr.bytes.count, kind: .compressed, encoding: .cdr)
        }
        var late = CDRBytes(bigEndian: false)
        late.u32(1)
        late.u32(1_000_000_000)
        #expect(throws: Malformed("the stamp's nanoseconds are 1000000000, not below 10^9")) {
            try ImageMessage(late.bytes, length: late.bytes.count, kind: .compressed, encoding: .cdr)
        }
    }

    @Test func rawPixelsThatDoNotFitTheirSizeAreRefused() throws {
        func image(width: UInt32, height: UInt32, encoding: String, step: UInt32, data: [UInt8]) throws -> ImageMessage {
            var message = ROS1Bytes()
            message.u32(0)
            message.u32(1)
            message.u32(0)
            message.string("")
            message.u32(height)
            message.u32(width)
            message.string(encoding)
            message.bytes.append(0)
            message.u32(step)
            message.array(data)
            return try ImageMessage(message.bytes, length: message.bytes.count, kind: .raw, encoding: .ros1)
        }
        #expect(throws: ImageMessageError("its data of 5 bytes is shorter than 2 rows of 3 bytes")) {
            try image(width: 3, height: 2, encoding: "mono8", step: 3, data: [1, 2, 3, 4, 5]).pixels()
        }
        #expect(throws: ImageMessageError("its step of 2 bytes is shorter than a row of 3 mono8 pixels")) {
            try image(width: 3, height: 2, encoding: "mono8", step: 2, data: [1, 2, 3, 4, 5, 6]).pixels()
        }
        #expect(throws: ImageMessageError.self) {
            try image(width: 3, height: 1, encoding: "mono16", step: 6, data: [1, 2, 3, 4, 5, 6]).pixels()
        }
        #expect(throws: ImageMessageError("its image is 100000x100000 pixels, more than the limit of 40000000")) {
            try image(width: 100_000, height: 100_000, encoding: "mono8", step: 100_000, data: []).pixels()
        }
    }

    /// A uniform colour recorded by each Bayer layout demosaics back to that colour (away from the
    /// edges): the layouts are mapped to OpenCV's codes the right way round.
    @Test(arguments: ["bayer_rggb8", "bayer_bggr8", "bayer_gbrg8", "bayer_grbg8"])
    func bayerLayoutsGiveTheirColours(encoding: String) throws {
        let (blue, green, red): (UInt8, UInt8, UInt8) = (40, 120, 220)
        // Where red and blue lie in each 2x2 cell (row, column), as ROS names the layouts.
        let places: [String: (red: (Int, Int), blue: (Int, Int))] = [
            "bayer_rggb8": ((0, 0), (1, 1)), "bayer_bggr8": ((1, 1), (0, 0)),
            "bayer_gbrg8": ((1, 0), (0, 1)), "bayer_grbg8": ((0, 1), (1, 0)),
        ]
        let place = try #require(places[encoding])
        var mosaic: [UInt8] = []
        for y in 0..<8 {
            for x in 0..<8 {
                let cell = (y % 2, x % 2)
                mosaic.append(cell == place.red ? red : cell == place.blue ? blue : green)
            }
        }
        var message = CDRBytes(bigEndian: false)
        message.u32(0)
        message.u32(0)
        message.string("")
        message.u32(8)
        message.u32(8)
        message.string(encoding)
        message.u8(0)
        message.u32(8)
        message.array(mosaic)
        let pixels = try ImageMessage(message.bytes, length: message.bytes.count, kind: .raw, encoding: .cdr).pixels()
        #expect(pixels.format == .bgr24)
        let middle = pixels.row(4)
        #expect(Array(middle[12..<15]) == [blue, green, red], "\(encoding): \(Array(middle[12..<15]))")
    }
}
