/// The timer work a debouncer, throttler or queue has done so far.
public struct TimerStatistics: Sendable, Hashable, CustomStringConvertible {
    /// Timer tasks started. A pending run starts at most one.
    public var tasksStarted: Int
    /// Times a timer task woke from its sleep.
    public var wakeups: Int

    /// Creates statistics from counts.
    public init(tasksStarted: Int, wakeups: Int) {
        self.tasksStarted = tasksStarted
        self.wakeups = wakeups
    }

    public var description: String { "\(tasksStarted) timer task(s), \(wakeups) wake-up(s)" }
}
