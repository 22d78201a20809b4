import Glibc

/// A plain POSIX thread for the blocking capture loop, so that waiting on the device never holds
/// one of Swift concurrency's few cooperative threads.
final class CaptureThread: Sendable {
    private final class Body: @unchecked Sendable {
        // @unchecked: written once before the thread starts, read once by it.
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    private let thread: pthread_t

    /// Starts `body` on a new thread.
    init(_ body: @escaping @Sendable () -> Void) {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        let status = pthread_create(&thread, nil, { context in
            let body = Unmanaged<Body>.fromOpaque(context!).takeRetainedValue()
            body.run()
            return nil
        }, context)
        precondition(status == 0, "pthread_create failed: \(status)")
        self.thread = thread
    }

    /// Whether the caller is this thread.
    var isCurrent: Bool { pthread_equal(thread, pthread_self()) != 0 }

    /// Waits for the thread to end. Call once, never from the thread itself.
    func join() {
        pthread_join(thread, nil)
    }
}
