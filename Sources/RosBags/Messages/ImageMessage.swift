/// A `sensor_msgs/Image` or `sensor_msgs/CompressedImage` message, deserialized by hand from ROS 1's
/// serialization or ROS 2's CDR (both types are small and fixed): its header's stamp and frame id,
/// and where its pixels or its compressed image are in the message's bytes. Every length is checked
/// against the bytes left before anything is taken from them.
///
/// ```
/// sensor_msgs/Image            Header header, uint32 height, uint32 width, string encoding,
///                              uint8 is_bigendian, uint32 step, uint8[] data
/// sensor_msgs/CompressedImage  Header header, string format, uint8[] data
/// std_msgs/Header  ROS 1: uint32 seq, time stamp (uint32 sec, uint32 nsec), string frame_id
///                  ROS 2: builtin_interfaces/Time stamp (int32 sec, uint32 nanosec), string frame_id
/// ```
///
/// ROS 1 writes every field packed, little-endian, a string or array as a u32 length and its bytes.
/// CDR starts with a 4-byte encapsulation header (`00 01` little-endian, `00 00` big-endian), aligns
/// each number to its size from the byte after that header, and ends a string with a NUL that its
/// u32 length counts.
public struct ImageMessage: Sendable {
    /// Which of the two message types.
    public enum Kind: Sendable, Hashable {
        /// `sensor_msgs/Image`: raw pixels.
        case raw
        /// `sensor_msgs/CompressedImage`: a JPEG or PNG file's bytes.
        case compressed
    }

    /// What the message carries.
    public enum Payload: Sendable, Hashable {
        /// Raw pixels: size, ROS encoding (`mono8`, `bgr8`, `rgb8`, `bayer_rggb8`, ...), row step.
        case raw(width: Int, height: Int, encoding: String, step: Int, bigEndian: Bool)
        /// A compressed image: its `format` (`jpeg`, `png`, `bgr8; jpeg compressed bgr8`, ...).
        case compressed(format: String)
    }

    /// The header's stamp, nanoseconds since the Unix epoch.
    public let stamp: Int64
    /// The header's frame id.
    public let frameID: String
    /// What the message carries.
    public let payload: Payload
    /// The message's bytes (all of them, or only the first when ``isComplete`` is false).
    let bytes: [UInt8]
    /// Where `data` (the pixels, or the compressed file) is in the whole message.
    let data: Range<Int>

    /// Whether ``bytes`` holds the whole message (and so its data).
    var isComplete: Bool { data.upperBound <= bytes.count }

    /// The extension of the image file this message is best kept as: a compressed image's own
    /// format (`jpg`, `png`), PNG for raw pixels (lossless).
    public var fileExtension: String {
        switch payload {
        case .raw: return "png"
        case .compressed(let format):
            let start = bytes[data.lowerBound..<min(bytes.count, data.upperBound)].prefix(4)
            if start.starts(with: [0xFF, 0xD8]) { return "jpg" }
            if start.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "png" }
            let lower = format.lowercased()
            return lower.contains("png") ? "png" : lower.contains("jp") ? "jpg" : "img"
        }
    }

    /// The type names that are images, as ROS 1 (and MCAP's ros1msg) and ROS 2 spell them.
    static func kind(ofType type: String) -> Kind? {
        switch type {
        case "sensor_msgs/Image", "sensor_msgs/msg/Image": .raw
        case "sensor_msgs/CompressedImage", "sensor_msgs/msg/CompressedImage": .compressed
        default: nil
        }
    }

    /// The MD5 sums of the two types' ROS 1 definitions (a ROS 1 bag's connections name them).
    static let ros1MD5: [Kind: String] = [
        .raw: "060021388200f6f0f447d0fcd9c64743",
        .compressed: "8f7a12909da2c9d3332d540a0977563f",
    ]

    /// Deserializes a message.
    ///
    /// - Parameters:
    ///   - bytes: The message's bytes, or only its first ones.
    ///   - length: How many bytes the whole message has (`bytes.count` or more).
    ///   - kind: Which type it is.
    ///   - encoding: ROS 1 or CDR.
    /// - Throws: ``Malformed`` naming the field that does not fit.
    init(_ bytes: [UInt8], length: Int, kind: Kind, encoding: MessageEncoding) throws(Malformed) {
        precondition(length >= bytes.count, "a message of \(length) bytes cannot have \(bytes.count)")
        // The reader sees the whole message's length, so that a length is checked against the
        // message, not against the bytes at hand; a field read past those fails as cut short.
        let cdr: Bool
        switch encoding {
        case .ros1: cdr = false
        case .cdr: cdr = true
        case .other(let name): throw Malformed("its messages are encoded as '\(name)'; ros1 and cdr are read")
        }
        var fields = Fields(reader: ByteReader(bytes), total: length, cdr: cdr)
        if cdr {
            let representation = try fields.reader.u16("the CDR encapsulation header")
            switch representation {
            case 0x0100: fields.reader.bigEndian = false  // CDR_LE, bytes 00 01
            case 0x0000: fields.reader.bigEndian = true  // CDR_BE, bytes 00 00
            default: throw Malformed("the CDR encapsulation header is \(String(representation, radix: 16)), not plain CDR (00 00 or 00 01)")
            }
            try fields.reader.skip(2, "the CDR encapsulation options")
            fields.reader.alignmentOrigin = 4
        } else {
            _ = try fields.u32("the header's seq")
        }
        let seconds = try fields.u32("the stamp's seconds")
        let nanoseconds = try fields.u32("the stamp's nanoseconds")
        if cdr, Int32(bitPattern: seconds) < 0 { throw Malformed("the stamp's seconds are negative (\(Int32(bitPattern: seconds)))") }
        guard nanoseconds < 1_000_000_000 else { throw Malformed("the stamp's nanoseconds are \(nanoseconds), not below 10^9") }
        stamp = Int64(seconds) * 1_000_000_000 + Int64(nanoseconds)
        frameID = try fields.string("the header's frame_id")
        switch kind {
        case .raw:
            let height = Int(try fields.u32("height"))
            let width = Int(try fields.u32("width"))
            let encoding = try fields.string("encoding")
            let bigEndian = try fields.u8("is_bigendian") != 0
            let step = Int(try fields.u32("step"))
            payload = .raw(width: width, height: height, encoding: encoding, step: step, bigEndian: bigEndian)
        case .compressed:
            payload = .compressed(format: try fields.string("format"))
        }
        data = try fields.array("data")
        self.bytes = bytes
    }

    /// The fields of a message, read with the whole message's length in view.
    private struct Fields {
        var reader: ByteReader
        /// The whole message's length.
        let total: Int
        let cdr: Bool

        init(reader: ByteReader, total: Int, cdr: Bool) {
            self.reader = reader
            self.total = total
            self.cdr = cdr
        }

        /// Bytes of the whole message left after the reader's position.
        var left: Int { total - reader.position }

        mutating func u8(_ what: String) throws(Malformed) -> UInt8 {
            try cut(what) { (reader: inout ByteReader) throws(Malformed) in try reader.u8(what) }
        }

        mutating func u32(_ what: String) throws(Malformed) -> UInt32 {
            let cdr = cdr
            return try cut(what) { (reader: inout ByteReader) throws(Malformed) in
                if cdr { try reader.align(4, what) }
                return try reader.u32(what)
            }
        }

        /// A field read from the bytes at hand: past them, the message is cut short (when they are
        /// all of it) or its header is longer than a prefix holds.
        private mutating func cut<T>(_ what: String, _ read: (inout ByteReader) throws(Malformed) -> T) throws(Malformed) -> T {
            do {
                return try read(&reader)
            } catch {
                throw reader.end < total
                    ? Malformed("its fields before the data run past the first \(reader.end) bytes read (\(what))")
                    : Malformed("the message is cut short at \(what): \(error.reason)")
            }
        }

        /// A length (u32) and the range of that many bytes after it, checked against the whole message.
        mutating func array(_ what: String) throws(Malformed) -> Range<Int> {
            let count = Int(try u32("the length of \(what)"))
            guard count <= left else {
                throw Malformed("\(what) claims \(count) bytes, but the message has \(left) left")
            }
            return reader.position..<(reader.position + count)
        }

        /// A string: ROS 1's length and bytes, or CDR's length (counting a final NUL), bytes and NUL.
        mutating func string(_ what: String) throws(Malformed) -> String {
            let range = try array(what)
            guard range.upperBound <= reader.end else {
                throw Malformed("its fields before the data run past the first \(reader.end) bytes read (\(what))")
            }
            try reader.skip(range.count, what)
            var bytes = reader.bytes[range]
            if cdr {
                guard bytes.last == 0 else { throw Malformed("\(what) does not end with the NUL that CDR strings end with") }
                bytes = bytes.dropLast()
            }
            guard bytes.count <= 4096 else { throw Malformed("\(what) is \(bytes.count) bytes long, more than 4096") }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
