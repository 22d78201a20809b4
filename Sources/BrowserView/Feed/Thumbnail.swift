import MarkerDetection
import Pixels

/// Small JPEGs of saved pictures, for the page's list.
enum Thumbnail {
    /// A JPEG of `pixels` shrunk to at most ``ViewPicture/thumbnailWidth`` pixels wide (nearest
    /// pixel; a thumbnail only has to be recognisable); `nil` when it cannot be made.
    static func jpeg(of pixels: PixelBuffer) -> [UInt8]? {
        guard let small = shrink(pixels) else { return nil }
        return try? ImageFile.encode(small, as: .jpeg(quality: 75))
    }

    private static func shrink(_ image: PixelBuffer) -> PixelBuffer? {
        // YUYV pairs pixels; the codec turns it into BGR first.
        let source = image.format == .yuyv
            ? (try? ImageFile.encode(image, as: .png)).flatMap { try? ImageFile.decode($0) }
            : image
        guard let source else { return nil }
        let step = max(1, (source.width + ViewPicture.thumbnailWidth - 1) / ViewPicture.thumbnailWidth)
        guard step > 1 else { return source }
        let width = max(1, source.width / step), height = max(1, source.height / step)
        let pixelBytes = source.format.bytesPerPixel
        return try? PixelBuffer(width: width, height: height, format: source.format) { target in
            source.withUnsafeBytes { bytes in
                for y in 0..<height {
                    let from = y * step * source.rowStride, to = y * width * pixelBytes
                    for x in 0..<width {
                        for c in 0..<pixelBytes {
                            target[to + x * pixelBytes + c] = bytes[from + x * step * pixelBytes + c]
                        }
                    }
                }
            }
        }
    }
}
