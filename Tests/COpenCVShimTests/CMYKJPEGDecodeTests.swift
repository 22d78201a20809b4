import COpenCVShim
import Foundation
import Testing

/// CMYK and YCCK JPEGs (as Adobe's applications write them: inks stored inverted, an Adobe marker)
/// are decoded by the shim's own libjpeg path into the colours OpenCV's reader gives for them.
@Suite struct CMYKJPEGDecodeTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/cmyk-jpeg").path

    /// The pixels of a file read as `channels`, row after row without padding.
    static func read(_ path: String, _ channels: msd_image_channels) throws -> (width: Int, height: Int, bytes: [UInt8]) {
        var image: OpaquePointer?
        var error = shim_error()
        let status = msd_image_read_as(path, 40_000_000, channels, &image, &error)
        defer { msd_image_free(image) }
        try #require(status == .SHIM_STATUS_OK, "\(path): status \(status)")
        var pixels = shim_pixels()
        try #require(msd_image_pixels_get(image, &pixels, nil) == .SHIM_STATUS_OK)
        let width = Int(pixels.width), height = Int(pixels.height)
        let rowBytes = width * (channels == MSD_IMAGE_CHANNELS_GRAY ? 1 : 3)
        let base = try #require(pixels.data).assumingMemoryBound(to: UInt8.self)
        var bytes: [UInt8] = []
        for row in 0..<height {
            bytes += UnsafeBufferPointer(start: base + row * pixels.row_stride, count: rowBytes)
        }
        return (width, height, bytes)
    }

    /// The largest difference of one byte between what the shim decodes and what OpenCV's imread
    /// gave for the same file (kept as PNG beside it), in colour and in gray. OpenCV divides the
    /// product of two inks by 256 where the shim divides by 255 and rounds, hence a step or two.
    @Test(arguments: ["crop-cmyk", "crop-ycck"])
    func decodesAsOpenCVDoes(name: String) throws {
        for (channels, suffix) in [(MSD_IMAGE_CHANNELS_BGR, ""), (MSD_IMAGE_CHANNELS_GRAY, "-gray")] {
            let decoded = try Self.read(Self.fixtures + "/\(name).jpg", channels)
            let reference = try Self.read(Self.fixtures + "/\(name).imdecode\(suffix).png", channels)
            #expect(decoded.width == 64 && decoded.height == 48)
            #expect(decoded.width == reference.width && decoded.height == reference.height)
            let furthest = zip(decoded.bytes, reference.bytes).map { abs(Int($0) - Int($1)) }.max() ?? .max
            #expect(furthest <= 2, "\(name)\(suffix): \(furthest)")
            #expect(decoded.bytes != [UInt8](repeating: decoded.bytes.first ?? 0, count: decoded.bytes.count))
        }
    }
}
