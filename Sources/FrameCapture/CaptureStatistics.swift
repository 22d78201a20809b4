/// Counts of what a camera's stream has done so far.
public struct CaptureStatistics: Sendable, Hashable {
    /// Frames handed to the consumer (or queued for it).
    public var delivered = 0
    /// Frames missing from the driver's `sequence` numbering.
    public var sequenceGaps = 0
    /// Buffers the driver flagged `V4L2_BUF_FLAG_ERROR`, re-queued without delivering them.
    public var errorFlagged = 0
    /// Frames whose timestamp was not later than the previous frame's, dropped.
    public var nonMonotonicTimestamps = 0
    /// Frames shorter than the format's size, dropped.
    public var shortFrames = 0
    /// Frames in the camera's own format (``CaptureSettings/cameraFormat``) that could not be
    /// converted (a corrupt JPEG), dropped.
    public var unconvertible = 0
    /// Frames discarded because the consumer was behind (see ``CaptureSettings/queueLimit``).
    public var discardedForSlowConsumer = 0
    /// Times streaming was restarted after `VIDIOC_DQBUF` failed with `EIO`.
    public var restarts = 0
    /// Times `VIDIOC_DQBUF` said `EAGAIN` after `poll` said a frame was ready.
    public var wouldBlockRetries = 0
    /// Calls retried because a signal interrupted them (`EINTR`).
    public var interruptedRetries = 0

    /// Makes zero counts.
    public init() {}

    /// All frames lost, for any reason.
    public var dropped: Int {
        sequenceGaps + errorFlagged + nonMonotonicTimestamps + shortFrames + unconvertible + discardedForSlowConsumer
    }
}
