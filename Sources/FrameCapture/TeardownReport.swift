/// What happened when a camera let go of its device: each step runs even when an earlier one
/// failed (after an unplug every ioctl fails with ENODEV, yet the buffers must still be unmapped
/// and the descriptor closed).
public struct TeardownReport: Sendable, Equatable {
    /// Why the camera let go.
    public enum Reason: Sendable, Equatable {
        /// ``Camera/stop()``, the consumer cancelled, or the camera was released.
        case stopped
        /// The stream failed with this error.
        case failed(CaptureError)
    }

    /// Why.
    public var reason: Reason
    /// Whether streaming had started (and so `VIDIOC_STREAMOFF` was called).
    public var wasStreaming: Bool
    /// errno of `VIDIOC_STREAMOFF`, 0 when it succeeded or was not needed.
    public var streamOffErrno: Int32
    /// Buffers mapped since the device was opened.
    public var buffersMapped: Int
    /// Buffers unmapped; equal to ``buffersMapped`` when teardown left nothing mapped.
    public var buffersUnmapped: Int
    /// errno of `VIDIOC_REQBUFS` with count 0, 0 when it succeeded or was not needed.
    public var releaseErrno: Int32
    /// Whether the descriptor was closed (a failing close still releases it).
    public var closed: Bool
    /// errno of `close`, or 0.
    public var closeErrno: Int32

    /// Whether every buffer was unmapped and the descriptor closed.
    public var isComplete: Bool { buffersUnmapped == buffersMapped && closed }
}
