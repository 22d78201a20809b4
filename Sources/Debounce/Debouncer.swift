/// A classic debouncer: from a burst of values, deliver the last one once the input has been quiet
/// for an interval (and, by option, the first one at once, and never wait longer than `maxWait`).
///
/// ```swift
/// let search = Debouncer<String, ContinuousClock>(interval: .milliseconds(300)) { query in
///     await results.load(query)
/// }
/// search.send(textField.text)   // on every keystroke
/// ```
///
/// Delivery works as in ``ConditionalDebouncer``: in order, never concurrently, one timer task per
/// burst that is re-armed while the burst goes on, no allocation per value in steady traffic.
///
/// Flushing, cancelling, waiting for deliveries and the timer statistics come from ``RateLimiter``.
public final class Debouncer<Value: Sendable, C: Clock>: RateLimiter, @unchecked Sendable where C.Duration == Duration {
    @usableFromInline let driver: ClockedDriver<DebounceMachine<Value, DriverInstant>, C>

    /// Creates a debouncer.
    ///
    /// - Parameters:
    ///   - interval: The quiet time that ends a burst; greater than zero.
    ///   - options: Edges to deliver and the longest wait; trailing only by default.
    ///   - clock: The clock the interval is measured on.
    ///   - output: Receives the delivered values in order, never concurrently.
    public init(
        interval: C.Duration,
        options: DebounceOptions<C.Duration> = .trailing,
        clock: C,
        output: @escaping @Sendable (Value) async -> Void
    ) {
        driver = ClockedDriver(machine: DebounceMachine(interval: interval, options: options), clock: clock, output: output)
        super.init(controls: driver)
    }

    /// Sends a value.
    @inlinable
    public func send(_ value: Value) { driver.send(value) }
}

extension Debouncer where C == ContinuousClock {
    /// Creates a debouncer on the `ContinuousClock`.
    ///
    /// - Parameters:
    ///   - interval: The quiet time that ends a burst; greater than zero.
    ///   - options: Edges to deliver and the longest wait; trailing only by default.
    ///   - output: Receives the delivered values in order, never concurrently.
    public convenience init(
        interval: Duration,
        options: DebounceOptions<Duration> = .trailing,
        output: @escaping @Sendable (Value) async -> Void
    ) {
        self.init(interval: interval, options: options, clock: ContinuousClock(), output: output)
    }
}
