import Hummingbird
import NIOCore

/// How long one write to a client may take before its connection is closed, on the server's clock.
///
/// A write waits while the client does not read: the server's writer holds at most NIO's write
/// buffer (64 KiB above the socket's) and then waits until the client takes more. A client that
/// never reads would keep its connection, and the answer or stream being sent on it, forever;
/// with a deadline it loses them instead, and nothing it was sent piles up.
struct WriteDeadline: Sendable {
    /// How long a write may take.
    let limit: Duration
    /// The clock it is measured on (a manual clock in tests).
    let clock: any Clock<Duration>

    /// Starts timing one write: `expired` is called once ``limit`` has passed, unless the task
    /// returned is cancelled first (when the write is done).
    func start(_ expired: @escaping @Sendable () -> Void) -> Task<Void, Never> {
        Task { [clock, limit] in
            do {
                try await Self.sleep(limit, on: clock)
            } catch {
                return  // the write was done in time
            }
            expired()
        }
    }

    private static func sleep<C: Clock<Duration>>(_ duration: Duration, on clock: C) async throws {
        try await clock.sleep(for: duration)
    }
}
