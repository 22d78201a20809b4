/// The time between frames as a fraction of a second, as V4L2 states it (`1/30`).
public struct FrameInterval: Sendable, Hashable, CustomStringConvertible {
    /// Seconds, numerator.
    public var numerator: Int
    /// Seconds, denominator.
    public var denominator: Int

    /// Makes `numerator/denominator` seconds.
    public init(numerator: Int, denominator: Int) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// The interval of `framesPerSecond` frames each second.
    public init(framesPerSecond: Int) {
        self.init(numerator: 1, denominator: framesPerSecond)
    }

    /// Frames per second, or `nil` for a zero numerator.
    public var framesPerSecond: Double? {
        numerator > 0 ? Double(denominator) / Double(numerator) : nil
    }

    /// The interval as a duration, or `nil` for a zero denominator.
    public var duration: Duration? {
        denominator > 0 ? .nanoseconds(Int64(numerator) * 1_000_000_000 / Int64(denominator)) : nil
    }

    public var description: String { "\(numerator)/\(denominator)" }
}
