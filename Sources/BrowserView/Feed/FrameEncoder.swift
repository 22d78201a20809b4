import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Draws and encodes the view's frames on a thread of its own, at a lower scheduling priority than
/// the session's threads (nice +10). When detection keeps every core busy, the view gets the time
/// detection leaves: viewers see fewer frames, rather than the shutter seeing frames later.
final class FrameEncoder: Sendable {
    /// How much lower the encoder's priority is than the rest of the process.
    static let niceness: Int32 = 10

    /// The work waiting for the thread; it ends when woken with none (the encoder has gone).
    private final class Jobs: Sendable {
        let waiting = Mutex<[@Sendable () -> Void]>([])
        let wake = DispatchSemaphore(value: 0)
    }

    private let jobs = Jobs()

    init() {
        let jobs = jobs
        let thread = Thread {
            // Linux keeps a nice value per thread: `who` 0 is this thread alone.
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, Self.niceness)
            while true {
                jobs.wake.wait()
                let job = jobs.waiting.withLock { $0.isEmpty ? nil : $0.removeFirst() }
                guard let job else { return }
                job()
            }
        }
        thread.name = "marker-shutter view encoder"
        thread.start()
    }

    deinit {
        jobs.wake.signal()  // after any jobs still queued, each with its own signal: the thread ends
    }

    /// Runs `body` on the encoder's thread, after the work queued before it.
    func run<T: Sendable, E: Error>(_ body: @escaping @Sendable () -> Result<T, E>) async -> Result<T, E> {
        await withCheckedContinuation { continuation in
            jobs.waiting.withLock { $0.append { continuation.resume(returning: body()) } }
            jobs.wake.signal()
        }
    }
}
