public import Pixels

/// A frame as it enters the live pipeline, from a camera or a folder replayed in real time.
public struct SourceFrame: Sendable {
    /// The pixels (BGR24 or GRAY8).
    public let pixels: PixelBuffer
    /// When the frame was captured: the kernel's monotonic timestamp for a camera, the recorded
    /// time for a replayed folder.
    public let time: FrameTime
    /// The camera's sequence number, when known.
    public let sequence: UInt64?
    /// Frames the camera lost just before this one.
    public let droppedBefore: Int
    /// The file it came from, for a replayed folder.
    public let file: String?
    /// When the pipeline received it (for latency figures).
    let receivedAt: ContinuousClock.Instant
    /// The camera controls set for it, by their `v4l2-ctl` names (`--exposure`, `--control`,
    /// `--lock`, read back from the camera; for a replay, as recorded); empty when none were set.
    public var controls: [String: Int64] = [:]

    /// Creates a frame; `receivedAt` is now.
    public init(pixels: PixelBuffer, time: FrameTime, sequence: UInt64? = nil, droppedBefore: Int = 0, file: String? = nil) {
        self.pixels = pixels
        self.time = time
        self.sequence = sequence
        self.droppedBefore = droppedBefore
        self.file = file
        self.receivedAt = ContinuousClock.now
    }

    /// The frame with `controls` recorded as the ones set for it.
    package func with(controls: [String: Int64]) -> SourceFrame {
        var frame = self
        frame.controls = controls
        return frame
    }
}
