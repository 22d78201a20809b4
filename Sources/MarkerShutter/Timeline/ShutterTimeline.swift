import Debounce

/// The shutter's state over a stream of frames, driven by the frames' own timestamps.
///
/// Each frame is observed once, in order, with whether its detection is valid. Valid frames enable
/// the shutter at once and become the held frame; an invalid frame starts (or continues) a hold
/// that keeps the last valid frame for `hold`, measured from the first invalid frame, after which
/// the shutter is disabled. This is a ``ConditionalDebounceMachine`` with `.now` for valid frames
/// and `.hold(hold)` for invalid ones, so live capture and offline replay share one definition.
///
/// A deadline that falls exactly on a frame's timestamp is reached before that frame is observed:
/// with a 0.3 s hold at 30 fps, nine invalid frames in a row disable the shutter when the tenth
/// frame arrives, whatever it shows.
///
/// The hold is a matter of time, not only of frames: ``advance(to:)`` moves time on without a
/// frame (a live session calls it when a camera stalls), and ``expiry`` says when that disables
/// the shutter.
package struct ShutterTimeline<Snapshot: Sendable>: Sendable {
    struct Observed: Sendable {
        let index: Int
        let snapshot: Snapshot
        let isValid: Bool
    }

    /// How long a lost detection is held.
    package let hold: Duration
    /// The state after the last observation.
    package private(set) var state: ShutterState<Snapshot> = .disabled
    /// The stretches during which the shutter was enabled, in order; the last may still be open.
    package private(set) var stretches: [EnabledStretch] = []

    private var machine = ConditionalDebounceMachine<Observed, FrameTime>()
    private var last: FrameTime?

    /// Creates a timeline with the shutter disabled.
    ///
    /// - Parameter hold: How long a lost detection is held; zero or more.
    package init(hold: Duration = .milliseconds(300)) {
        precondition(hold >= .zero, "the hold time cannot be negative, got \(hold)")
        self.hold = hold
    }

    /// Observes one frame.
    ///
    /// - Parameters:
    ///   - index: The frame's index in the stream.
    ///   - snapshot: What to keep if the frame is valid (its detection and pixels).
    ///   - isValid: Whether the frame's detection may enable the shutter.
    ///   - time: The frame's timestamp; not before the previous frame's.
    /// - Returns: The state after this frame, what this frame shows, and whether the state changed.
    /// - Precondition: `time` does not go back (callers check recorded timestamps first).
    package mutating func observe(index: Int, snapshot: Snapshot, isValid: Bool, at time: FrameTime) -> ShutterStep<Snapshot> {
        if let last { precondition(time >= last, "frame \(index) at \(time) comes before the previous frame at \(last)") }
        last = time
        let before = state
        deliverDue(at: time)
        let observed = Observed(index: index, snapshot: snapshot, isValid: isValid)
        if let delivered = machine.send(observed, isValid ? .now : .hold(hold), at: time) {
            apply(delivered, at: time)
        }
        if state.isEnabled, let since = machine.pendingSince {
            state.phase = .held(since: since)
        }
        if state.isEnabled { extendStretch(to: index, at: time) }
        return ShutterStep(state: state, changed: !state.isSame(as: before))
    }

    /// When the shutter is disabled if no frame arrives: the hold's deadline while held, the last
    /// frame's time plus the hold while enabled (frames that stop count as detection lost after the
    /// last one), `nil` while disabled.
    package var expiry: FrameTime? {
        guard state.isEnabled else { return nil }
        return machine.deadline ?? last.map { $0 + hold }
    }

    /// Moves time on without a frame (a camera that stalled, or the end of a recording): a hold whose
    /// deadline has passed disables the shutter at its deadline, and so does an enabled shutter that
    /// has seen no frame for the hold time since its last one (at that frame's time plus the hold).
    ///
    /// - Parameter time: Now, on the frames' clock; not before the last frame observed.
    /// - Returns: Whether the state changed.
    @discardableResult
    package mutating func advance(to time: FrameTime) -> Bool {
        let before = state
        deliverDue(at: time)
        if state.phase == .enabled, let expiry, expiry <= time {
            state = .disabled
            closeStretch(at: expiry)
        }
        return !state.isSame(as: before)
    }

    /// Delivers the held value whose deadline has passed by `time`, if any.
    private mutating func deliverDue(at time: FrameTime) {
        if let deadline = machine.deadline, let delivered = machine.advance(to: time) {
            apply(delivered, at: deadline)
        }
    }

    private mutating func apply(_ delivered: Observed, at time: FrameTime) {
        if delivered.isValid {
            if !state.isEnabled {
                stretches.append(EnabledStretch(firstFrame: delivered.index, lastFrame: delivered.index, start: time, end: nil))
            }
            state = ShutterState(phase: .enabled, held: (delivered.index, delivered.snapshot))
        } else {
            state = .disabled
            closeStretch(at: time)
        }
    }

    private mutating func closeStretch(at time: FrameTime) {
        if let open = stretches.indices.last, stretches[open].end == nil { stretches[open].end = time }
    }

    private mutating func extendStretch(to index: Int, at time: FrameTime) {
        guard let open = stretches.indices.last else { return }
        stretches[open].lastFrame = index
        stretches[open].lastSeen = time
    }
}

/// One frame's effect on the shutter.
public struct ShutterStep<Snapshot: Sendable>: Sendable {
    /// The state after the frame.
    public let state: ShutterState<Snapshot>
    /// Whether the state differs from the one before the frame (phase or held frame).
    public let changed: Bool
}

/// A stretch of frames during which the shutter was enabled (or holding).
public struct EnabledStretch: Sendable, Hashable, CustomStringConvertible {
    /// The first frame of the stretch (a valid one).
    public var firstFrame: Int
    /// The last frame observed while enabled or holding.
    public var lastFrame: Int
    /// When the shutter was enabled.
    public var start: FrameTime
    /// When it was disabled (the end of the hold), or `nil` while still enabled.
    public var end: FrameTime?
    /// The last frame time seen while enabled, for a stretch still open at the end.
    var lastSeen: FrameTime?

    init(firstFrame: Int, lastFrame: Int, start: FrameTime, end: FrameTime?) {
        self.firstFrame = firstFrame
        self.lastFrame = lastFrame
        self.start = start
        self.end = end
        self.lastSeen = start
    }

    /// How long the shutter was enabled: until it was disabled, or until the last frame seen.
    public var duration: Duration { start.duration(to: end ?? lastSeen ?? start) }

    public var description: String { "frames \(firstFrame)...\(lastFrame)" }
}
