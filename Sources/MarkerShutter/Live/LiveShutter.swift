import Dispatch
import Foundation
public import MarkerDetection
public import Pixels
import Synchronization

/// The live shutter: frames go in as they arrive, detection runs on its own thread, and the
/// shutter's timeline runs on the frames' own timestamps.
///
/// Detection takes the newest frame: a frame that arrives while detection is busy replaces the one
/// waiting (the replaced frames are counted as skipped), and frames are never detected out of
/// order. Each frame keeps the index of its arrival, so a recording of every frame replays to the
/// same indices.
///
/// ```swift
/// let shutter = LiveShutter(detector: detector, rule: rule, hold: .milliseconds(300))
/// shutter.start { report in if report.step.changed { show(report.step.state) } }
/// for try await frame in camera.frames() { shutter.submit(SourceFrame(...)) }
/// shutter.finish()
/// shutter.waitUntilDone()
/// ```
public final class LiveShutter: Sendable {
    /// What detection made of one frame.
    public struct Report: Sendable {
        /// The frame after detection.
        public let observation: FrameObservation
        /// The shutter after the frame.
        public let step: ShutterStep<FrameObservation>
        /// From the frame's arrival to the new state, detection included.
        public let latency: Duration
        /// The frame's pixels, valid or not (``FrameObservation/pixels`` keeps a valid frame's
        /// only), for views that show every frame.
        public let pixels: PixelBuffer
    }

    private struct Submitted: Sendable {
        let index: Int
        /// The frame; `nil` for a frame that cannot be read, of which only the time passes.
        let frame: SourceFrame?
        /// The frame's time.
        let time: FrameTime
        /// When it arrived, on the session clock.
        let arrivedAt: Duration
    }

    /// The shutter disabled by time alone: no frame came before the hold ran out.
    public struct Expiry: Sendable {
        /// The state after it (disabled).
        public let state: ShutterState<FrameObservation>
        /// When the hold ran out, on the frames' clock.
        public let time: FrameTime
        /// The index of the last frame detected before it.
        public let lastFrame: Int
    }

    /// The newest frame detected: its index, timestamp and arrival on the session clock, which
    /// relate the frames' clock to the session clock.
    private struct Anchor {
        let index: Int
        let time: FrameTime
        let arrivedAt: Duration

        /// `now` (session clock) on the frames' clock.
        func frameTime(at now: Duration) -> FrameTime { time + (now - arrivedAt) }
        /// `frameTime` (frames' clock) on the session clock.
        func sessionTime(at frameTime: FrameTime) -> Duration { arrivedAt + time.duration(to: frameTime) }
    }

    private struct State {
        var timeline: ShutterTimeline<FrameObservation>
        var statistics = LiveStatistics()
        var nextIndex = 0
        /// The index of the last frame detection finished with (whatever came of it).
        var lastHandled = -1
        var anchor: Anchor?
        var started = false

        var latestTime: FrameTime? { anchor?.time }
    }

    /// The detector (used on the detection thread only).
    public let detector: MarkerDetector
    /// Which detections may enable the shutter.
    public let rule: ValidityRule
    /// Frames waiting for detection; a missing frame replaced by a newer one is not a frame skipped.
    private let slot = LatestFrameSlot<Submitted>(counting: { $0.frame != nil })
    private let state: Mutex<State>
    /// Where the next frame is searched; `nil` searches every frame whole.
    private let tracker: Mutex<RegionTracker?>
    private let done = DispatchSemaphore(value: 0)
    /// Tells the time when no frame comes.
    private let clock: SessionClock

    /// Creates a shutter, disabled until a valid frame arrives.
    ///
    /// - Parameters:
    ///   - detector: Finds the target in each frame.
    ///   - rule: Which detections may enable the shutter.
    ///   - hold: How long a lost detection is held.
    ///   - clock: Tells the time between frames, for ``advance(to:)`` and ``heldFrame(at:)``.
    ///
    /// In ``DetectionMode/fast`` each frame large enough for fast mode to shrink is searched first
    /// where the board was in the frame before (a ``RegionTracker`` with its defaults: frames come
    /// one after another); in ``DetectionMode/full`` every frame is searched whole.
    public convenience init(detector: MarkerDetector, rule: ValidityRule, hold: Duration, clock: SessionClock = .continuous) {
        self.init(
            detector: detector, rule: rule, hold: hold, tracker: detector.mode == .fast ? RegionTracker() : nil, clock: clock)
    }

    /// Creates a shutter, disabled until a valid frame arrives, that searches frames where `tracker`
    /// says (every frame whole when it is `nil`).
    public init(detector: MarkerDetector, rule: ValidityRule, hold: Duration, tracker: RegionTracker?, clock: SessionClock = .continuous) {
        self.detector = detector
        self.rule = rule
        self.tracker = Mutex(tracker)
        self.clock = clock
        state = Mutex(State(timeline: ShutterTimeline(hold: hold)))
    }

    /// Starts the detection thread.
    ///
    /// - Parameters:
    ///   - onFrame: Called on the detection thread after each detected frame, in order.
    ///   Keep it short: detection waits for it. ``advance(to:)`` waits until it returned for the newest frame.
    ///   - afterFrame: Called on the detection thread when a frame is done with (detected or not),
    ///   after `onFrame`.
    ///   - onExpiry: Called on the detection thread when the time of a frame that cannot be read
    ///   (``pass(_:)``) ran the hold out.
    public func start(onFrame: @escaping @Sendable (Report) -> Void, afterFrame: @escaping @Sendable () -> Void = {},
                      onExpiry: @escaping @Sendable (Expiry) -> Void = { _ in }) {
        let first = state.withLock { s -> Bool in
            defer { s.started = true }
            return !s.started
        }
        precondition(first, "LiveShutter.start called twice")
        let thread = Thread { [self] in
            while let submitted = slot.take() {
                guard submitted.frame != nil else {
                    if let expiry = pass(submitted) { onExpiry(expiry) }
                    continue
                }
                if let report = process(submitted) { onFrame(report) }
                state.withLock { $0.lastHandled = submitted.index }
                afterFrame()
            }
            done.signal()
        }
        thread.name = "marker-shutter detection"
        thread.start()
    }

    /// Hands over a frame as it arrives. Never blocks: the frame replaces one still waiting.
    public func submit(_ frame: SourceFrame) {
        let index = state.withLock { s -> Int in
            s.statistics.noteReceived(frame)
            defer { s.nextIndex += 1 }
            return s.nextIndex
        }
        slot.put(Submitted(index: index, frame: frame, time: frame.time, arrivedAt: clock.now()))
    }

    /// Hands over the time of a frame that cannot be read (a replayed file that is missing or
    /// corrupt): in its turn after the frames before it, the shutter's time moves on to `time` as
    /// if the frame had shown nothing, so a hold runs out in a hole of such frames and a picture
    /// asked for there is refused. It takes no frame index. Never blocks.
    public func pass(_ time: FrameTime) {
        let index = state.withLock { s -> Int in
            s.statistics.framesMissing += 1
            return s.nextIndex
        }
        slot.put(Submitted(index: index, frame: nil, time: time, arrivedAt: clock.now()))
    }

    /// No more frames: detection finishes the frame waiting, if any, then stops.
    public func finish() {
        slot.close()
    }

    /// Blocks until detection has stopped after ``finish()``.
    public func waitUntilDone() {
        done.wait()
        done.signal()  // let later calls return at once too
    }

    /// The shutter's current state.
    public var currentState: ShutterState<FrameObservation> { state.withLock { $0.timeline.state } }

    /// The timestamp of the newest frame detected.
    public var latestTime: FrameTime? { state.withLock { $0.latestTime } }

    /// The enabled stretches so far.
    public var stretches: [EnabledStretch] { state.withLock { $0.timeline.stretches } }

    /// Counts, rates and latencies so far.
    public var statistics: LiveStatistics {
        state.withLock { s in
            var statistics = s.statistics
            statistics.framesSkipped = slot.replacedCount
            return statistics
        }
    }

    /// The frame a picture taken now would save: the held valid frame, with the state and the time
    /// of the newest frame.
    ///
    /// - Parameter now: Now on the session clock, for a source whose frames may stop (a camera): a
    ///   hold that ran out by then refuses the picture though no frame came to end it. `nil` judges
    ///   by the frames alone.
    /// - Throws: ``PictureError/shutterDisabled`` when no valid frame is held.
    public func heldFrame(at now: Duration? = nil) throws(PictureError)
        -> (observation: FrameObservation, state: ShutterState<FrameObservation>, now: FrameTime)
    {
        let (current, anchor, expiry) = state.withLock { ($0.timeline.state, $0.anchor, $0.timeline.expiry) }
        guard current.isEnabled, let held = current.held, let anchor else { throw .shutterDisabled }
        if let now, let expiry, anchor.frameTime(at: now) >= expiry { throw .shutterDisabled }
        return (held.snapshot, current, anchor.time)
    }

    /// When, on the session clock, the shutter is disabled if no newer frame is detected first
    /// (see ``ShutterTimeline/expiry``); `nil` while disabled.
    public var expiryTime: Duration? {
        state.withLock { s in
            guard let anchor = s.anchor, let expiry = s.timeline.expiry else { return nil }
            return anchor.sessionTime(at: expiry)
        }
    }

    /// Moves the shutter's time on to `now` without a frame: a camera that stalled. The newest
    /// frame's timestamp and arrival relate the frames' clock to the session clock.
    ///
    /// - Parameter now: Now, on the session clock.
    /// - Returns: The expiry when the hold ran out by `now`; `nil` when it did not, or when a newer
    ///   frame is waiting for detection (that frame decides).
    public func advance(to now: Duration) -> Expiry? {
        state.withLock { s -> Expiry? in
            guard let anchor = s.anchor, s.lastHandled == s.nextIndex - 1, let expiry = s.timeline.expiry else { return nil }
            guard s.timeline.advance(to: max(anchor.time, anchor.frameTime(at: now))) else { return nil }
            return Expiry(state: s.timeline.state, time: expiry, lastFrame: anchor.index)
        }
    }

    /// Detects as the tracker says (``RegionTracker/search(_:with:)``), or the whole image in full
    /// mode. Only the detection thread calls this, so holding the tracker's lock through the
    /// detection keeps nothing waiting.
    private func detect(_ pixels: PixelBuffer) throws(DetectionError) -> Detection {
        try tracker.withLock { (tracker) throws(DetectionError) -> Detection in
            guard tracker != nil else { return try detector.detect(pixels) }
            return try tracker!.search(pixels, with: detector)
        }
    }

    /// Moves the shutter's time to a missing frame's; the expiry when that ran the hold out.
    private func pass(_ submitted: Submitted) -> Expiry? {
        state.withLock { s -> Expiry? in
            guard let anchor = s.anchor, submitted.time >= anchor.time, let expiry = s.timeline.expiry,
                s.timeline.advance(to: submitted.time)
            else { return nil }
            return Expiry(state: s.timeline.state, time: expiry, lastFrame: anchor.index)
        }
    }

    private func process(_ submitted: Submitted) -> Report? {
        guard let frame = submitted.frame else { return nil }
        let detection: Detection
        do {
            detection = try detect(frame.pixels)
        } catch {
            state.withLock { $0.statistics.detectionFailures += 1 }
            return nil
        }
        var observation = FrameObservation(index: submitted.index, time: frame.time, sequence: frame.sequence,
                                           file: frame.file, detection: detection, rule: rule, pixels: frame.pixels)
        observation.controls = frame.controls
        return state.withLock { s -> Report? in
            if let latest = s.latestTime, frame.time < latest {
                s.statistics.framesOutOfOrder += 1  // a timestamp going back cannot be replayed: drop it
                return nil
            }
            let step = s.timeline.observe(index: observation.index, snapshot: observation,
                                          isValid: observation.isValid, at: frame.time)
            s.anchor = Anchor(index: observation.index, time: frame.time, arrivedAt: submitted.arrivedAt)
            let latency = frame.receivedAt.duration(to: .now)
            s.statistics.noteDetected(observation, latency: latency)
            return Report(observation: observation, step: step, latency: latency, pixels: frame.pixels)
        }
    }
}

/// Counts, rates and latencies of a live session.
public struct LiveStatistics: Sendable {
    /// Frames the source delivered.
    public var framesReceived = 0
    /// Frames detected.
    public var framesDetected = 0
    /// Frames replaced while detection was busy.
    public var framesSkipped = 0
    /// Frames the camera reported lost before delivering.
    public var framesLostByCamera = 0
    /// Frames whose detection failed (for instance an image too small).
    public var detectionFailures = 0
    /// Frames dropped because their timestamp went back.
    public var framesOutOfOrder = 0
    /// Replayed frames that are missing or cannot be read (their time passed all the same).
    public var framesMissing = 0
    /// The last detection's duration.
    public var lastDetectionTime: Duration?
    /// The last detection's marker and board-corner counts.
    public var lastCounts = (markers: 0, corners: 0)
    private var recentArrivals: [FrameTime] = []
    private var latencies: [Duration] = []
    private static let latencyLimit = 100_000

    /// Frames per second delivered by the source over the last second or so of frame timestamps.
    public var framesPerSecond: Double? {
        guard let first = recentArrivals.first, let last = recentArrivals.last, recentArrivals.count > 1 else { return nil }
        let value = first.duration(to: last).inSeconds
        return value > 0 ? Double(recentArrivals.count - 1) / value : nil
    }

    /// A latency percentile (0...1) over the frames detected so far (the latest 100,000).
    public func latency(percentile fraction: Double) -> Duration? {
        guard !latencies.isEmpty else { return nil }
        let sorted = latencies.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
    }

    mutating func noteReceived(_ frame: SourceFrame) {
        framesReceived += 1
        framesLostByCamera += frame.droppedBefore
        recentArrivals.append(frame.time)
        if recentArrivals.count > 31 { recentArrivals.removeFirst(recentArrivals.count - 31) }
    }

    mutating func noteDetected(_ observation: FrameObservation, latency: Duration) {
        framesDetected += 1
        lastDetectionTime = observation.detection.duration
        lastCounts = (observation.detection.markers.count, observation.detection.boardCorners.count)
        if latencies.count == Self.latencyLimit { latencies.removeFirst(Self.latencyLimit / 10) }
        latencies.append(latency)
    }
}
