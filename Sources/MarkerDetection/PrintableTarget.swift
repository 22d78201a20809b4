public import Pixels

/// Draws a pattern as an image to print, so that the target on paper is the one the detector expects.
public enum PrintableTarget {
    /// The largest width and height ``render(_:width:height:margin:)`` draws: 16384 pixels
    /// (`MSD_RENDER_MAX_SIDE`), an A0 sheet at 350 dots per inch.
    public static let maximumSide = Shim.maximumRenderSide

    /// Draws `pattern` black on white in a `width` x `height` GRAY8 image, centred, as large as
    /// fits inside `margin` white pixels on every side. Encode it with ``ImageFile/encode(_:as:)``.
    ///
    /// A ChArUco board is drawn in the layout the pattern asks for (including the legacy one), a
    /// grid board with its marker-to-gap ratio, and a chessboard with `columns + 1` x `rows + 1`
    /// squares, the top-left one black. Squares and markers are whole pixels. Wraps
    /// `msd_detector_render`.
    ///
    /// - Parameters:
    ///   - pattern: A grid board, ChArUco board or chessboard (loose markers have no layout).
    ///   - width: Image width in pixels, at most ``maximumSide``.
    ///   - height: Image height in pixels, at most ``maximumSide``.
    ///   - margin: White pixels at least on every side; `nil` takes 1/20 of the shorter side.
    /// - Throws: ``DetectionError/cannotRender(reason:)`` for loose markers, an image too small
    ///   for the board or larger than ``maximumSide``; the errors of ``MarkerDetector/init(pattern:)`` for the pattern itself.
    public static func render(_ pattern: Pattern, width: Int, height: Int, margin: Int? = nil) throws(DetectionError)
        -> PixelBuffer
    {
        let handle = try DetectorHandle(pattern: pattern)
        return try handle.render(width: width, height: height, margin: margin ?? max(1, min(width, height) / 20))
    }
}
