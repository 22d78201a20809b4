import Synchronization

/// A version number that tasks wait on: each change raises it and wakes every waiter, which then
/// reads the newest value. A waiter that falls behind skips to the newest version, so nothing
/// queues up however slow it is.
final class ChangeSignal: Sendable {
    private struct State {
        var version = 0
        var closed = false
        var waiters: [Int: CheckedContinuation<Int?, Never>] = [:]
        var nextID = 0
    }

    private let state = Mutex(State())

    /// The current version.
    var version: Int { state.withLock { $0.version } }

    /// Raises the version and wakes every waiter.
    func change() {
        let (version, woken) = state.withLock { s -> (Int, [CheckedContinuation<Int?, Never>]) in
            guard !s.closed else { return (s.version, []) }
            s.version += 1
            defer { s.waiters = [:] }
            return (s.version, Array(s.waiters.values))
        }
        for waiter in woken { waiter.resume(returning: version) }
    }

    /// No more changes: every waiter, now and later, gets `nil`.
    func close() {
        let woken = state.withLock { s -> [CheckedContinuation<Int?, Never>] in
            s.closed = true
            defer { s.waiters = [:] }
            return Array(s.waiters.values)
        }
        for waiter in woken { waiter.resume(returning: nil) }
    }

    /// Waits until the version is above `seen`, and returns it; `nil` once closed or when the
    /// waiting task is cancelled.
    func wait(after seen: Int) async -> Int? {
        let id = state.withLock { s -> Int in
            defer { s.nextID += 1 }
            return s.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Int?, Never>) in
                let immediate = state.withLock { s -> Int?? in
                    if s.closed { return .some(nil) }
                    if s.version > seen { return .some(s.version) }
                    if Task.isCancelled { return .some(nil) }
                    s.waiters[id] = continuation
                    return .none
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.resume(returning: nil)
        }
    }
}
