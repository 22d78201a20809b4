/// A V4L2 pixel format code: four ASCII characters packed little-endian (`YUYV`, `MJPG`, `BGR3`).
public struct FourCC: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The packed code, as in `struct v4l2_pix_format.pixelformat`.
    public let rawValue: UInt32

    /// Wraps a packed code.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Packs four ASCII characters; `nil` unless `text` is exactly four ASCII characters.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 4, bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        rawValue = bytes.enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }

    /// The four characters (`YUYV`).
    public var description: String {
        String(decoding: (0..<4).map { UInt8(truncatingIfNeeded: rawValue >> (8 * $0)) }, as: UTF8.self)
    }

    /// Packed YUV 4:2:2, what most webcams send uncompressed.
    public static let yuyv = FourCC("YUYV")!
    /// Motion JPEG, what most webcams send at large sizes.
    public static let mjpeg = FourCC("MJPG")!
    /// BGR, 8 bits each (`V4L2_PIX_FMT_BGR24`).
    public static let bgr24 = FourCC("BGR3")!
    /// RGB, 8 bits each (`V4L2_PIX_FMT_RGB24`).
    public static let rgb24 = FourCC("RGB3")!
    /// Planar YUV 4:2:0, Y plane first (`V4L2_PIX_FMT_YUV420`).
    public static let yuv420 = FourCC("YU12")!
}
