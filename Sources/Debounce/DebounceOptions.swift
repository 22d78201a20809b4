/// Which edges of a burst a ``Debouncer`` delivers, and how long a value may wait at most.
///
/// A *burst* is a run of values each arriving less than the interval after the previous one; it
/// ends one interval after its last value.
public struct DebounceOptions<Duration: DurationProtocol>: Sendable, Equatable {
    /// Deliver the first value of a burst at once.
    public var leading: Bool
    /// Deliver the latest value when the burst ends (unless it was the leading value itself).
    public var trailing: Bool
    /// The longest a burst may go without a delivery. With `trailing`, a pending value is delivered at
    /// the latest `maxWait` after the first value that arrived since the last delivery; with only
    /// `leading`, the first value arriving `maxWait` or more after the last delivery is delivered at
    /// once. `nil`: no limit, a burst that never pauses delivers nothing until it ends.
    public var maxWait: Duration?

    /// Creates options; the default is a classic trailing debounce.
    ///
    /// - Precondition: `leading` or `trailing` (or both); `maxWait`, if given, is greater than zero.
    public init(leading: Bool = false, trailing: Bool = true, maxWait: Duration? = nil) {
        precondition(leading || trailing, "a debouncer that delivers neither edge delivers nothing")
        if let maxWait { precondition(maxWait > .zero, "maxWait must be greater than zero, got \(maxWait)") }
        self.leading = leading
        self.trailing = trailing
        self.maxWait = maxWait
    }

    /// Trailing edge only: the latest value once the input has been quiet for the interval.
    public static var trailing: Self { Self() }
    /// Leading edge only: the first value of each burst, at once.
    public static var leading: Self { Self(leading: true, trailing: false) }
    /// Both edges: the first value at once and, if more followed, the latest when the burst ends.
    public static var leadingAndTrailing: Self { Self(leading: true, trailing: true) }
}
