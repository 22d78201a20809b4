/// A V4L2 camera opened through libv4l2, negotiated for ``CaptureSettings``.
///
/// ```swift
/// let camera = try Camera(path: "/dev/video0", settings: CaptureSettings(width: 1280, height: 720))
/// print(camera.format)            // what the driver granted
/// for try await frame in camera.frames() {
///     use(frame.pixels, frame.timestamp)
/// }
/// ```
///
/// The device is opened non-blocking; `frames()` maps the driver's buffers and streams on a thread
/// of its own. Teardown (`VIDIOC_STREAMOFF`, unmapping every buffer, `VIDIOC_REQBUFS` 0, close)
/// runs once, when the stream ends by ``stop()``, by an error, by cancelling the task that
/// iterates, or when the camera and its stream are released. For Ctrl-C, catch SIGINT and call
/// ``stop()`` (or cancel the iterating task); ``teardownReport`` then says what teardown did.
public final class Camera: Sendable {
    /// The device path as given.
    public let path: String
    let session: CaptureSession

    /// Opens the device at `path` and negotiates `settings`: the pixel format (`VIDIOC_S_FMT`, with
    /// libv4lconvert converting from what the camera sends) and the frame rate (`VIDIOC_S_PARM`,
    /// read back with `VIDIOC_G_PARM`).
    ///
    /// - Parameters:
    ///   - path: The device node, `/dev/videoN` or a `/dev/v4l/by-id` link.
    ///   - settings: What to ask for; ``format`` says what was granted.
    /// - Throws: ``CaptureError`` when the device cannot be opened, is not a capture device, or
    ///   refuses the format.
    public convenience init(path: String, settings: CaptureSettings = CaptureSettings()) throws(CaptureError) {
        try self.init(path: path, settings: settings, io: .libv4l2)
    }

    init(path: String, settings: CaptureSettings, io: DeviceIO) throws(CaptureError) {
        self.path = path
        session = try CaptureSession(path: path, settings: settings, io: io)
    }

    deinit { session.stop() }

    /// What the driver granted.
    public var format: NegotiatedFormat { session.format }

    /// Counts of delivered and dropped frames so far.
    public var statistics: CaptureStatistics { session.statistics }

    /// What teardown did, once the camera has let go of the device; `nil` before.
    public var teardownReport: TeardownReport? { session.teardownReport }

    /// Starts streaming and returns the frames. Call it once: a second stream fails at once with
    /// ``CaptureError/Kind/notStreamable``. The stream keeps the camera alive.
    public func frames() -> FrameStream {
        if !session.start() {
            let stream = FrameStream(camera: self, queue: FrameQueue(limit: 1))
            stream.queue.finish(CaptureError(kind: .notStreamable, device: path, call: "frames()",
                                             detail: "can be called once, before stop()"))
            return stream
        }
        return FrameStream(camera: self, queue: session.queue)
    }

    /// Stops streaming and tears down; returns when teardown is done. The stream then ends
    /// (its iterator returns `nil`). Calling it again does nothing.
    public func stop() { session.stop() }

    /// The device's formats, sizes and frame intervals, as libv4l2 presents them (emulated formats
    /// included and marked).
    ///
    /// - Throws: ``CaptureError`` from `VIDIOC_ENUM_FMT` and friends, or ``CaptureError/Kind/closed``.
    public func formats() throws(CaptureError) -> [FormatDescription] {
        try session.withDevice(call: "VIDIOC_ENUM_FMT") { device throws(CaptureError) in try device.formats() }
    }

    /// Opens `path` briefly and lists its formats, sizes and frame intervals.
    ///
    /// - Throws: ``CaptureError`` when the device cannot be opened or listed.
    public static func formats(of path: String) throws(CaptureError) -> [FormatDescription] {
        try formats(of: path, io: .libv4l2)
    }

    static func formats(of path: String, io: DeviceIO) throws(CaptureError) -> [FormatDescription] {
        let device = try V4L2Device(path: path, io: io)
        defer { _ = device.close() }
        return try device.formats()
    }

    /// Every control the device offers (`VIDIOC_QUERYCTRL`), with its current value.
    ///
    /// - Throws: ``CaptureError`` from the control calls, or ``CaptureError/Kind/closed``.
    public func controls() throws(CaptureError) -> [CameraControl] {
        try session.withDevice(call: "VIDIOC_QUERYCTRL") { device throws(CaptureError) in try device.controls() }
    }

    /// The current value of `control` (`VIDIOC_G_CTRL`).
    ///
    /// - Throws: ``CaptureError``; `EINVAL` when the device has no such control.
    public func value(of control: ControlID) throws(CaptureError) -> Int32 {
        try session.withDevice(call: "VIDIOC_G_CTRL") { device throws(CaptureError) in try device.value(of: control.rawValue) }
    }

    /// Sets `control` to `value` (`VIDIOC_S_CTRL`).
    ///
    /// - Throws: ``CaptureError``; `EACCES` when an automatic mode governs the control (see
    ///   ``setManualExposure(_:)`` and ``setManualFocus(_:)``), `ERANGE` for a value out of range.
    public func set(_ control: ControlID, to value: Int32) throws(CaptureError) {
        try session.withDevice(call: "VIDIOC_S_CTRL") { device throws(CaptureError) in
            try device.setValue(value, of: control.rawValue)
        }
    }

    /// Turns automatic exposure off (``ControlID/exposureAuto`` to manual), then sets
    /// ``ControlID/exposureAbsolute`` to `value` (100 µs units).
    ///
    /// - Throws: ``CaptureError`` from either `VIDIOC_S_CTRL`.
    public func setManualExposure(_ value: Int32) throws(CaptureError) {
        try set(.exposureAuto, to: ControlID.exposureManual)
        try set(.exposureAbsolute, to: value)
    }

    /// Turns continuous autofocus off (``ControlID/focusAuto`` to 0), then sets
    /// ``ControlID/focusAbsolute`` to `value`.
    ///
    /// - Throws: ``CaptureError`` from either `VIDIOC_S_CTRL`.
    public func setManualFocus(_ value: Int32) throws(CaptureError) {
        try set(.focusAuto, to: 0)
        try set(.focusAbsolute, to: value)
    }
}
