/// How far ``DetectionMode/fast`` searches one image (``MarkerDetector/detect(_:within:search:)``).
/// Full mode, AprilTags and images fast mode does not shrink (``MarkerDetector/fastScale(for:)``
/// 1) are searched in full whatever it says.
public enum FastSearch: Sendable, Hashable {
    /// The downscaled passes in turn, then the full-resolution image when none accounts for the
    /// whole board: finds what full mode finds (fast mode's own way).
    case complete
    /// The downscaled passes only: when none accounts for the whole board, the largest part of it
    /// they found is given (or nothing), and the image is not searched at full resolution. For
    /// live video, where that search of a large frame takes longer than a frame interval; boards
    /// too small for the passes are not found.
    case downscaled
    /// One downscaled pass alone: `pass` counted from 0 (the smallest scale), wrapping around the
    /// passes the image takes (3 for a ChArUco 5x7 board at 3840x2160). A live search spreads the
    /// passes over frames this way while no board is in view.
    case downscaledPass(Int)
}
