/// Which values a ``Throttler`` delivers from each window.
public struct ThrottleOptions: Sendable, Hashable {
    /// Deliver the value that opens a window at once.
    public var leading: Bool
    /// Deliver a value kept from the window when the window ends (by the timer, without waiting for
    /// another value), which opens the next window.
    public var trailing: Bool
    /// Which value the trailing edge keeps: the latest received in the window (`true`) or the first.
    public var latest: Bool

    /// Creates options; the default delivers both edges and keeps the latest value.
    ///
    /// - Precondition: `leading` or `trailing` (or both).
    public init(leading: Bool = true, trailing: Bool = true, latest: Bool = true) {
        precondition(leading || trailing, "a throttler that delivers neither edge delivers nothing")
        self.leading = leading
        self.trailing = trailing
        self.latest = latest
    }
}
