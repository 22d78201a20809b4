#if canImport(Glibc)
import Glibc
#endif

/// A point in time as a driver sees it: attoseconds since the driver was created.
///
/// The machines of the live debouncers run on this plain value instead of the clock's own instant
/// type. A library clock's instant (`ContinuousClock.Instant`) is resilient: every copy, optional
/// check and comparison of it is a call through its value witnesses (measured here at about 90
/// instructions to advance one and 60 to compare two), which would dominate the cost of `send`.
/// Comparing or advancing a `DriverInstant` is a handful of integer instructions.
@usableFromInline
struct DriverInstant: InstantProtocol, Sendable {
    @usableFromInline typealias Duration = Swift.Duration

    @usableFromInline var attoseconds: Int128

    @inlinable init(attoseconds: Int128) { self.attoseconds = attoseconds }

    @inlinable func advanced(by duration: Duration) -> DriverInstant {
        DriverInstant(attoseconds: attoseconds + duration.attoseconds)
    }

    @inlinable func duration(to other: DriverInstant) -> Duration {
        Duration(attoseconds: other.attoseconds - attoseconds)
    }

    @inlinable static func < (lhs: DriverInstant, rhs: DriverInstant) -> Bool { lhs.attoseconds < rhs.attoseconds }
    @inlinable static func <= (lhs: DriverInstant, rhs: DriverInstant) -> Bool { lhs.attoseconds <= rhs.attoseconds }
    @inlinable static func == (lhs: DriverInstant, rhs: DriverInstant) -> Bool { lhs.attoseconds == rhs.attoseconds }
    @inlinable func hash(into hasher: inout Hasher) { hasher.combine(attoseconds) }
}

/// Reads a clock as ``DriverInstant``s and turns them back into the clock's instants for sleeping.
///
/// For `ContinuousClock` on Linux it reads `CLOCK_BOOTTIME` directly, the source the Swift runtime
/// itself uses for that clock, which costs a fraction of `ContinuousClock.now`. Any other clock is
/// read through `now` and measured from an instant taken at creation.
@usableFromInline
struct TimeBase<C: Clock>: Sendable where C.Duration == Duration {
    /// How `now` is read. Stored first and apart from the clock's (resilient) instant, so reading it
    /// needs no runtime layout lookup.
    @usableFromInline let rawOrigin: Int64?
    @usableFromInline let origin: ClockOrigin<C>

    init(clock: C) {
        #if os(Linux)
        if C.self == ContinuousClock.self {
            // Raw reading first, then the clock's: mapped instants then land a few nanoseconds
            // after the raw ones, so a timer never wakes before its deadline.
            rawOrigin = bootTimeNanoseconds()
            origin = ClockOrigin(clock: clock)
            return
        }
        #endif
        rawOrigin = nil
        origin = ClockOrigin(clock: clock)
    }

    /// The current time.
    @inlinable
    var now: DriverInstant {
        if let rawOrigin {
            return DriverInstant(attoseconds: Int128(bootTimeNanoseconds() &- rawOrigin) &* 1_000_000_000)
        }
        return origin.now
    }

    /// The clock to sleep on.
    @usableFromInline var clock: C { origin.clock }

    /// The clock's instant for a driver instant, to sleep until.
    @usableFromInline
    func clockInstant(_ instant: DriverInstant) -> C.Instant {
        origin.instant.advanced(by: Duration(attoseconds: instant.attoseconds))
    }
}

/// A clock and the instant a driver was created at on it.
@usableFromInline
struct ClockOrigin<C: Clock>: Sendable where C.Duration == Duration {
    @usableFromInline let clock: C
    @usableFromInline let instant: C.Instant

    init(clock: C) {
        self.clock = clock
        instant = clock.now
    }

    /// The time since creation, read through the clock.
    @usableFromInline
    var now: DriverInstant {
        DriverInstant(attoseconds: instant.duration(to: clock.now).attoseconds)
    }
}

/// `CLOCK_BOOTTIME` in nanoseconds: the time base of `ContinuousClock` on Linux.
@usableFromInline
func bootTimeNanoseconds() -> Int64 {
    #if os(Linux)
    var time = timespec()
    clock_gettime(CLOCK_BOOTTIME, &time)
    return Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
    #else
    preconditionFailure("CLOCK_BOOTTIME is read on Linux only")
    #endif
}
