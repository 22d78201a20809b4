public import Pixels

/// What to ask a camera for.
public struct CaptureSettings: Sendable, Hashable {
    /// Requested width in pixels; the driver grants the nearest size it offers.
    public var width: Int
    /// Requested height in pixels.
    public var height: Int
    /// Requested frame rate, set with `VIDIOC_S_PARM`; `nil` leaves the driver's.
    public var framesPerSecond: Int?
    /// The pixels each frame carries: ``PixelFormat/bgr24`` or ``PixelFormat/gray8``. libv4lconvert
    /// makes them from whatever the camera sends (YUYV, MJPEG, ...).
    public var pixelFormat: PixelFormat
    /// The camera's own format to stream in (``FourCC/mjpeg``, ``FourCC/yuyv``, ...), converted
    /// here to ``pixelFormat`` by libv4lconvert; `nil` lets libv4lconvert choose what to convert
    /// from. A USB camera often sends large sizes at full rate only as MJPEG, and a rig of several
    /// on one bus may need it to share the bus's bandwidth.
    public var cameraFormat: FourCC?
    /// Driver buffers to ask for; the driver may grant another number, which is used.
    public var bufferCount: Int
    /// How long to wait for one frame before the stream fails with ``CaptureError/Kind/timedOut``.
    public var frameTimeout: Duration
    /// How many `EIO` restarts of streaming in a row, without a frame between them, before giving up.
    public var maximumConsecutiveRestarts: Int
    /// Frames kept for a consumer that is behind; when more arrive, the oldest is discarded and
    /// counted in the next frame's ``Frame/droppedBefore``. Small keeps frames fresh.
    public var queueLimit: Int

    /// Settings with the defaults: 4 buffers, a 2 s frame timeout, 3 restarts, 2 queued frames.
    public init(
        width: Int = 640, height: Int = 480, framesPerSecond: Int? = 30, pixelFormat: PixelFormat = .bgr24,
        bufferCount: Int = 4, frameTimeout: Duration = .seconds(2), maximumConsecutiveRestarts: Int = 3,
        queueLimit: Int = 2, cameraFormat: FourCC? = nil
    ) {
        self.width = width
        self.height = height
        self.framesPerSecond = framesPerSecond
        self.pixelFormat = pixelFormat
        self.bufferCount = bufferCount
        self.frameTimeout = frameTimeout
        self.maximumConsecutiveRestarts = maximumConsecutiveRestarts
        self.queueLimit = queueLimit
        self.cameraFormat = cameraFormat
    }
}
