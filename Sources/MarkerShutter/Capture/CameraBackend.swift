/// A capture backend: opens a camera by its path as a ``FrameSource``. ``V4L2Backend`` is the one
/// `live` uses; another backend (GStreamer, libcamera) conforms and is given to
/// ``LiveSession/Configuration/backend``.
public protocol CameraBackend: Sendable {
    /// Opens the camera at `path`, negotiates `request` and sets its controls, without streaming
    /// yet; the source streams from ``FrameSource/start(notify:)`` on.
    ///
    /// - Parameters:
    ///   - path: The camera, as the backend names cameras (`/dev/video0` for V4L2).
    ///   - request: The size, rate, format and controls to ask for.
    ///   - settling: With ``CameraControls/lock``, how long (in frame time) the automatic modes
    ///     settle before they are fixed; the frames until then are dropped.
    /// - Throws: ``SourceError``: ``SourceError/Kind/unavailable`` when the camera cannot be opened
    ///   or refuses the format, ``SourceError/Kind/controls`` when a control is refused (the camera
    ///   closed again).
    func open(path: String, request: CameraRequest, settling: Duration) throws(SourceError) -> any FrameSource
}
