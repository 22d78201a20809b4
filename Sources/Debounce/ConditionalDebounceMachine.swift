/// The pure state machine behind ``ConditionalDebouncer``: no tasks, no locks, no clock reads.
///
/// Time comes in as an argument, so the machine can be driven by a live clock or, for offline replay,
/// by the timestamps of recorded frames: replaying the same values at the same instants always gives
/// the same deliveries.
///
/// Driving it by hand:
///
/// ```swift
/// var machine = ConditionalDebounceMachine<String, ContinuousClock.Instant>()
/// for (value, instant) in timeline {
///     if let due = machine.advance(to: instant) { deliver(due) }          // old value first
///     if let now = machine.send(value, decide(value), at: instant) { deliver(now) }
/// }
/// if let last = machine.flush() { deliver(last) }
/// ```
///
/// ## Ties
///
/// A deadline that falls exactly on a new value's arrival delivers the old value first: call
/// ``advance(to:)`` before ``send(_:_:at:)`` with the same instant. A deadline is reached when
/// `deadline <= now`.
///
/// ## Pending runs
///
/// A *pending run* starts with the first `.debounce` or `.hold` value while nothing is pending and
/// ends when its value is delivered (by ``advance(to:)``, ``flush()`` or a `.now` value, which drops
/// it) or dropped by ``cancel()``. Within a run:
/// - `.debounce(d)` sets the deadline to `now + d`;
/// - `.hold(d)` sets it to `start + d`, where `start` is the arrival of the run's first value;
/// - `.drop` changes nothing.
/// A deadline that is already reached when it is set delivers the value at once (`.debounce(.zero)`,
/// or a `.hold` whose run started long enough ago).
public struct ConditionalDebounceMachine<Value, Instant: InstantProtocol> {
    // Plain optional fields rather than an enum with a tuple payload: the send path then compiles
    // to loads, compares and stores, with no runtime calls for the payload's layout.
    @usableFromInline var pendingValue: Value?
    @usableFromInline var pendingDeadline: Instant?
    @usableFromInline var pendingRunStart: Instant?

    /// Creates a machine with nothing pending.
    @inlinable public init() {}

    /// The value waiting for its deadline, if any.
    @inlinable public var pending: Value? { pendingValue }

    /// When the pending value is due, or `nil` when nothing is pending.
    @inlinable public var deadline: Instant? { pendingDeadline }

    /// When the current pending run started (the arrival of its first value), or `nil` when
    /// nothing is pending. `now - pendingSince` is how long the run has lasted.
    @inlinable public var pendingSince: Instant? { pendingRunStart }

    /// Receives a value together with the decision for it.
    ///
    /// - Parameters:
    ///   - value: The new value.
    ///   - decision: What to do with it (see ``DebounceDecision``).
    ///   - now: The value's arrival. Instants must not go backwards between calls.
    /// - Returns: The value to deliver now, if any: the value itself for `.now`, or for a
    ///   `.debounce`/`.hold` whose deadline is already reached.
    /// - Precondition: No pending value is overdue at `now`; call ``advance(to:)`` first, which is
    ///   what defines ties (the old value is delivered before the new one arrives).
    @inlinable public mutating func send(_ value: Value, _ decision: DebounceDecision<Instant.Duration>, at now: Instant) -> Value? {
        if let deadline = pendingDeadline {
            precondition(now < deadline, "send(at: \(now)) while the pending value was due at \(deadline): call advance(to:) first")
        }
        switch decision {
        case .now:
            clear()
            return value
        case .drop:
            return nil
        case .debounce(let wait):
            return makePending(value, deadline: now.advanced(by: wait), runStart: pendingRunStart ?? now, now: now)
        case .hold(let wait):
            let start = pendingRunStart ?? now
            return makePending(value, deadline: start.advanced(by: wait), runStart: start, now: now)
        }
    }

    /// Delivers the pending value if its deadline is reached (`deadline <= now`).
    ///
    /// - Parameter now: The current instant.
    /// - Returns: The pending value when it is due; `nil` otherwise.
    @inlinable public mutating func advance(to now: Instant) -> Value? {
        guard let deadline = pendingDeadline, deadline <= now else { return nil }
        return flush()
    }

    /// Ends the pending run early.
    ///
    /// - Returns: The pending value, to be delivered now; `nil` when nothing was pending.
    @inlinable public mutating func flush() -> Value? {
        defer { clear() }
        return pendingValue
    }

    /// Drops the pending value, if any, without delivering it.
    @inlinable public mutating func cancel() {
        clear()
    }

    @inlinable mutating func clear() {
        pendingValue = nil
        pendingDeadline = nil
        pendingRunStart = nil
    }

    @inlinable mutating func makePending(_ value: Value, deadline: Instant, runStart: Instant, now: Instant) -> Value? {
        if deadline <= now {
            clear()
            return value
        }
        pendingValue = value
        pendingDeadline = deadline
        pendingRunStart = runStart
        return nil
    }
}

extension ConditionalDebounceMachine: Sendable where Value: Sendable {}

extension ConditionalDebounceMachine: ClockedMachine {}
