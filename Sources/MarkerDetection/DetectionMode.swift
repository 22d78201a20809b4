/// How ``MarkerDetector`` searches an image for an OpenCV pattern (ArUco grid boards, ChArUco
/// boards and chessboards; loose markers and AprilTag patterns are always searched in full).
public enum DetectionMode: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// OpenCV's own detection on every pixel of the image.
    case full
    /// The board is first looked for in a downscaled copy of the image (the scale follows from the
    /// image size and the pattern's marker or square size), and its corners are refined on the
    /// full-resolution image. Whenever the downscaled pass does not account for the whole board
    /// (a board marker it did not find would lie inside the image, or it found nothing), the
    /// full-resolution detection runs instead, so it finds what ``full`` finds.
    case fast

    /// `full` or `fast`, as the command line spells it.
    public var description: String { rawValue }
}
