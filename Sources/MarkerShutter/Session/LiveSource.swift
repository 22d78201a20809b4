import Foundation
public import FrameCapture
import MarkerDetection

/// Where live frames come from: a camera, or a recorded folder replayed at its own pace.
public struct LiveSource: Sendable {
    /// The camera's path or the folder's.
    public let name: String
    /// One line saying what is being watched (size, format and rate, or the folder's timing).
    public let banner: String
    /// What the source delivers, in order.
    public enum Item: Sendable {
        /// A frame.
        case frame(SourceFrame)
        /// A replayed frame that cannot be read: its time passes all the same.
        case missing(MissingFrame)
    }

    /// A replayed frame whose file is missing or cannot be read.
    public struct MissingFrame: Sendable, Equatable {
        /// The frame's recorded time.
        public let time: FrameTime
        /// Its file name.
        public let file: String
        /// Why it cannot be read.
        public let reason: String

        /// Describes a frame that cannot be read.
        public init(time: FrameTime, file: String, reason: String) {
            self.time = time
            self.file = file
            self.reason = reason
        }
    }

    /// The frames, in order, and the replayed frames that cannot be read, in their place; the
    /// stream ends after ``stop()``, at the folder's end, or with the camera's error.
    public let items: AsyncThrowingStream<Item, any Error>
    /// Whether frames may stop coming while the source is open (a camera that stalls): then the
    /// session ends a hold by the clock, not only by the next frame. A replay never stalls.
    let mayStall: Bool
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
        let stream = AsyncThrowingStream<Item, any Error> { continuation in
            let task = Task {
                do {
                    var iterator = frames.makeAsyncIterator()
                    var controls = controls
                    if let lock {
                        guard try await lock.settle(&iterator) else { return continuation.finish() }
                        controls = try lock.apply(to: camera)
                    }
                    while let frame = try await iterator.next() {
                        continuation.yield(.frame(SourceFrame(pixels: frame.pixels, time: FrameTime(frame.timestamp),
                                                              sequence: UInt64(frame.sequence), droppedBefore: frame.droppedBefore)
                            .with(controls: controls)))
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
                + (format.cameraFormat.map { " from \($0)" } ?? "") + (format.matchesRequest ? "" : " (nearest to what was asked)"),
            items: stream,
            mayStall: true,
            stopAction: { camera.stop() }
        )
    }

    /// A folder's frames, each delivered at its recorded time after the first (on the continuous
    /// clock); a frame that cannot be read is delivered as ``Item/missing(_:)`` at its time, so
    /// that the hold runs out over a hole in the recording as it would have live.
    ///
    /// - Parameter folder: The frames and their timestamps.
    public static func replay(_ folder: FrameFolder) -> LiveSource {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Item.self, throwing: (any Error).self)
        let task = Task {
            let clock = ContinuousClock()
            let start = clock.now
            let origin = folder.frames[0].time
            for frame in folder.frames {
                try? await clock.sleep(until: start + origin.duration(to: frame.time))
                if Task.isCancelled { break }
                do {
                    let pixels = try frame.readPixels()
                    continuation.yield(.frame(SourceFrame(pixels: pixels, time: frame.time, sequence: frame.sequence, file: frame.file)
                        .with(controls: frame.controls)))
                } catch {
                    continuation.yield(.missing(MissingFrame(time: frame.time, file: frame.file, reason: "\(error)")))
                }
            }
            continuation.finish()
        }
        return LiveSource(name: folder.path, banner: "replaying \(folder.path): \(folder.frames.count) frames, \(folder.timing)",
                          items: stream, mayStall: false, stopAction: { task.cancel() })
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
        let wrapped = AsyncThrowingStream<Item, any Error> { continuation in
            let task = Task {
                do {
                    for try await frame in frames { continuation.yield(.frame(frame)) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
        return items(named: name, wrapped, mayStall: mayStall, stop: stop)
    }

    /// A source of given items (frames, and frames that cannot be read), delivered at once.
    ///
    /// - Parameters:
    ///   - name: What the source is called in messages.
    ///   - items: The frames and the missing frames, in order.
    ///   - mayStall: Whether frames may stop coming while the source is open, as a camera's may.
    ///   - stop: Ends `items`.
    public static func items(named name: String, _ items: AsyncThrowingStream<Item, any Error>,
                             mayStall: Bool = false, stop: @escaping @Sendable () -> Void) -> LiveSource {
        LiveSource(name: name, banner: name, items: items, mayStall: mayStall, stopAction: stop)
    }
}
