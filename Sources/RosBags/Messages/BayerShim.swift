import CBayerShim
import CShimCore
import Pixels
import ShimCore

/// Bayer mosaics demosaiced through OpenCV (`mbs_bayer_demosaic`): the one file that calls into
/// `CBayerShim`.
enum BayerShim {
    /// The colours of a mosaic's first two pixels on its first two rows, as ROS names them.
    enum Pattern: Sendable {
        case rggb, bggr, gbrg, grbg

        var shimPattern: mbs_bayer_pattern {
            switch self {
            case .rggb: .MBS_BAYER_RGGB
            case .bggr: .MBS_BAYER_BGGR
            case .gbrg: .MBS_BAYER_GBRG
            case .grbg: .MBS_BAYER_GRBG
            }
        }
    }

    /// Demosaics `mosaic` (gray8, one sample a pixel) into BGR24 (or gray8, `format`).
    ///
    /// - Throws: ``ImageMessageError`` with what the shim said.
    static func demosaic(_ mosaic: PixelBuffer, pattern: Pattern, into format: PixelFormat = .bgr24) throws(ImageMessageError) -> PixelBuffer {
        do {
            // Written while the buffer is made, the one time its memory may be written.
            return try PixelBuffer(width: mosaic.width, height: mosaic.height, format: format) { memory in
                var target = shim_pixels(data: memory.baseAddress, width: Int32(mosaic.width), height: Int32(mosaic.height),
                                         row_stride: mosaic.width * format.bytesPerPixel, format: format.shimFormat)
                try mosaic.withShimPixels(area: .SHIM_AREA_BAYER) { (source: UnsafePointer<shim_pixels>) throws(ShimFailure) in
                    try ShimFailure.check { mbs_bayer_demosaic(source, pattern.shimPattern, &target, $0) }
                }
            }
        } catch let failure as ShimFailure {
            throw ImageMessageError("its Bayer mosaic cannot be demosaiced: \(failure.message)")
        } catch {
            throw ImageMessageError("its Bayer mosaic cannot be demosaiced: \(error)")
        }
    }
}
