/// The pure state machine behind ``Debouncer``: no tasks, no clock reads; time is an argument.
///
/// Call ``advance(to:)`` before ``send(_:at:)`` with the same instant: a value that falls due at the
/// instant a new one arrives is delivered first.
public struct DebounceMachine<Value, Instant: InstantProtocol> {
    /// The quiet time that ends a burst.
    public let interval: Instant.Duration
    /// Which edges are delivered and the longest wait.
    public let options: DebounceOptions<Instant.Duration>

    /// One interval after the latest value: when the current burst ends. `nil` outside a burst.
    @usableFromInline var burstEnd: Instant?
    /// The value waiting for the trailing edge (or for `maxWait`).
    @usableFromInline var pendingValue: Value?
    /// Arrival of the first value since the last delivery (the start of `maxWait`).
    @usableFromInline var pendingSince: Instant?
    /// When the pending value is due; kept up to date on every change so the send path reads it
    /// instead of recomputing it.
    @usableFromInline var dueAt: Instant?
    /// The last delivery, for `maxWait` without a trailing edge.
    @usableFromInline var lastDelivery: Instant?

    /// Creates a machine with nothing pending.
    ///
    /// - Precondition: `interval` is greater than zero.
    @inlinable public init(interval: Instant.Duration, options: DebounceOptions<Instant.Duration> = .trailing) {
        precondition(interval > .zero, "the debounce interval must be greater than zero, got \(interval)")
        self.interval = interval
        self.options = options
    }

    /// The value waiting to be delivered, if any.
    @inlinable public var pending: Value? { pendingValue }

    /// When the pending value is due: the end of the burst, or `maxWait` after it became pending if
    /// that comes first. `nil` when nothing is pending.
    @inlinable public var deadline: Instant? { dueAt }

    /// Receives a value.
    ///
    /// - Returns: The value to deliver now (the leading edge), if any.
    /// - Precondition: Nothing pending is overdue at `now` (call ``advance(to:)`` first).
    @inlinable public mutating func send(_ value: Value, at now: Instant) -> Value? {
        if let dueAt { precondition(now < dueAt, "send(at: \(now)) while a value was due at \(dueAt): call advance(to:) first") }
        let inBurst = burstEnd.map { now < $0 } ?? false
        let end = now.advanced(by: interval)
        burstEnd = end
        if !inBurst, options.leading {
            lastDelivery = now
            return value
        }
        if options.trailing {
            let since = pendingSince ?? now
            pendingSince = since
            pendingValue = value
            if let maxWait = options.maxWait {
                dueAt = min(end, since.advanced(by: maxWait))
            } else {
                dueAt = end
            }
            return nil
        }
        // Leading edge only, inside a burst: deliver once maxWait has passed since the last delivery.
        if let maxWait = options.maxWait, let lastDelivery, lastDelivery.advanced(by: maxWait) <= now {
            self.lastDelivery = now
            return value
        }
        return nil
    }

    /// Delivers the pending value if it is due at `now`.
    @inlinable public mutating func advance(to now: Instant) -> Value? {
        guard let dueAt, dueAt <= now else { return nil }
        if let burstEnd, burstEnd <= now { self.burstEnd = nil }
        lastDelivery = now
        return flush()
    }

    /// Delivers the pending value now, if any; the burst goes on.
    @inlinable public mutating func flush() -> Value? {
        defer {
            pendingValue = nil
            pendingSince = nil
            dueAt = nil
        }
        return pendingValue
    }

    /// Drops the pending value and forgets the burst: the next value starts a new one.
    @inlinable public mutating func cancel() {
        _ = flush()
        burstEnd = nil
    }
}

extension DebounceMachine: Sendable where Value: Sendable {}
extension DebounceMachine: ClockedMachine {}
