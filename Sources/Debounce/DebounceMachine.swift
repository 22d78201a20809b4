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
    private var burstEnd: Instant?
    /// The value waiting for the trailing edge (or for `maxWait`).
    public private(set) var pending: Value?
    /// Arrival of the first value since the last delivery (the start of `maxWait`).
    private var pendingSince: Instant?
    /// The last delivery, for `maxWait` without a trailing edge.
    private var lastDelivery: Instant?

    /// Creates a machine with nothing pending.
    ///
    /// - Precondition: `interval` is greater than zero.
    public init(interval: Instant.Duration, options: DebounceOptions<Instant.Duration> = .trailing) {
        precondition(interval > .zero, "the debounce interval must be greater than zero, got \(interval)")
        self.interval = interval
        self.options = options
    }

    /// When the pending value is due: the end of the burst, or `maxWait` after it became pending if
    /// that comes first. `nil` when nothing is pending.
    public var deadline: Instant? {
        guard pending != nil, let burstEnd, let pendingSince else { return nil }
        guard let maxWait = options.maxWait else { return burstEnd }
        return min(burstEnd, pendingSince.advanced(by: maxWait))
    }

    /// Receives a value.
    ///
    /// - Returns: The value to deliver now (the leading edge), if any.
    /// - Precondition: Nothing pending is overdue at `now` (call ``advance(to:)`` first).
    public mutating func send(_ value: Value, at now: Instant) -> Value? {
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
    public mutating func advance(to now: Instant) -> Value? {
        guard let due = deadline, due <= now, let value = pending else { return nil }
        pending = nil
        pendingSince = nil
        if let burstEnd, burstEnd <= now { self.burstEnd = nil }
        return deliver(value, at: now)
    }

    /// Delivers the pending value now, if any; the burst goes on.
    public mutating func flush() -> Value? {
        guard let value = pending else { return nil }
        pending = nil
        pendingSince = nil
        return value
    }

    /// Drops the pending value and forgets the burst: the next value starts a new one.
    public mutating func cancel() {
        pending = nil
        pendingSince = nil
        burstEnd = nil
    }

    private mutating func makePending(_ value: Value, at now: Instant) {
        if pending == nil { pendingSince = now }
        pending = value
    }

    private mutating func deliver(_ value: Value, at now: Instant) -> Value {
        lastDelivery = now
        return value
    }
}

extension DebounceMachine: Sendable where Value: Sendable {}
extension DebounceMachine: ClockedMachine {}
