/// The frames of a ``Camera``, in capture order. Iterate it from one task.
///
/// The iterator returns `nil` after ``Camera/stop()`` or when the iterating task is cancelled
/// (which stops the camera), and throws the ``CaptureError`` that ended streaming otherwise
/// (frames captured before the error are delivered first).
public struct FrameStream: AsyncSequence, Sendable {
    public typealias Element = Frame
    public typealias Failure = CaptureError

    let camera: Camera
    let queue: FrameQueue

    public func makeAsyncIterator() -> Iterator {
        Iterator(camera: camera, queue: queue)
    }

    /// Waits for each frame.
    public struct Iterator: AsyncIteratorProtocol {
        public typealias Element = Frame
        public typealias Failure = CaptureError

        let camera: Camera
        let queue: FrameQueue

        /// The next frame; `nil` once the stream has ended.
        ///
        /// - Throws: The ``CaptureError`` that ended streaming, once.
        public mutating func next() async throws(CaptureError) -> Frame? {
            try await next(isolation: nil)
        }

        /// The next frame; `nil` once the stream has ended.
        ///
        /// - Throws: The ``CaptureError`` that ended streaming, once.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(CaptureError) -> Frame? {
            let session = camera.session
            let queue = queue
            let result = await withTaskCancellationHandler {
                await queue.next()
            } onCancel: {
                session.requestStop()
            }
            return try result.get()
        }
    }
}
