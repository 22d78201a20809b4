/// The clock a live session tells time by when no frame comes (a camera that stalled): any `Clock`
/// measured in `Duration`, read as the time since the session clock was made.
///
/// ```swift
/// let clock = SessionClock.continuous            // the real one
/// let manual = SessionClock(ManualClock())       // tests advance it themselves
/// ```
public struct SessionClock: Sendable {
    /// The time since the clock was made.
    public let now: @Sendable () -> Duration
    /// Suspends until `now()` reaches the given time; throws when the task is cancelled.
    public let sleep: @Sendable (_ until: Duration) async throws -> Void

    /// Wraps `clock`, counting from its `now`.
    public init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let origin = clock.now
        now = { origin.duration(to: clock.now) }
        sleep = { try await clock.sleep(until: origin.advanced(by: $0), tolerance: nil) }
    }

    /// The continuous clock (it keeps counting while the machine sleeps).
    public static var continuous: SessionClock { SessionClock(ContinuousClock()) }
}
