/// How the bytes of one pixel row are laid out.
public enum PixelFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// One byte per pixel, luminance.
    case gray8
    /// Three bytes per pixel: blue, green, red (OpenCV's native order).
    case bgr24
    /// Three bytes per pixel: red, green, blue.
    case rgb24
    /// Packed 4:2:2, two bytes per pixel: Y0 U Y1 V for each pair of pixels.
    case yuyv

    /// Bytes one pixel takes in a row (`yuyv` shares chroma between pixel pairs: 2 per pixel).
    public var bytesPerPixel: Int {
        switch self {
        case .gray8: 1
        case .bgr24, .rgb24: 3
        case .yuyv: 2
        }
    }

    /// The format's name as it is written in pattern strings, file names and JSON (`"bgr24"`).
    public var description: String { rawValue }
}
