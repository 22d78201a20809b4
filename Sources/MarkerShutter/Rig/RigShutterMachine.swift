import FileFormats
import MarkerDetection

/// The rig shutter: several cameras, one shutter for the set, with no thread, lock, task or clock.
///
/// Each camera keeps its own shutter, the conditional debounce with the 0.3 s hold the single-camera
/// shutter has (a ``ShutterTimeline`` per camera, fed by that camera's frames alone). The rig is
/// enabled while
/// 1. each required camera (``RigRequirement``: all, or a number from 2 up) delivers frames (none
///    stalled, none lost) and has a valid or held detection;
/// 2. a set of valid frames, one per camera, lies within ``Configuration/syncTolerance`` of one
///    instant: the largest difference between the kernel timestamps of the set's frames is at most
///    the tolerance;
/// 3. the board moves less than ``Configuration/maxMotion`` pixels per frame in each frame of that
///    set (measured from the corners the frame shares with its camera's previous frame), unless the
///    limit is off.
///
/// Otherwise it is disabled, with a ``RigRefusal`` that says why in the words a refused capture uses
/// (`left does not see the board`, `frames 21 ms apart`, `board moving 3.4 px/frame in right`).
///
/// Time comes in as an argument: the frames' kernel timestamps, and ``advance(to:)`` when no frame
/// comes. "Now" is the newest time seen. A camera that delivered no frame for longer than
/// ``Configuration/stallIntervals`` of its frame intervals is stalled: it stops counting at once
/// (its held detection with it, though its hold has not run out), and the rig is disabled at that
/// instant when the requirement cannot be met without it. Its own frames, when they come again,
/// bring it back. A camera whose frame arrives saying frames were lost before it (dropped by the
/// camera or the driver, or by a capture that fell behind) stops counting likewise at that arrival,
/// until a frame of it arrives with none lost before it.
///
/// ```swift
/// var rig = RigShutterMachine(configuration: try .init(cameras: [left, right]))
/// let step = rig.observe(RigFrame(camera: 0, index: 0, time: t, isValid: true, motion: .corners(corners)))
/// if step.state.isEnabled { ... }             // step.state.set: the frames a capture takes
/// _ = rig.advance(to: later)                  // no frame came by `rig.nextDeadline`
/// ```
package struct RigShutterMachine: Sendable {
    /// The rig: its cameras and its rules.
    package struct Configuration: Sendable {
        /// How the motion limit is chosen (`--max-motion`).
        package enum MotionLimit: Sendable, Hashable {
            /// The default, from the tolerance (see ``defaultMaxMotion(cameras:syncTolerance:)``).
            case automatic
            /// At most this many pixels per frame.
            case pixelsPerFrame(Double)
            /// No limit: the rig is triggered in hardware and its frames are simultaneous.
            case off
        }

        /// The cameras, in the rig's order.
        package let cameras: [RigCamera]
        /// Which cameras must see the board.
        package let require: RigRequirement
        /// The largest time difference between the frames of a set.
        package let syncTolerance: Duration
        /// The most the board may move in a frame of a set, in pixels per frame; `nil` when off.
        package let maxMotion: Double?
        /// How long each camera holds a lost detection.
        package let hold: Duration
        /// A camera with no frame for longer than this many of its frame intervals is stalled.
        package let stallIntervals: Int
        /// The shortest stall limit, whatever the frame interval: for a camera alone, its hold and a
        /// little more, so that a camera whose frames stop is held for its hold first, as a hold is
        /// a matter of time.
        package let stallFloor: Duration

        /// The most cameras a rig may have.
        package static let cameraCounts: ClosedRange<Int> = CamerasFile.cameraCounts

        /// The largest error, in pixels, that the time difference within a set may cause: a quarter
        /// of a pixel, about the noise of a sub-pixel corner, so that a set's timing adds little to
        /// what detection leaves anyway.
        package static let motionErrorBudget = 0.25

        /// The default sync tolerance: half the longest frame interval of the rig. Two free-running
        /// cameras at the same rate always have frames within half an interval of each other; at
        /// different rates, the sets whose frames come that close.
        package static func defaultSyncTolerance(cameras: [RigCamera]) -> Duration {
            (cameras.map(\.frameInterval).max() ?? .zero) / 2
        }

        /// The default motion limit. A board moving `m` pixels per frame in a camera whose frames
        /// come every `T` moves `m x dt / T` pixels in the time difference `dt` between that camera's
        /// frame and the others'. With `dt` at most the tolerance, that error stays under
        /// ``motionErrorBudget`` when `m < budget x T / tolerance`; the shortest `T` of the rig is
        /// the strictest. With the default tolerance (half the frame interval) at one rate, that is
        /// 0.5 px/frame; at 30 and 25 fps (tolerance 20 ms), 0.42 px/frame.
        package static func defaultMaxMotion(cameras: [RigCamera], syncTolerance: Duration) -> Double {
            guard syncTolerance > .zero, let shortest = cameras.map(\.frameInterval).min() else { return .infinity }
            return motionErrorBudget * shortest.inSeconds / syncTolerance.inSeconds
        }

        /// One camera alone, a rig of one: no other camera to be in time with and no motion limit,
        /// so that the shutter is the camera's own (enabled while it holds a valid detection), but
        /// for its stall.
        ///
        /// - Parameters:
        ///   - camera: The camera.
        ///   - hold: How long it holds a lost detection.
        ///   - stallIntervals: How many frame intervals without a frame make it stalled.
        package static func single(_ camera: RigCamera, hold: Duration = .milliseconds(300), stallIntervals: Int = 5) -> Configuration {
            Configuration(cameras: [camera], require: .all, syncTolerance: .zero, maxMotion: nil, hold: hold,
                          stallIntervals: max(1, stallIntervals), stallFloor: hold + stallMargin)
        }

        /// How much longer than its hold a camera goes without a frame before it is stalled (a
        /// camera alone; a rig's when `live` or `process` makes it): its hold runs out first, by the clock.
        package static let stallMargin: Duration = .milliseconds(100)

        private init(cameras: [RigCamera], require: RigRequirement, syncTolerance: Duration, maxMotion: Double?, hold: Duration,
                     stallIntervals: Int, stallFloor: Duration) {
            self.cameras = cameras
            self.require = require
            self.syncTolerance = syncTolerance
            self.maxMotion = maxMotion
            self.hold = hold
            self.stallIntervals = stallIntervals
            self.stallFloor = stallFloor
        }

        /// Makes a rig's configuration.
        ///
        /// - Parameters:
        ///   - cameras: 2 to 8 cameras with distinct names.
        ///   - require: `.all` (the default) or `.atLeast(n)` with `n` from 2 to the number of cameras.
        ///   - syncTolerance: The largest time difference in a set; `nil` for the default.
        ///   - maxMotion: The motion limit; the default by default.
        ///   - hold: How long each camera holds a lost detection (0.3 s).
        ///   - stallIntervals: How many frame intervals without a frame make a camera stalled, 1 or
        ///     more: 5 by default, long enough that a busy machine's delays in delivering frames (up
        ///     to 3.6 intervals seen on 2 cores with three cameras) are not taken for a stall.
        ///   - minimumStall: The shortest stall limit whatever the frame interval (`live` and
        ///     `process` give the hold and 0.1 s: a camera whose frames stop is held first, and a
        ///     machine too busy to deliver frames at once is not taken for a camera that stalled).
        /// - Throws: ``RigConfigurationError`` naming what is wrong.
        package init(cameras: [RigCamera], require: RigRequirement = .all, syncTolerance: Duration? = nil,
                    maxMotion: MotionLimit = .automatic, hold: Duration = .milliseconds(300), stallIntervals: Int = 5,
                    minimumStall: Duration = .zero)
            throws(RigConfigurationError)
        {
            guard Self.cameraCounts.contains(cameras.count) else {
                throw RigConfigurationError("a rig has \(Self.cameraCounts.lowerBound) to \(Self.cameraCounts.upperBound) cameras, not \(cameras.count)")
            }
            var seen = Set<String>()
            for camera in cameras where !seen.insert(camera.name).inserted {
                throw RigConfigurationError("two cameras are named \"\(camera.name)\": each camera needs its own name")
            }
            if case .atLeast(let count) = require, !(2...cameras.count).contains(count) {
                throw RigConfigurationError("--require takes all or a number from 2 to \(cameras.count) (the cameras given), not \(count)")
            }
            let tolerance = syncTolerance ?? Self.defaultSyncTolerance(cameras: cameras)
            guard tolerance >= .zero else { throw RigConfigurationError("the sync tolerance cannot be negative") }
            switch maxMotion {
            case .automatic: self.maxMotion = Self.defaultMaxMotion(cameras: cameras, syncTolerance: tolerance)
            case .pixelsPerFrame(let limit):
                guard limit.isFinite, limit > 0 else {
                    throw RigConfigurationError("--max-motion takes a number of pixels per frame more than 0, or off")
                }
                self.maxMotion = limit
            case .off: self.maxMotion = nil
            }
            guard stallIntervals >= 1 else { throw RigConfigurationError("a stall takes at least one frame interval") }
            self.cameras = cameras
            self.require = require
            self.syncTolerance = tolerance
            self.hold = hold
            self.stallIntervals = stallIntervals
            stallFloor = max(.zero, minimumStall)
        }

        /// How long camera `camera` may go without a frame before it is stalled.
        package func stallLimit(of camera: Int) -> Duration { max(cameras[camera].frameInterval * stallIntervals, stallFloor) }
    }

    /// The state after an event, and whether it changed (enabled or not, or the reason).
    package struct Step: Sendable {
        /// The rig after the event.
        package let state: RigState
        /// Whether the rig turned enabled or disabled, or its reason changed (a stall that only
        /// grew longer is no change: it is told once, when it begins).
        package let changed: Bool
        /// After ``observe(_:)``, the observed camera's own shutter after its frame.
        package var shutter: ShutterStep<Int>? = nil
    }

    /// One camera's part of the machine.
    private struct Track: Sendable {
        var timeline: ShutterTimeline<Int>
        /// The newest frame's arrival (stalls are measured from it).
        var lastArrival: FrameTime?
        /// The newest frame observed.
        var lastFrame: FrameTime?
        /// The previous frame's corners and time, for the motion.
        var previousCorners: [Int: ImagePoint]?
        var previousTime: FrameTime?
        /// Valid frames recent enough to be in a set, oldest first.
        var recent: [RigSet.Member] = []
        var lost = false
        var framesOutOfOrder = 0
        /// The frames lost before the newest arrival, when any were.
        var dropped: Int?
    }

    /// The rig's configuration.
    package let configuration: Configuration
    private var tracks: [Track]
    /// The newest time detection has reached (the newest frame observed, or ``advance(to:)``):
    /// holds and sets are judged at it.
    package private(set) var now: FrameTime?
    /// The newest time frames have reached on arrival, before detection (or ``advance(to:)``,
    /// ``advanceArrivals(to:)``): stalls are judged at it, so that detection running behind the
    /// cameras is not taken for a camera that stopped.
    package private(set) var arrivalNow: FrameTime?
    /// The state after the last event.
    package private(set) var state: RigState
    /// Counts the changes of the cameras' recent frames, for ``search``.
    private var recentChanges = 0
    /// The last search for a set, kept while the frames it looked at stay: an arrival or time
    /// moving on changes no camera's frames most of the time, and then needs no search.
    private var search: SetSearch?

    /// Creates a machine with no frame seen: every camera waits for its first, the rig is disabled.
    package init(configuration: Configuration) {
        self.configuration = configuration
        tracks = configuration.cameras.map { _ in Track(timeline: ShutterTimeline(hold: configuration.hold)) }
        state = RigState(set: nil, refusal: .waiting(camera: configuration.cameras[0].name),
                         cameras: configuration.cameras.map { _ in .stalled })
    }

    /// How many cameras a set needs.
    package var requiredCount: Int { configuration.require.count(of: configuration.cameras.count) }

    /// Whether the requirement can still be met: enough cameras are not lost (a stalled camera may
    /// come back; a lost one does not).
    package var canMeetRequirement: Bool {
        let remaining = tracks.filter { !$0.lost }.count
        return configuration.require == .all ? remaining == tracks.count : remaining >= requiredCount
    }

    /// The cameras lost so far, by name.
    package var lostCameras: [String] { tracks.indices.filter { tracks[$0].lost }.map { configuration.cameras[$0].name } }

    /// Camera `camera`'s own shutter: its timeline's state (the held frame by its index).
    package func shutter(of camera: Int) -> ShutterState<Int> { tracks[camera].timeline.state }

    /// Camera `camera`'s own shutter's enabled stretches.
    package func stretches(of camera: Int) -> [EnabledStretch] { tracks[camera].timeline.stretches }

    /// When camera `camera`'s own shutter runs out if no frame of it comes: its hold's end; `nil`
    /// while disabled or lost.
    package func expiry(of camera: Int) -> FrameTime? { tracks[camera].lost ? nil : tracks[camera].timeline.expiry }

    /// When camera `camera` stalls if no frame of it arrives: the first instant past its newest
    /// arrival plus its stall limit; `nil` before its first frame, once lost, or once stalled already.
    package func stallTime(of camera: Int) -> FrameTime? {
        guard !tracks[camera].lost, let last = tracks[camera].lastArrival else { return nil }
        let stall = last + configuration.stallLimit(of: camera) + .nanoseconds(1)
        return arrivalNow.map { stall > $0 } ?? true ? stall : nil
    }

    /// Whether camera `camera` is stalled now: no frame of it arrived for longer than its stall limit.
    package func isStalled(_ camera: Int) -> Bool {
        guard !tracks[camera].lost, tracks[camera].lastArrival != nil else { return false }
        if case .stalled = silence(of: camera) { return true }
        return false
    }

    /// Frames dropped because their timestamp went back on their camera's clock, per camera.
    package var framesOutOfOrder: [Int] { tracks.map(\.framesOutOfOrder) }

    /// When the state may change with no frame coming: the first camera's stall limit or hold
    /// expiry still ahead. A caller with a clock calls ``advance(to:)`` once that time is past.
    package var nextDeadline: FrameTime? {
        var times: [FrameTime] = []
        for (camera, track) in tracks.enumerated() where !track.lost {
            if let last = track.lastArrival {
                let stall = last + configuration.stallLimit(of: camera)
                if arrivalNow.map({ stall >= $0 }) ?? true { times.append(stall) }
            }
            if let expiry = track.timeline.expiry, now.map({ expiry >= $0 }) ?? true { times.append(expiry) }
        }
        return times.min()
    }

    /// The oldest frame time a set may still take: a hold before now, or a camera's held frame if
    /// that is older (a camera whose frames paused holds its last valid frame for the hold after its
    /// first invalid one), less the tolerance for the other cameras' frames beside it. Frames older
    /// than this are let go (a driver that keeps the frames' pixels lets them go with them).
    package var oldestKept: FrameTime? {
        guard let now else { return nil }
        var oldest = FrameTime(now.offset - configuration.hold)
        for track in tracks where !track.lost && track.timeline.state.phase != .disabled {
            if let index = track.timeline.state.held?.index, let held = track.recent.first(where: { $0.index == index }) {
                oldest = min(oldest, held.time)
            }
        }
        return FrameTime(oldest.offset - configuration.syncTolerance)
    }

    // MARK: - Events

    /// A frame of `camera` arrived (before detection): it counts against the camera's stall at once.
    /// With `dropped` frames lost before it, the camera stops counting until a frame of it arrives
    /// with none lost before it.
    ///
    /// - Returns: The rig after it.
    package mutating func arrived(camera: Int, at time: FrameTime, dropped: Int = 0) -> Step {
        guard !tracks[camera].lost else { return Step(state: state, changed: false) }
        note(arrivalOf: camera, at: time)
        // Frames lost matter for being in time with other cameras; a camera alone goes on.
        tracks[camera].dropped = dropped > 0 && tracks.count > 1 ? dropped : nil
        return evaluate()
    }

    /// A camera's frame after detection.
    ///
    /// - Returns: The rig after it. A frame whose timestamp goes back on its camera's clock is
    ///   counted and changes nothing.
    package mutating func observe(_ frame: RigFrame) -> Step {
        let camera = frame.camera
        guard !tracks[camera].lost else { return Step(state: state, changed: false) }  // its last frames, detected late
        if let last = tracks[camera].lastFrame, frame.time < last {
            tracks[camera].framesOutOfOrder += 1
            return Step(state: state, changed: false)
        }
        note(arrivalOf: camera, at: frame.time)
        now = max(now ?? frame.time, frame.time)
        tracks[camera].lastFrame = frame.time
        let motion = measure(frame)
        let shutter = tracks[camera].timeline.observe(index: frame.index, snapshot: frame.index, isValid: frame.isValid, at: frame.time)
        if frame.isValid {
            tracks[camera].recent.append(RigSet.Member(camera: camera, index: frame.index, time: frame.time, motion: motion))
            recentChanges += 1
        }
        var step = evaluate()
        step.shutter = shutter
        return step
    }

    /// Time passed with no frame (on the frames' clock): holds run out, cameras stall.
    ///
    /// - Returns: The rig at `time`.
    package mutating func advance(to time: FrameTime) -> Step {
        now = max(now ?? time, time)
        arrivalNow = max(arrivalNow ?? time, time)
        // Each camera's own shutter runs out with time too (a camera that stopped holds no longer).
        for camera in tracks.indices where !tracks[camera].lost {
            if let last = tracks[camera].lastFrame, time >= last { tracks[camera].timeline.advance(to: time) }
        }
        return evaluate()
    }

    /// Time passed while frames still wait for detection: cameras stall, but holds are judged
    /// only once detection reached that time (those frames decide).
    ///
    /// - Returns: The rig at `time` for arrivals.
    package mutating func advanceArrivals(to time: FrameTime) -> Step {
        arrivalNow = max(arrivalNow ?? time, time)
        return evaluate()
    }

    /// A camera is gone (unplugged, or its capture failed): it stops counting at once, for good
    /// (frames of it detected later change nothing).
    ///
    /// - Returns: The rig after it; see ``canMeetRequirement`` for whether the session can go on.
    package mutating func lose(camera: Int) -> Step {
        tracks[camera].lost = true
        tracks[camera].recent = []
        recentChanges += 1
        return evaluate()
    }

    private mutating func note(arrivalOf camera: Int, at time: FrameTime) {
        tracks[camera].lastArrival = max(tracks[camera].lastArrival ?? time, time)
        arrivalNow = max(arrivalNow ?? time, time)
    }

    /// The motion of the board in `frame`, in pixels per frame, and the corners kept for the next.
    private mutating func measure(_ frame: RigFrame) -> Double? {
        let camera = frame.camera
        defer { tracks[camera].previousTime = frame.time }
        switch frame.motion {
        case .pixelsPerFrame(let motion):
            tracks[camera].previousCorners = nil
            return motion
        case .unknown:
            tracks[camera].previousCorners = nil
            return nil
        case .corners(let corners):
            var points: [Int: ImagePoint] = [:]
            for corner in corners { points[corner.id] = corner.point }
            defer { tracks[camera].previousCorners = points }
            guard let previous = tracks[camera].previousCorners, let before = tracks[camera].previousTime else { return nil }
            let elapsed = before.duration(to: frame.time)
            guard elapsed > .zero else { return nil }
            var total = 0.0
            var shared = 0
            for (id, point) in points {
                guard let earlier = previous[id] else { continue }
                total += point.distance(to: earlier)
                shared += 1
            }
            guard shared > 0 else { return nil }
            let frames = elapsed.inSeconds / configuration.cameras[camera].frameInterval.inSeconds
            return total / Double(shared) / frames
        }
    }

    // MARK: - The rule

    private mutating func evaluate() -> Step {
        let before = state
        state = decide()
        let changed = before.isEnabled != state.isEnabled || before.refusal?.kind != state.refusal?.kind
        return Step(state: state, changed: changed)
    }

    /// Why camera `camera` does not count (lost, stalled, no frame yet, or frames lost before its
    /// newest), or `nil` when it delivers frames.
    private func absence(of camera: Int) -> RigRefusal? {
        if let silence = silence(of: camera) { return silence }
        return tracks[camera].dropped.map { .dropped($0, camera: configuration.cameras[camera].name) }
    }

    /// Whether camera `camera` is lost, stalled or has delivered no frame yet.
    private func silence(of camera: Int) -> RigRefusal? {
        let track = tracks[camera]
        guard let now = arrivalNow else { return .waiting(camera: configuration.cameras[camera].name) }
        let name = configuration.cameras[camera].name
        if track.lost { return .lost(camera: name) }
        guard let last = track.lastArrival else { return .waiting(camera: name) }
        let silence = last.duration(to: now)
        return silence > configuration.stallLimit(of: camera) ? .stalled(camera: name, for: silence) : nil
    }

    private func phase(of camera: Int, at now: FrameTime) -> RigState.CameraPhase {
        if tracks[camera].lost { return .lost }
        if silence(of: camera) != nil { return .stalled }
        let timeline = tracks[camera].timeline
        guard let expiry = timeline.expiry, now < expiry else { return .disabled }
        return timeline.state.phase == .enabled ? .enabled : .held
    }

    private mutating func decide() -> RigState {
        guard let now = now ?? arrivalNow else { return state }
        let count = tracks.count
        let required = requiredCount
        if let oldest = oldestKept {
            for camera in 0..<count where tracks[camera].recent.first.map({ $0.time < oldest }) ?? false {
                tracks[camera].recent.removeAll { $0.time < oldest }
                recentChanges += 1
            }
        }
        let phases = (0..<count).map { phase(of: $0, at: now) }
        func disabled(_ refusal: RigRefusal) -> RigState { RigState(set: nil, refusal: refusal, cameras: phases) }

        let absences = (0..<count).map { absence(of: $0) }
        let present = (0..<count).filter { absences[$0] == nil }
        if configuration.require == .all || present.count < required, let first = absences.compactMap({ $0 }).first {
            return disabled(first)
        }
        let seeing = present.filter { (phases[$0] == .enabled || phases[$0] == .held) && !tracks[$0].recent.isEmpty }
        if seeing.count < required {
            let blind = present.filter { !seeing.contains($0) }.map { configuration.cameras[$0].name }
            return disabled(.notSeeing(blind))
        }
        if search.map({ $0.seeing != seeing || $0.recentChanges != recentChanges }) ?? true {
            search = searchSets(of: seeing)
        }
        guard let search else { preconditionFailure("no search for a set among cameras \(seeing)") }
        guard let inTime = search.inTime else { return disabled(.apart(search.closest ?? .zero)) }
        guard configuration.maxMotion != nil else { return RigState(set: inTime.set, refusal: nil, cameras: phases) }
        if let best = search.best { return RigState(set: best.set, refusal: nil, cameras: phases) }
        // Name the camera whose board moves most in the newest set in time.
        let members = inTime.set.members
        if let unknown = members.first(where: { $0.motion == nil }) {
            return disabled(.motionUnknown(camera: configuration.cameras[unknown.camera].name))
        }
        let fastest = members.max { ($0.motion ?? 0) < ($1.motion ?? 0) }!
        return disabled(.moving(fastest.motion ?? 0, camera: configuration.cameras[fastest.camera].name))
    }

    /// What a search for a set among the cameras seeing the board found, and what it looked at.
    private struct SetSearch {
        /// The cameras it looked at.
        let seeing: [Int]
        /// ``recentChanges`` when it looked.
        let recentChanges: Int
        /// The smallest spread of a set of as many cameras as required, motion aside.
        let closest: Duration?
        /// The best set in time, motion aside.
        let inTime: Candidate?
        /// The best set in time whose frames move less than the limit (with a limit).
        let best: Candidate?
    }

    /// Searches the `seeing` cameras' recent frames for the best sets.
    private func searchSets(of seeing: [Int]) -> SetSearch {
        let required = requiredCount
        // The closest sets of frames, motion aside.
        let tolerance = configuration.syncTolerance
        var closest: Duration?
        var inTime: Candidate?
        for candidate in candidates(of: seeing, accepting: { _ in true }) {
            let others = candidate.others.map(\.difference).sorted()
            guard others.count >= required - 1 else { continue }
            let spread = required >= 2 ? others[required - 2] : .zero
            closest = min(closest ?? spread, spread)
            let within = candidate.trimmed(to: tolerance)
            if within.size >= required, inTime.map({ within.isBetter(than: $0) }) ?? true { inTime = within }
        }
        var best: Candidate?
        if inTime != nil, let limit = configuration.maxMotion {
            for candidate in candidates(of: seeing, accepting: { ($0.motion ?? .infinity) < limit }) {
                let within = candidate.trimmed(to: tolerance)
                if within.size >= required, best.map({ within.isBetter(than: $0) }) ?? true { best = within }
            }
        }
        return SetSearch(seeing: seeing, recentChanges: recentChanges, closest: closest, inTime: inTime, best: best)
    }

    /// A set built around its earliest frame (the anchor): for each other camera, its first
    /// accepted frame at or after the anchor.
    private struct Candidate {
        let anchor: RigSet.Member
        let others: [(member: RigSet.Member, difference: Duration)]

        var size: Int { others.count + 1 }

        /// The set with the frames within `tolerance` of the anchor.
        func trimmed(to tolerance: Duration) -> Candidate {
            Candidate(anchor: anchor, others: others.filter { $0.difference <= tolerance })
        }

        var spread: Duration { others.map(\.difference).max() ?? .zero }

        /// More cameras first, then the newest, then the closest in time.
        func isBetter(than other: Candidate) -> Bool {
            if size != other.size { return size > other.size }
            if anchor.time != other.anchor.time { return anchor.time > other.anchor.time }
            return spread < other.spread
        }

        var set: RigSet {
            RigSet(members: ([anchor] + others.map(\.member)).sorted { $0.camera < $1.camera })
        }
    }

    private func candidates(of cameras: [Int], accepting accept: (RigSet.Member) -> Bool) -> [Candidate] {
        var result: [Candidate] = []
        for camera in cameras {
            for anchor in tracks[camera].recent where accept(anchor) {
                var others: [(member: RigSet.Member, difference: Duration)] = []
                for other in cameras where other != camera {
                    if let member = tracks[other].recent.first(where: { $0.time >= anchor.time && accept($0) }) {
                        others.append((member, anchor.time.duration(to: member.time)))
                    }
                }
                result.append(Candidate(anchor: anchor, others: others))
            }
        }
        return result
    }
}

/// A rig configuration that cannot work, and why.
package struct RigConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    package let description: String

    init(_ description: String) { self.description = description }
}
