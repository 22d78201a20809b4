import FrameCapture

/// A camera opened with its controls set, not streaming yet: ``source()`` starts it. A rig opens
/// every camera this far before any streams, so that a camera refusing a value stops the run with
/// no frame taken from any.
struct OpenedCamera {
    let camera: Camera
    /// The controls set, as read back.
    let values: [String: Int64]
    /// The lock to apply once the automatic modes settled, when asked for.
    let lock: CameraControlLock?

    /// Opens a camera and sets the controls `controls` asks for, before any frame: exposure,
    /// focus and the named controls at once, the lock once the automatic modes have settled for
    /// `settling` (the frames until then are dropped). The values read back go with every frame,
    /// and `onControls` is told them: here (`locked` false, when any were set), and once locked
    /// (`locked` true).
    ///
    /// - Throws: ``LiveSessionError/camera(_:)`` when the camera cannot be opened,
    ///   ``LiveSessionError/controls(_:)`` (the camera closed again) when a value is refused.
    init(path: String, settings: CaptureSettings, controls: ControlSettings, settling: Duration,
         onControls: @escaping @Sendable (_ values: [String: Int64], _ locked: Bool) -> Void) throws(LiveSessionError) {
        do {
            camera = try Camera(path: path, settings: settings)
        } catch {
            throw .camera(error)
        }
        var now = controls
        now.lock = false
        do {
            values = try camera.currentValues(of: camera.apply(now).map(\.name)).valuesByName
        } catch {
            camera.stop()
            throw .controls(error)
        }
        if !values.isEmpty { onControls(values, false) }
        lock = controls.lock ? CameraControlLock(settling: settling, earlier: Array(values.keys)) { locked in onControls(locked, true) } : nil
    }

    /// The camera's frames; streaming starts here.
    func source() -> LiveSource { .camera(camera, controls: values, lock: lock) }

    /// Closes the camera without streaming.
    func close() { camera.stop() }
}

extension LiveSession {
    /// Opens the camera with the controls ``Configuration/controls`` asks for, settling for
    /// ``Configuration/controlSettling`` before a lock (``OpenedCamera``), and starts it;
    /// ``Event/cameraControls(_:locked:)`` tells the values set.
    static func openCamera(path: String, settings: CaptureSettings, configuration: Configuration,
                           continuation: AsyncStream<Event>.Continuation) throws(LiveSessionError) -> LiveSource {
        try OpenedCamera(path: path, settings: settings, controls: configuration.controls,
                         settling: configuration.controlSettling) { values, locked in
            continuation.yield(.cameraControls(values, locked: locked))
        }.source()
    }
}
