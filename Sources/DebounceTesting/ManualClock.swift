import Debounce

/// A clock that only moves when a test moves it.
///
/// Code under test sleeps on it like on any `Clock`; the test advances time by hand and sleepers
/// whose deadline is reached wake up, in deadline order. Nothing waits on the wall clock, so timer
/// tests are exact and fast.
///
/// ```swift
/// let clock = ManualClock()
/// let debouncer = Debouncer<String, ManualClock>(interval: .seconds(2), clock: clock) { print($0) }
/// debouncer.send("a")
/// await clock.waitForSleepers(count: 1)      // the debouncer's timer is now asleep
/// #expect(clock.sleeperDeadlines == [.zero + .seconds(2)])
/// clock.advance(by: .seconds(2))             // wakes it: "a" is delivered
/// ```
public final class ManualClock: Clock, Sendable {
    /// A point on a ``ManualClock``: a duration since the clock's zero.
    public struct Instant: InstantProtocol, CustomStringConvertible {
        /// Time since the clock's zero.
        public var offset: Duration

        /// The instant `offset` after zero.
        public init(offset: Duration) { self.offset = offset }

        /// The clock's starting point.
        public static var zero: Instant { Instant(offset: .zero) }

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
        public static func + (lhs: Instant, rhs: Duration) -> Instant { lhs.advanced(by: rhs) }

        public var description: String { "t+\(offset)" }
    }

    private struct Sleeper {
        let id: UInt64
        let deadline: Instant
        let continuation: UnsafeContinuation<Void, any Error>
    }

    private struct Watcher {
        let count: Int
        let continuation: UnsafeContinuation<Void, Never>
    }

    private struct State {
        var now: Instant
        var sleepers: [Sleeper] = []
        var watchers: [Watcher] = []
        var nextID: UInt64 = 0
        var cancelledEarly: Set<UInt64> = []

        /// Removes the watchers whose wait is over.
        mutating func satisfiedWatchers() -> [UnsafeContinuation<Void, Never>] {
            var ready: [UnsafeContinuation<Void, Never>] = []
            watchers.removeAll { watcher in
                guard watcher.count == sleepers.count else { return false }
                ready.append(watcher.continuation)
                return true
            }
            return ready
        }
    }

    private let state: Locked<State>

    /// Creates a clock that reads `now` until advanced.
    public init(now: Instant = .zero) {
        state = Locked(State(now: now))
    }

    /// The current instant: where the last advance left the clock.
    public var now: Instant { state.withLock { $0.now } }

    /// Always zero: a manual clock is exact.
    public var minimumResolution: Duration { .zero }

    /// The deadlines of the tasks sleeping on this clock now, earliest first.
    public var sleeperDeadlines: [Instant] {
        state.withLock { $0.sleepers.map(\.deadline).sorted() }
    }

    /// Suspends until the clock reaches `deadline` (at once if it already has).
    ///
    /// - Throws: `CancellationError` when the sleeping task is cancelled.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let id = state.withLock { s -> UInt64 in
            s.nextID += 1
            return s.nextID
        }
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
                enum Outcome { case wakeNow, cancelled, asleep([UnsafeContinuation<Void, Never>]) }
                let outcome = state.withLock { s -> Outcome in
                    if s.cancelledEarly.remove(id) != nil { return .cancelled }
                    if deadline <= s.now { return .wakeNow }
                    s.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return .asleep(s.satisfiedWatchers())
                }
                switch outcome {
                case .wakeNow: continuation.resume()
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .asleep(let watchers): for watcher in watchers { watcher.resume() }
                }
            }
        } onCancel: {
            let (sleeper, watchers) = state.withLock { s -> (Sleeper?, [UnsafeContinuation<Void, Never>]) in
                guard let index = s.sleepers.firstIndex(where: { $0.id == id }) else {
                    s.cancelledEarly.insert(id)  // not asleep yet: refuse when it tries
                    return (nil, [])
                }
                let sleeper = s.sleepers.remove(at: index)
                return (sleeper, s.satisfiedWatchers())
            }
            sleeper?.continuation.resume(throwing: CancellationError())
            for watcher in watchers { watcher.resume() }
        }
    }

    /// Moves the clock forward to `instant` and wakes every sleeper whose deadline is reached, in
    /// deadline order (ties in the order they fell asleep).
    ///
    /// - Precondition: `instant` is not before ``now``.
    public func advance(to instant: Instant) {
        let (due, watchers) = state.withLock { s -> ([Sleeper], [UnsafeContinuation<Void, Never>]) in
            precondition(instant >= s.now, "ManualClock cannot go back from \(s.now) to \(instant)")
            s.now = instant
            let due = s.sleepers.filter { $0.deadline <= instant }
                .sorted { ($0.deadline, $0.id) < ($1.deadline, $1.id) }
            s.sleepers.removeAll { $0.deadline <= instant }
            return (due, due.isEmpty ? [] : s.satisfiedWatchers())
        }
        for sleeper in due { sleeper.continuation.resume() }
        for watcher in watchers { watcher.resume() }
    }

    /// Moves the clock forward by `duration`; see ``advance(to:)``.
    public func advance(by duration: Duration) {
        advance(to: now.advanced(by: duration))
    }

    /// Moves the clock to the earliest sleeper's deadline and wakes it.
    ///
    /// - Returns: The instant the clock moved to, or `nil` when nobody sleeps.
    @discardableResult
    public func advanceToNextDeadline() -> Instant? {
        guard let next = sleeperDeadlines.first else { return nil }
        advance(to: max(next, now))
        return next
    }

    /// Suspends until exactly `count` tasks are sleeping on this clock: the way a test waits until
    /// the code under test has armed (or dropped) its timers before advancing time.
    public func waitForSleepers(count: Int) async {
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
            let ready = state.withLock { s -> Bool in
                if s.sleepers.count == count { return true }
                s.watchers.append(Watcher(count: count, continuation: continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }
}
