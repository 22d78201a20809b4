/// A ``ClockedMachine`` that holds at most one pending value and can release it early: the shape of
/// the machines behind ``ConditionalDebouncer``, ``Debouncer`` and ``Throttler``.
@usableFromInline
protocol PendingValueMachine: ClockedMachine {
    /// The value waiting for its deadline, if any.
    var pending: Output? { get }

    /// Removes and returns the pending value, if any, whatever its deadline.
    mutating func flush() -> Output?
}

/// A ``PendingValueMachine`` that takes each value with the instant it was sent and nothing else.
@usableFromInline
protocol IntervalMachine: PendingValueMachine {
    /// Takes a value sent at `now`; returns a value to deliver at once, if any.
    mutating func send(_ value: Output, at now: Instant) -> Output?
}

extension DebounceMachine: IntervalMachine {}
extension ThrottleMachine: IntervalMachine {}
extension ConditionalDebounceMachine: PendingValueMachine {}

// The public wrappers' shared behaviour, so each wrapper only documents and forwards.
extension ClockedDriver where Machine: PendingValueMachine {
    /// Delivers the pending value now, if any.
    @inlinable
    func flush() {
        update { machine, _ in machine.flush() }
    }

    /// Whether a value waits for its deadline.
    @inlinable
    var isPending: Bool {
        read { $0.pending != nil }
    }
}

extension ClockedDriver where Machine: IntervalMachine {
    /// Hands `value` to the machine at the current instant.
    @inlinable
    func send(_ value: Machine.Output) {
        update { machine, now in machine.send(value, at: now) }
    }
}
