// Pixel buffers described for the C shims (shim_pixels, CShimCore.h), read in place.

package import CShimCore
package import Pixels

extension PixelFormat {
    /// The format as the shims name it.
    package var shimFormat: shim_pixel_format {
        switch self {
        case .gray8: .SHIM_PIXEL_FORMAT_GRAY8
        case .bgr24: .SHIM_PIXEL_FORMAT_BGR24
        case .rgb24: .SHIM_PIXEL_FORMAT_RGB24
        case .yuyv: .SHIM_PIXEL_FORMAT_YUYV
        }
    }

    /// The format a shim named.
    package init(_ format: shim_pixel_format) {
        switch format {
        case .SHIM_PIXEL_FORMAT_GRAY8: self = .gray8
        case .SHIM_PIXEL_FORMAT_BGR24: self = .bgr24
        case .SHIM_PIXEL_FORMAT_RGB24: self = .rgb24
        case .SHIM_PIXEL_FORMAT_YUYV: self = .yuyv
        }
    }
}

extension PixelBuffer {
    /// Calls `body` with the pixels described for a shim (read in place, not copied).
    ///
    /// - Throws: A ``ShimFailure`` (`SHIM_STATUS_INVALID_ARGUMENT`, as `area`) when the size is
    ///   beyond 32-bit integers; whatever `body` throws.
    package func withShimPixels<R>(
        area: shim_area, _ body: (UnsafePointer<shim_pixels>) throws(ShimFailure) -> R
    ) throws(ShimFailure) -> R {
        guard let width = Int32(exactly: width), let height = Int32(exactly: height) else {
            throw ShimFailure(
                status: .SHIM_STATUS_INVALID_ARGUMENT, area: area,
                message: "\(self.width)x\(self.height) pixels is beyond 32-bit sizes")
        }
        return try withUnsafeBytes { (raw) throws(ShimFailure) -> R in
            var pixels = shim_pixels(
                data: raw.baseAddress, width: width, height: height, row_stride: rowStride, format: format.shimFormat)
            return try body(&pixels)
        }
    }
}
