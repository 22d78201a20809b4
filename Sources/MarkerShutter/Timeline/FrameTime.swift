/// When a frame was captured: a duration since some origin, the kernel's monotonic clock for a live
/// camera or the start of a recording for a frame folder.
///
/// The shutter's debouncer runs on these instants and never on a wall clock, so replaying a
/// recording with its timestamps reproduces the timeline the live tool showed.
public struct FrameTime: InstantProtocol, Sendable, CustomStringConvertible {
    /// Time since the origin.
    public var offset: Duration

    /// The instant `offset` after the origin.
    public init(_ offset: Duration) { self.offset = offset }

    /// An instant in seconds since the origin, as written in `manifest.jsonl` (microsecond
    /// resolution is kept exactly).
    public init(seconds: Double) {
        self.init(.nanoseconds(Int64((seconds * 1e9).rounded())))
    }

    /// Seconds since the origin.
    public var seconds: Double { offset.inSeconds }

    public func advanced(by duration: Duration) -> FrameTime { FrameTime(offset + duration) }
    public func duration(to other: FrameTime) -> Duration { other.offset - offset }
    public static func < (lhs: FrameTime, rhs: FrameTime) -> Bool { lhs.offset < rhs.offset }
    /// The instant `rhs` after `lhs`.
    public static func + (lhs: FrameTime, rhs: Duration) -> FrameTime { lhs.advanced(by: rhs) }

    public var description: String { "\(seconds)s" }
}

extension Duration {
    /// The duration in seconds, as a `Double` (for rates, reports and JSON).
    package var inSeconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

extension FrameTime {
    /// The instant in whole nanoseconds since the origin (how shard files keep it exactly).
    package var nanoseconds: Int64 {
        let (seconds, attoseconds) = offset.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
