import FrameCapture

extension LiveSession {
    /// Opens the camera and sets the controls ``Configuration/controls`` asks for, before any frame:
    /// exposure, focus and the named controls at once, the lock once the automatic modes have
    /// settled for ``Configuration/controlSettling`` (the frames until then are dropped). The
    /// values read back go with every frame, and ``Event/cameraControls(_:locked:)`` tells them.
    ///
    /// - Throws: ``LiveSessionError/camera(_:)`` when the camera cannot be opened,
    ///   ``LiveSessionError/controls(_:)`` (the camera closed again) when a value is refused.
    static func openCamera(path: String, settings: CaptureSettings, configuration: Configuration,
                           continuation: AsyncStream<Event>.Continuation) throws(LiveSessionError) -> LiveSource {
        let camera: Camera
        do {
            camera = try Camera(path: path, settings: settings)
        } catch {
            throw .camera(error)
        }
        var now = configuration.controls
        now.lock = false
        let values: [String: Int64]
        do {
            values = try camera.currentValues(of: camera.apply(now).map(\.name)).valuesByName
        } catch {
            camera.stop()
            throw .controls(error)
        }
        if !values.isEmpty { continuation.yield(.cameraControls(values, locked: false)) }
        guard configuration.controls.lock else { return .camera(camera, controls: values) }
        let lock = CameraControlLock(settling: configuration.controlSettling, earlier: Array(values.keys)) { locked in
            continuation.yield(.cameraControls(locked, locked: true))
        }
        return .camera(camera, controls: values, lock: lock)
    }
}
