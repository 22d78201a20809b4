/// What ``ConditionalDebouncer``, ``Debouncer`` and ``Throttler`` share once a value is sent: early
/// delivery, cancelling, waiting for deliveries and the timer statistics, all served by the one
/// driver that runs each of their machines.
///
/// Each subclass adds how values are sent and what its machine does with them; the class cannot be
/// subclassed outside this module.
///
/// Releasing the limiter drops what is pending and cancels its timer; values already released for
/// delivery are still delivered.
public class RateLimiter: @unchecked Sendable {
    // `@unchecked` only because a class that is not final cannot be checked: the one stored property
    // is an immutable `Sendable` reference, and every subclass is final and stores only `Sendable`
    // constants.
    private let controls: any DriverControls

    init(controls: any DriverControls) { self.controls = controls }

    deinit { controls.shutdown() }

    /// Delivers the pending value now, if there is one.
    public func flush() { controls.flush() }

    /// Drops the pending value (a throttler also closes its window) and anything released but not
    /// yet handed to `output`. Nothing sent before the call is delivered afterwards, except a value
    /// whose output call had already begun.
    public func cancel() { controls.cancelPending() }

    /// Whether a value is waiting for its deadline.
    public var isPending: Bool { controls.isPending }

    /// Returns once every value released so far has been delivered (its output call has returned).
    public func waitForDeliveries() async { await controls.waitForDeliveries() }

    /// How many timer tasks this limiter has started and how many times they woke up: a measure of
    /// the timer work a stream of values costs.
    public var timerStatistics: TimerStatistics { controls.timerStatistics }
}

/// The driver's operations that do not depend on the machine's value type.
protocol DriverControls: Sendable {
    func flush()
    func cancelPending()
    var isPending: Bool { get }
    func waitForDeliveries() async
    var timerStatistics: TimerStatistics { get }
    func shutdown()
}

extension ClockedDriver: DriverControls where Machine: PendingValueMachine {}
