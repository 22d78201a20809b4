public import Pixels

/// Draws a pattern as an image to print, so that the target on paper is the one the detector expects.
public enum PrintableTarget {
    /// The largest width and height ``render(_:width:height:margin:)`` draws: 16384 pixels
    /// (`MSD_RENDER_MAX_SIDE`), an A0 sheet at 350 dots per inch.
    public static let maximumSide = Shim.maximumRenderSide

    /// A circle grid's circles are drawn this many spacings across (the shim's
    /// `printed_circle_diameter`).
    public static let circleDiameter = 0.5

    /// Draws `pattern` black on white in a `width` x `height` GRAY8 image, centred, as large as
    /// fits inside `margin` white pixels on every side. Encode it with ``ImageFile/encode(_:as:)``.
    ///
    /// A ChArUco board is drawn in the layout the pattern asks for (including the legacy one), a
    /// grid board with its marker-to-gap ratio, and a chessboard with `columns + 1` x `rows + 1`
    /// squares, the top-left one black. Squares and markers are whole pixels. Wraps
    /// `msd_detector_render`. An AprilGrid is drawn as ``renderAprilGrid(_:width:height:margin:)`` draws it.
    ///
    /// - Parameters:
    ///   - pattern: A grid board, ChArUco board, chessboard or AprilGrid (loose markers have no layout).
    ///   - width: Image width in pixels, at most ``maximumSide``.
    ///   - height: Image height in pixels, at most ``maximumSide``.
    ///   - margin: White pixels at least on every side; `nil` takes 1/20 of the shorter side.
    /// - Throws: ``DetectionError/cannotRender(reason:)`` for loose markers, an image too small
    ///   for the board or larger than ``maximumSide``; the errors of ``MarkerDetector/init(pattern:)`` for the pattern itself.
    public static func render(_ pattern: Pattern, width: Int, height: Int, margin: Int? = nil) throws(DetectionError)
        -> PixelBuffer
    {
        switch pattern {
        case .aprilGrid(let grid):
            return try renderAprilGrid(grid, width: width, height: height, margin: margin).image
        case .aprilTag:
            throw .cannotRender(reason: "loose AprilTags have no layout: draw a sheet of them with renderTagSheet")
        default:
            break
        }
        let handle = try DetectorHandle(pattern: pattern)
        return try handle.render(width: width, height: height, margin: margin ?? max(1, min(width, height) / 20))
    }

    /// Draws Kalibr's AprilGrid as Kalibr's target generator lays it out: tags with black borders
    /// two cells wide, ids row by row from the bottom-left, gaps of ``AprilGrid/tagSpacing`` times
    /// the tag side and a black square of the gap's size at every tag corner. Cells are whole
    /// pixels and the gap is rounded to whole pixels; the grid is centred.
    ///
    /// - Parameters:
    ///   - grid: The grid.
    ///   - width: Image width in pixels, at most ``maximumSide``.
    ///   - height: Image height in pixels, at most ``maximumSide``.
    ///   - margin: White pixels at least on every side; `nil` takes 1/20 of the shorter side.
    /// - Returns: The GRAY8 image and where each of its board corners is (pixel centres at integers).
    /// - Throws: ``DetectionError/cannotRender(reason:)`` for an image too small for the grid or
    ///   larger than ``maximumSide``.
    public static func renderAprilGrid(_ grid: AprilGrid, width: Int, height: Int, margin: Int? = nil)
        throws(DetectionError) -> (image: PixelBuffer, corners: [BoardCorner])
    {
        try AprilTagDrawing.render(grid, width: width, height: height, margin: margin ?? max(1, min(width, height) / 20))
    }

    /// Draws a sheet of `columns` x `rows` loose AprilTags of `family` (as libapriltag's
    /// `apriltag_to_image` draws them, white ring included), two white cells apart, ids row by row
    /// from the top-left starting at `firstTag`. Detect them with the pattern `apriltag:FAMILY`.
    ///
    /// - Throws: ``DetectionError/cannotRender(reason:)`` for ids beyond the family, an image too
    ///   small or larger than ``maximumSide`` either way.
    public static func renderTagSheet(
        family: AprilTagFamily, columns: Int, rows: Int, firstTag: Int = 0, width: Int, height: Int, margin: Int? = nil
    ) throws(DetectionError) -> PixelBuffer {
        try AprilTagDrawing.renderSheet(
            family: family, columns: columns, rows: rows, firstTag: firstTag, width: width, height: height,
            margin: margin ?? max(1, min(width, height) / 20))
    }
}
