import Foundation
import FrameCapture

/// The V4L2 capture backend: a camera opened through libv4l2 (``FrameCapture``), which converts
/// what the camera sends to color or gray frames stamped with the kernel's monotonic clock.
///
/// A camera that goes quiet is not given up: its capture waits for frames for a day (a session
/// marks the stall by its own clock, and the camera's frames bring it back); only a camera that
/// is gone (unplugged, its capture failing) ends the source.
public struct V4L2Backend: CameraBackend {
    /// How long the capture waits for a frame before it gives up the camera.
    static let frameTimeout: Duration = .seconds(86_400)

    /// The backend.
    public init() {}

    public func open(path: String, request: CameraRequest, settling: Duration) throws(SourceError) -> any FrameSource {
        try V4L2Source(path: path, request: request, settling: settling)
    }
}

/// One V4L2 camera as a ``FrameSource``: opened, negotiated and its controls set when made,
/// streaming from ``start(notify:)`` on. The only type of the session's that speaks FrameCapture.
final class V4L2Source: FrameSource {
    let name: String
    let banner: String
    let frameInterval: Duration?
    var mayStall: Bool { true }
    private let camera: Camera
    /// The controls set, as read back.
    private let values: [String: Int64]
    /// The lock to apply once the automatic modes settled, when asked for.
    private let lock: CameraControlLock?

    /// Opens the camera and sets the controls `request` asks for before any frame: exposure, focus
    /// and the named controls at once, the lock once the automatic modes have settled for `settling`.
    ///
    /// - Throws: ``SourceError/Kind/unavailable`` when the camera cannot be opened,
    ///   ``SourceError/Kind/controls`` (the camera closed again) when a value is refused.
    init(path: String, request: CameraRequest, settling: Duration) throws(SourceError) {
        let settings = CaptureSettings(
            width: request.width, height: request.height, framesPerSecond: request.framesPerSecond,
            pixelFormat: request.gray ? .gray8 : .bgr24, frameTimeout: V4L2Backend.frameTimeout,
            cameraFormat: request.cameraFormat.flatMap { FourCC($0.uppercased()) })
        do {
            camera = try Camera(path: path, settings: settings)
        } catch {
            throw SourceError(.unavailable, "\(error)")
        }
        let controls = request.controls
        let now = ControlSettings(
            exposure: controls.exposure.map(Self.mode), focus: controls.focus.map(Self.mode),
            controls: controls.named.map { ControlAssignment(name: $0.name, value: $0.value) })
        do {
            values = try camera.currentValues(of: camera.apply(now).map(\.name)).valuesByName
        } catch {
            camera.stop()
            throw SourceError(.controls, "\(error)")
        }
        lock = controls.lock ? CameraControlLock(settling: settling, earlier: Array(values.keys)) : nil
        name = path
        let format = camera.format
        frameInterval = format.framesPerSecond.flatMap { $0 > 0 && $0.isFinite ? .nanoseconds(Int64((1e9 / $0).rounded())) : nil }
        let rate = format.framesPerSecond.map { String(format: "%.1f fps", $0) } ?? "camera's rate"
        banner = "camera \(path): \(format.width)x\(format.height) \(format.pixelFormat) at \(rate)"
            + (format.cameraFormat.map { " from \($0)" } ?? "") + (format.matchesRequest ? "" : " (nearest to what was asked)")
    }

    private static func mode(_ mode: CameraControls.Mode) -> ControlSettings.Mode {
        switch mode {
        case .automatic: .automatic
        case .manual(let value): .manual(value)
        }
    }

    /// Streams; streaming starts here, so that a ``stop()`` before the first frame ends the stream
    /// instead of finding it not yet started.
    func start(notify: @escaping @Sendable (SourceNotice) -> Void) -> AsyncThrowingStream<SourceItem, any Error> {
        if !values.isEmpty { notify(.controls(values, locked: false)) }
        let camera = camera, lock = lock, name = name
        let frames = camera.frames()
        return AsyncThrowingStream<SourceItem, any Error> { [values] continuation in
            let task = Task {
                do {
                    var iterator = frames.makeAsyncIterator()
                    var controls = values
                    if let lock {
                        guard try await lock.settle(&iterator) else { return continuation.finish() }
                        controls = try lock.apply(to: camera)
                        notify(.controls(controls, locked: true))
                    }
                    while let frame = try await iterator.next() {
                        continuation.yield(.frame(SourceFrame(pixels: frame.pixels, time: FrameTime(frame.timestamp),
                                                              sequence: UInt64(frame.sequence), droppedBefore: frame.droppedBefore)
                            .with(controls: controls)))
                    }
                    continuation.finish()
                } catch let error as CaptureError {
                    continuation.finish(throwing: SourceError(error.kind == .disconnected ? .gone : .failed, "\(error)"))
                } catch {
                    // Errors of the control lock (ControlError) name the device already.
                    let text = "\(error)"
                    continuation.finish(throwing: SourceError(.controls, text.hasPrefix(name + ": ") ? text : "\(name): \(text)"))
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    func stop() { camera.stop() }
}
