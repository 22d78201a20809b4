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

    /// The value waiting to be delivered, if any.
    @inlinable public var pending: Value? { pendingValue }
    /// Arrival of the first value since the last delivery (the start of `maxWait`).
    @usableFromInline var pendingSince: Instant?
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

    /// When the pending value is due: the end of the burst, or `maxWait` after it became pending if
    /// that comes first. `nil` when nothing is pending.
    @inlinable public var deadline: Instant? {
        guard pendingValue != nil, let burstEnd, let pendingSince else { return nil }
        guard let maxWait = options.maxWait else { return burstEnd }
        return min(burstEnd, pendingSince.advanced(by: maxWait))
    }

    /// Receives a value.
    ///
    /// - Returns: The value to deliver now (the leading edge), if any.
    /// - Precondition: Nothing pending is overdue at `now` (call ``advance(to:)`` first).
    @inlinable public mutating func send(_ value: Value, at now: Instant) -> Value? {
        if let deadline { precondition(now < deadline, "send(at: \(now)) while a value was due at \(deadline): call advance(to:) first") }
        let inBurst = burstEnd.map { now < $0 } ?? false
        burstEnd = now.advanced(by: interval)
        if !inBurst {
            if options.leading { return deliver(value, at: now) }
            makePending(value, at: now)
            return nil
        }
        if options.trailing {
            makePending(value, at: now)
            return nil
        }
        if let maxWait = options.maxWait, let lastDelivery, lastDelivery.advanced(by: maxWait) <= now {
            return deliver(value, at: now)
        }
        return nil
    }

    /// Delivers the pending value if it is due at `now`.
    @inlinable public mutating func advance(to now: Instant) -> Value? {
        guard let due = deadline, due <= now, let value = pendingValue else { return nil }
        pendingValue = nil
        pendingSince = nil
        if let burstEnd, burstEnd <= now { self.burstEnd = nil }
        return deliver(value, at: now)
    }

    /// Delivers the pending value now, if any; the burst goes on.
    @inlinable public mutating func flush() -> Value? {
        guard let value = pendingValue else { return nil }
        pendingValue = nil
        pendingSince = nil
        return value
    }

    /// Drops the pending value and forgets the burst: the next value starts a new one.
    @inlinable public mutating func cancel() {
        pendingValue = nil
        pendingSince = nil
        burstEnd = nil
    }

    @inlinable mutating func makePending(_ value: Value, at now: Instant) {
        if pendingValue == nil { pendingSince = now }
        pendingValue = value
    }

    @inlinable mutating func deliver(_ value: Value, at now: Instant) -> Value {
        lastDelivery = now
        return value
    }
}

extension DebounceMachine: Sendable where Value: Sendable {}
extension DebounceMachine: ClockedMachine {}
