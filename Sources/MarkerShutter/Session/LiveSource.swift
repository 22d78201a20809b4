import Foundation
public import FrameCapture
import MarkerDetection

/// Where live frames come from: a camera, or a recorded folder replayed at its own pace.
public struct LiveSource: Sendable {
    /// The camera's path or the folder's.
    public let name: String
    /// One line saying what is being watched (size, format and rate, or the folder's timing).
    public let banner: String
    /// The frames, in order; the stream ends after ``stop()``, at the folder's end, or with the camera's error.
    public let frames: AsyncThrowingStream<SourceFrame, any Error>
    /// Whether frames may stop coming while the source is open (a camera that stalls): then the
    /// session ends a hold by the clock, not only by the next frame. A replay never stalls.
    public let mayStall: Bool
    private let stopAction: @Sendable () -> Void

    /// Stops the frames: a camera stops streaming, a replay stops before its next frame.
    public func stop() { stopAction() }

    /// Frames from an open camera. Streaming starts here, so that a ``stop()`` before the first
    /// frame ends the stream instead of finding it not yet started.
    ///
    /// - Parameters:
    ///   - camera: The open camera.
    ///   - controls: The controls set on it, given with every frame (``SourceFrame/controls``).
    ///   - lock: Controls to set once frames have come for a while (``CameraControlLock``): the
    ///     frames before are dropped, and the ones after carry what it returns. When it throws, the
    ///     stream ends with its error.
    public static func camera(_ camera: Camera, controls: [String: Int64] = [:], lock: CameraControlLock? = nil) -> LiveSource {
        let format = camera.format
        let frames = camera.frames()
        let stream = AsyncThrowingStream<SourceFrame, any Error> { continuation in
            let task = Task {
                do {
                    var iterator = frames.makeAsyncIterator()
                    var controls = controls
                    if let lock {
                        guard try await lock.settle(&iterator) else { return continuation.finish() }
                        controls = try lock.apply(to: camera)
                    }
                    while let frame = try await iterator.next() {
                        continuation.yield(SourceFrame(pixels: frame.pixels, time: FrameTime(frame.timestamp),
                                                       sequence: UInt64(frame.sequence), droppedBefore: frame.droppedBefore)
                            .with(controls: controls))
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
        let rate = format.framesPerSecond.map { String(format: "%.1f fps", $0) } ?? "camera's rate"
        return LiveSource(
            name: camera.path,
            banner: "camera \(camera.path): \(format.width)x\(format.height) \(format.pixelFormat) at \(rate)"
                + (format.matchesRequest ? "" : " (nearest to what was asked)"),
            frames: stream,
            mayStall: true,
            stopAction: { camera.stop() }
        )
    }

    /// A folder's frames, each delivered at its recorded time after the first (on the continuous clock).
    ///
    /// - Parameters:
    ///   - folder: The frames and their timestamps.
    ///   - onSkip: Told the file name and the reason of each frame that cannot be read (it is skipped).
    public static func replay(_ folder: FrameFolder, onSkip: @escaping @Sendable (_ file: String, _ reason: String) -> Void)
        -> LiveSource
    {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: SourceFrame.self, throwing: (any Error).self)
        let task = Task {
            let clock = ContinuousClock()
            let start = clock.now
            let origin = folder.frames[0].time
            for frame in folder.frames {
                try? await clock.sleep(until: start + origin.duration(to: frame.time))
                if Task.isCancelled { break }
                do {
                    let pixels = try frame.readPixels()
                    continuation.yield(SourceFrame(pixels: pixels, time: frame.time, sequence: frame.sequence, file: frame.file)
                        .with(controls: frame.controls))
                } catch {
                    onSkip(frame.file, "\(error)")
                }
            }
            continuation.finish()
        }
        return LiveSource(name: folder.path, banner: "replaying \(folder.path): \(folder.frames.count) frames, \(folder.timing)",
                          frames: stream, mayStall: false, stopAction: { task.cancel() })
    }

    /// A source of given frames, delivered at once: for tests and for frames that come from elsewhere.
    ///
    /// - Parameters:
    ///   - name: What the source is called in messages.
    ///   - frames: The frames, in order.
    ///   - mayStall: Whether frames may stop coming while the source is open, as a camera's may.
    ///   - stop: Ends `frames`.
    public static func frames(named name: String, _ frames: AsyncThrowingStream<SourceFrame, any Error>,
                              mayStall: Bool = false, stop: @escaping @Sendable () -> Void) -> LiveSource {
        LiveSource(name: name, banner: name, frames: frames, mayStall: mayStall, stopAction: stop)
    }
}
