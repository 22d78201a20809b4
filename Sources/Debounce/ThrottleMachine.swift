/// The pure state machine behind ``Throttler``: no tasks, no clock reads; time is an argument.
///
/// A value arriving while no window is open opens one, `interval` long, and is delivered at once if
/// `leading`. Values arriving inside the window are kept as the trailing candidate (the latest or the
/// first, per `latest`). When the window ends with a candidate and `trailing`, the candidate is
/// delivered and a new window opens at that instant, so deliveries are at least `interval` apart.
/// A window that ends without a candidate closes.
///
/// Call ``advance(to:)`` before ``send(_:at:)`` with the same instant.
public struct ThrottleMachine<Value, Instant: InstantProtocol> {
    /// The window length.
    public let interval: Instant.Duration
    /// The edges to deliver and which value the trailing edge keeps.
    public let options: ThrottleOptions

    @usableFromInline var windowEnd: Instant?
    /// The value the trailing edge will deliver.
    @usableFromInline var pendingValue: Value?

    /// The value waiting to be delivered, if any.
    @inlinable public var pending: Value? { pendingValue }

    /// Creates a machine with no window open.
    ///
    /// - Precondition: `interval` is greater than zero.
    @inlinable public init(interval: Instant.Duration, options: ThrottleOptions = ThrottleOptions()) {
        precondition(interval > .zero, "the throttle interval must be greater than zero, got \(interval)")
        self.interval = interval
        self.options = options
    }

    /// The end of the current window when a trailing value waits for it; `nil` otherwise.
    @inlinable public var deadline: Instant? {
        pendingValue == nil ? nil : windowEnd
    }

    /// Receives a value.
    ///
    /// - Returns: The value to deliver now (the leading edge of a new window), if any.
    /// - Precondition: No trailing value is overdue at `now` (call ``advance(to:)`` first).
    @inlinable public mutating func send(_ value: Value, at now: Instant) -> Value? {
        if let deadline { precondition(now < deadline, "send(at: \(now)) while a value was due at \(deadline): call advance(to:) first") }
        if let windowEnd, now < windowEnd {
            if options.trailing, options.latest || pendingValue == nil { pendingValue = value }
            return nil
        }
        windowEnd = now.advanced(by: interval)
        if options.leading { return value }
        pendingValue = value
        return nil
    }

    /// Delivers the trailing value if its window has ended, opening the next window.
    @inlinable public mutating func advance(to now: Instant) -> Value? {
        guard let windowEnd, windowEnd <= now else { return nil }
        guard let value = pendingValue else {
            self.windowEnd = nil
            return nil
        }
        pendingValue = nil
        self.windowEnd = now.advanced(by: interval)
        return value
    }

    /// Delivers the trailing value now, if any; the window stays as it is.
    @inlinable public mutating func flush() -> Value? {
        defer { pendingValue = nil }
        return pendingValue
    }

    /// Drops the trailing value and closes the window.
    @inlinable public mutating func cancel() {
        pendingValue = nil
        windowEnd = nil
    }
}

extension ThrottleMachine: Sendable where Value: Sendable {}
extension ThrottleMachine: ClockedMachine {}
