public import Pixels

/// One captured frame.
///
/// The pixels stay valid for as long as the frame (or its ``pixels``) is kept: they live in memory
/// of the grabber's frame pool, not in the driver's buffer, which went back to the driver at once.
public struct Frame: Sendable {
    /// The pixels, ``PixelFormat/bgr24`` or ``PixelFormat/gray8`` as negotiated.
    public let pixels: PixelBuffer
    /// The driver's frame counter (`struct v4l2_buffer.sequence`).
    public let sequence: UInt32
    /// When the frame was captured: the kernel's `CLOCK_MONOTONIC` time (time since boot, not
    /// counting suspend), from the buffer's timestamp.
    public let timestamp: Duration
    /// Frames lost between the previous delivered frame and this one: gaps in `sequence`, buffers
    /// the driver flagged as errors, frames with timestamps that went backwards, and frames
    /// discarded because the consumer was behind.
    public let droppedBefore: Int

    /// Makes a frame (for tests and frame sources other than cameras).
    public init(pixels: PixelBuffer, sequence: UInt32, timestamp: Duration, droppedBefore: Int) {
        self.pixels = pixels
        self.sequence = sequence
        self.timestamp = timestamp
        self.droppedBefore = droppedBefore
    }

    /// Width in pixels.
    public var width: Int { pixels.width }
    /// Height in pixels.
    public var height: Int { pixels.height }
    /// Bytes from one row to the next.
    public var rowStride: Int { pixels.rowStride }
}
