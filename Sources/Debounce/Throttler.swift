/// Delivers at most one value per interval: the first of a window at once, and the latest (or first)
/// of the rest when the window ends, delivered by a timer rather than by the next value.
///
/// ```swift
/// // A focus motor must not be flooded with every intermediate slider value.
/// let focus = Throttler<Int, ContinuousClock>(interval: .milliseconds(100)) { position in
///     try? await camera.setFocus(position)
/// }
/// slider.onChange { focus.send($0) }
/// ```
///
/// Delivery works as in ``ConditionalDebouncer``: in order, never concurrently, no allocation per
/// value in steady traffic.
///
/// Flushing, cancelling, waiting for deliveries and the timer statistics come from ``RateLimiter``.
public final class Throttler<Value: Sendable, C: Clock>: RateLimiter, @unchecked Sendable where C.Duration == Duration {
    @usableFromInline let driver: ClockedDriver<ThrottleMachine<Value, DriverInstant>, C>

    /// Creates a throttler.
    ///
    /// - Parameters:
    ///   - interval: The window length; greater than zero.
    ///   - options: Edges to deliver and which value the trailing edge keeps; both edges and the
    ///     latest value by default.
    ///   - clock: The clock windows are measured on.
    ///   - output: Receives the delivered values in order, never concurrently.
    public init(
        interval: C.Duration,
        options: ThrottleOptions = ThrottleOptions(),
        clock: C,
        output: @escaping @Sendable (Value) async -> Void
    ) {
        driver = ClockedDriver(machine: ThrottleMachine(interval: interval, options: options), clock: clock, output: output)
        super.init(controls: driver)
    }

    /// Sends a value.
    @inlinable
    public func send(_ value: Value) { driver.send(value) }
}

extension Throttler where C == ContinuousClock {
    /// Creates a throttler on the `ContinuousClock`.
    ///
    /// - Parameters:
    ///   - interval: The window length; greater than zero.
    ///   - options: Edges to deliver and which value the trailing edge keeps.
    ///   - output: Receives the delivered values in order, never concurrently.
    public convenience init(
        interval: Duration,
        options: ThrottleOptions = ThrottleOptions(),
        output: @escaping @Sendable (Value) async -> Void
    ) {
        self.init(interval: interval, options: options, clock: ContinuousClock(), output: output)
    }
}
