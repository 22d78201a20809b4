/// Frames a program hands over, as a ``FrameSource``: for tests, and for frames that come from
/// elsewhere (a decoder of its own, another process).
///
/// ```swift
/// let (frames, feed) = AsyncThrowingStream.makeStream(of: SourceItem.self, throwing: (any Error).self)
/// let source = StreamSource(named: "left", frames, stop: { feed.finish() })
/// feed.yield(.frame(SourceFrame(pixels: pixels, time: time)))
/// ```
final class StreamSource: FrameSource {
    let name: String
    var banner: String { name }
    let frameInterval: Duration?
    let mayStall: Bool
    private let items: AsyncThrowingStream<SourceItem, any Error>
    private let stopAction: @Sendable () -> Void

    /// A source of given items (frames, and frames that cannot be read), delivered as they come.
    ///
    /// - Parameters:
    ///   - name: What the source is called in messages.
    ///   - items: The frames and the missing frames, in order; the stream may end with a ``SourceError``.
    ///   - frameInterval: The time between frames, when the source promises one.
    ///   - mayStall: Whether frames may stop coming while the source is open, as a camera's may.
    ///   - stop: Ends `items`.
    init(named name: String, _ items: AsyncThrowingStream<SourceItem, any Error>, frameInterval: Duration? = nil,
                mayStall: Bool = false, stop: @escaping @Sendable () -> Void) {
        self.name = name
        self.items = items
        self.frameInterval = frameInterval
        self.mayStall = mayStall
        stopAction = stop
    }

    /// A source of given frames.
    ///
    /// - Parameters:
    ///   - name: What the source is called in messages.
    ///   - frames: The frames, in order.
    ///   - frameInterval: The time between frames, when the source promises one.
    ///   - mayStall: Whether frames may stop coming while the source is open, as a camera's may.
    ///   - stop: Ends `frames`.
    convenience init(named name: String, frames: AsyncThrowingStream<SourceFrame, any Error>, frameInterval: Duration? = nil,
                            mayStall: Bool = false, stop: @escaping @Sendable () -> Void) {
        let wrapped = AsyncThrowingStream<SourceItem, any Error> { continuation in
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
        self.init(named: name, wrapped, frameInterval: frameInterval, mayStall: mayStall, stop: stop)
    }

    func start(notify: @escaping @Sendable (SourceNotice) -> Void) -> AsyncThrowingStream<SourceItem, any Error> { items }

    func stop() { stopAction() }
}
