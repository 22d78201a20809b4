/// Delivers values now or later, deciding value by value: the live counterpart of
/// ``ConditionalDebounceMachine``.
///
/// Every value sent is handed to `decide`, and the ``DebounceDecision`` says whether it is delivered
/// at once (`.now`), after a quiet period (`.debounce`), after a hold measured from the first value
/// of the pending run (`.hold`), or ignored (`.drop`).
///
/// ```swift
/// let shutter = ConditionalDebouncer<Detection, ContinuousClock>(
///     clock: ContinuousClock(),
///     decide: { $0.isValid ? .now : .hold(.milliseconds(300)) },
///     output: { detection in await display.update(detection) }
/// )
/// shutter.send(detection)   // from any thread, never blocks on the output
/// ```
///
/// Guarantees:
/// - Outputs are delivered in the order the machine released them, one at a time: the output
///   closure is never called concurrently with itself.
/// - `send`, `flush` and `cancel` never wait for the output closure; they are safe to call from any
///   thread or task.
/// - At most one timer task exists per pending run. When the deadline moves later, the sleeping task
///   sleeps again instead of being cancelled and replaced. Steady traffic allocates nothing.
/// - Releasing the debouncer drops what is pending and cancels the timer; values already released
///   for delivery are still delivered.
///
/// Flushing, cancelling, waiting for deliveries and the timer statistics come from ``RateLimiter``.
public final class ConditionalDebouncer<Value: Sendable, C: Clock>: RateLimiter, @unchecked Sendable where C.Duration == Duration {
    @usableFromInline let driver: ClockedDriver<ConditionalDebounceMachine<Value, DriverInstant>, C>
    @usableFromInline let decide: @Sendable (Value) -> DebounceDecision<C.Duration>

    /// Creates a debouncer that reads time from `clock`.
    ///
    /// - Parameters:
    ///   - clock: The clock deadlines are measured on (a `ManualClock` in tests).
    ///   - decide: Called once for every value sent, on the sender's thread, to decide its fate.
    ///   - output: Receives the delivered values in order, never concurrently.
    public init(
        clock: C,
        decide: @escaping @Sendable (Value) -> DebounceDecision<C.Duration>,
        output: @escaping @Sendable (Value) async -> Void
    ) {
        self.decide = decide
        self.driver = ClockedDriver(machine: ConditionalDebounceMachine(), clock: clock, output: output)
        super.init(controls: driver)
    }

    /// Sends a value; `decide` says what happens to it. A value that was due before this one is
    /// delivered first.
    @inlinable
    public func send(_ value: Value) {
        let decision = decide(value)
        driver.update { machine, now in machine.send(value, decision, at: now) }
    }
}

extension ConditionalDebouncer where C == ContinuousClock {
    /// Creates a debouncer on the `ContinuousClock`.
    ///
    /// - Parameters:
    ///   - decide: Called once for every value sent, on the sender's thread, to decide its fate.
    ///   - output: Receives the delivered values in order, never concurrently.
    public convenience init(
        decide: @escaping @Sendable (Value) -> DebounceDecision<Duration>,
        output: @escaping @Sendable (Value) async -> Void
    ) {
        self.init(clock: ContinuousClock(), decide: decide, output: output)
    }
}
