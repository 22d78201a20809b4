import Dispatch
import Synchronization

/// A one-place mailbox between a producer and a slower consumer thread: a value put while another
/// waits replaces it (the replaced one is counted), so the consumer always gets the newest value
/// and never an older one after a newer one.
final class LatestFrameSlot<Value: Sendable>: Sendable {
    private struct State {
        var value: Value?
        var replaced = 0
        var closed = false
    }

    private let state = Mutex(State())
    /// Signalled when the slot goes from empty to full, and on close.
    private let filled = DispatchSemaphore(value: 0)
    /// Which replaced values ``replacedCount`` counts.
    private let counts: @Sendable (Value) -> Bool

    /// An empty slot.
    ///
    /// - Parameter counting: Which replaced values ``replacedCount`` counts (all of them by default).
    init(counting: @escaping @Sendable (Value) -> Bool = { _ in true }) {
        counts = counting
    }

    /// Puts a value, replacing a waiting one. Never blocks.
    ///
    /// - Returns: Whether a waiting value was replaced (skipped).
    @discardableResult
    func put(_ value: Value) -> Bool {
        let (wasEmpty, replaced) = state.withLock { s -> (Bool, Bool) in
            guard !s.closed else { return (false, false) }
            let replaced = s.value != nil
            if let waiting = s.value, counts(waiting) { s.replaced += 1 }
            s.value = value
            return (!replaced, replaced)
        }
        if wasEmpty { filled.signal() }
        return replaced
    }

    /// Waits for a value; `nil` once the slot is closed and empty.
    func take() -> Value? {
        while true {
            let (value, closed) = state.withLock { s -> (Value?, Bool) in
                defer { s.value = nil }
                return (s.value, s.closed)
            }
            if let value { return value }
            if closed { return nil }
            filled.wait()
        }
    }

    /// No more values: `take` returns what is waiting, then `nil`.
    func close() {
        state.withLock { $0.closed = true }
        filled.signal()
    }

    /// Values replaced before the consumer took them (those the slot was told to count).
    var replacedCount: Int { state.withLock { $0.replaced } }
}
