import Pixels

/// The decisions of a live session, with no thread, lock, task or clock: what a frame's detection,
/// a picture asked for, a stop or the passing of time does to the shutter, the pictures and the
/// counts.
///
/// Each event is a `mutating func` that returns the ``Action``s its caller carries out, in order,
/// after it let go of the machine. Time comes in as an argument: frames bring their own timestamps
/// (the frames' clock), and the caller says what time it is on the session clock (a `Duration`
/// since the session began, as ``SessionClock`` tells it) when no frame comes.
///
/// It reuses the pure pieces the offline path shares: the ``ShutterTimeline`` (the 0.3 s hold),
/// the ``AutoCapturePolicy`` (which views `--auto` takes, and the coverage of every picture), the
/// ``LiveStatistics`` and the ``LiveSummary`` counts.
///
/// ```swift
/// var machine = LiveSessionMachine(hold: .milliseconds(300))
/// let index = machine.receive(frame).index                  // as the frame arrives
/// for action in machine.detected(observation, pixels: frame.pixels, arrivedAt: now, latency: latency) { ... }
/// for action in machine.capture(at: now) { ... }            // a picture asked for
/// for action in machine.tick(at: now) { ... }               // no frame came by `stallDeadline`
/// ```
struct LiveSessionMachine {
    /// A side effect for the caller, once it let go of the machine.
    enum Action {
        /// Show a detected frame: the shutter after it, whether its phase changed from the frame
        /// before, and what it shows for calibration.
        case frame(LiveShutter.Report, shutterChanged: Bool, guidance: LiveSession.Guidance)
        /// No frame came before the hold ran out: the shutter is disabled.
        case expired(LiveShutter.Expiry)
        /// Write this picture, then tell the machine ``pictureSaved()`` or ``pictureFailed()``.
        case save(Picture)
        /// A picture asked for is refused, and why.
        case refuse(PictureError)
        /// A picture was asked for (or chosen) while the session is ending: none is taken.
        case notTaken
        /// Stop the source; `reason` is the stop's reason the summary tells (the first one given).
        case stopSource(reason: String)
    }

    /// A picture to write: the held frame, the shutter's state and time when it was taken, and who asked.
    struct Picture {
        /// The frame to save.
        let observation: FrameObservation
        /// The shutter when the picture was taken.
        let state: ShutterState<FrameObservation>
        /// The newest frame's time when the picture was taken.
        let now: FrameTime
        /// Who asked.
        let trigger: PictureFolder.Trigger

        /// How long the frame had been held when it was taken; `nil` while the shutter was enabled.
        var holdAge: Duration? { state.phase == .enabled ? nil : state.holdAge(at: now) ?? .zero }
    }

    /// What ``receive(_:)`` made of an arriving frame.
    struct Arrival {
        /// The frame's index in the session (the order of arrival).
        let index: Int
        /// `.stopSource` when the frame reached the frame limit.
        let actions: [Action]
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

    /// A stall ends a hold this long after its deadline, so that a frame that comes on time decides first.
    static let stallGrace: Duration = .milliseconds(100)

    /// Whether pictures are taken automatically, of the views the policy chooses.
    let automatic: Bool
    /// How many pictures may wait to be written before a request is refused as busy.
    let pictureBacklog: Int
    /// Stop after this many frames.
    let stopAfter: Int?

    private var timeline: ShutterTimeline<FrameObservation>
    private var policy: AutoCapturePolicy
    private(set) var statistics = LiveStatistics()
    private(set) var pictures = LiveSummary.Pictures()
    /// Why the session stops; the first reason given is kept.
    private(set) var stopReason: String?
    /// Pictures handed out to be written and not yet reported back.
    private(set) var pendingSaves = 0
    /// No more pictures are taken: the session is ending.
    private(set) var closed = false
    private var nextIndex = 0
    /// The index of the last frame detection finished with (whatever came of it).
    private var lastHandled = -1
    private var anchor: Anchor?
    private var lastPhase: ShutterState<FrameObservation>.Phase?

    /// Creates a machine with the shutter disabled, no frame and no picture.
    ///
    /// - Parameters:
    ///   - hold: How long a lost detection is held.
    ///   - automatic: Whether pictures are taken automatically (`--auto`).
    ///   - autoCapture: Which views are taken automatically; it keeps the coverage of every picture.
    ///   - pictureBacklog: How many pictures may wait to be written; a request beyond is refused.
    ///   - stopAfter: Stop after this many frames.
    init(hold: Duration, automatic: Bool = false, autoCapture: AutoCapturePolicy = AutoCapturePolicy(),
         pictureBacklog: Int = 8, stopAfter: Int? = nil) {
        timeline = ShutterTimeline(hold: hold)
        self.automatic = automatic
        policy = autoCapture
        self.pictureBacklog = pictureBacklog
        self.stopAfter = stopAfter
    }

    /// A machine for a session's configuration.
    init(configuration: LiveSession.Configuration) {
        self.init(hold: configuration.hold, automatic: configuration.automatic, autoCapture: configuration.autoCapture,
                  pictureBacklog: configuration.pictureBacklog, stopAfter: configuration.stopAfter)
    }

    // MARK: - What the caller reads

    /// The shutter's current state.
    var state: ShutterState<FrameObservation> { timeline.state }
    /// The enabled stretches so far.
    var stretches: [EnabledStretch] { timeline.stretches }
    /// The timestamp of the newest frame detected.
    var latestTime: FrameTime? { anchor?.time }
    /// The coverage of the pictures taken so far.
    var coverage: ViewCoverage { policy.coverage }
    /// The counts the views show, as they stand.
    var status: LiveSession.Status { LiveSession.Status(statistics: statistics, picturesSaved: pictures.saved) }

    /// When, on the session clock, ``tick(at:)`` should look whether the shutter expired for want of
    /// frames: the hold's end (see ``ShutterTimeline/expiry``) plus ``stallGrace``. `nil` while
    /// disabled, or while a newer frame is still waiting for detection (that frame decides).
    var stallDeadline: Duration? {
        guard let anchor, lastHandled == nextIndex - 1, let expiry = timeline.expiry else { return nil }
        return anchor.sessionTime(at: expiry) + Self.stallGrace
    }

    // MARK: - Frames

    /// A frame arrived (before detection): it takes the next index and is counted.
    ///
    /// - Returns: The frame's index, and `.stopSource` when it is the last of ``stopAfter``.
    mutating func receive(_ frame: SourceFrame) -> Arrival {
        let index = nextIndex
        nextIndex += 1
        statistics.noteReceived(frame)
        guard let stopAfter, nextIndex == stopAfter else { return Arrival(index: index, actions: []) }
        let reason = stopReason ?? "\(stopAfter) frames"
        stopReason = reason
        return Arrival(index: index, actions: [.stopSource(reason: reason)])
    }

    /// A frame that cannot be read arrived (a replayed file missing or corrupt): it is counted and
    /// takes no index; its time passes in its turn, with ``passMissing(at:)``.
    mutating func receiveMissing() {
        statistics.framesMissing += 1
    }

    /// Detection finished with frame `observation.index`.
    ///
    /// - Parameters:
    ///   - observation: The frame after detection.
    ///   - pixels: The frame's pixels, valid or not, for views that show every frame.
    ///   - arrivedAt: When the frame arrived, on the session clock.
    ///   - latency: From the frame's arrival to now, detection included.
    ///   - skipped: The frames replaced while detection was busy so far (the caller's slot counts them).
    /// - Returns: `.frame` to show it, then `.save` (or `.notTaken`) when `--auto` takes its view;
    ///   nothing for a frame whose timestamp goes back (it is counted and dropped).
    mutating func detected(_ observation: FrameObservation, pixels: PixelBuffer, arrivedAt: Duration,
                           latency: Duration, skipped: Int = 0) -> [Action] {
        lastHandled = observation.index
        statistics.framesSkipped = skipped
        if let latest = latestTime, observation.time < latest {
            statistics.framesOutOfOrder += 1  // a timestamp going back cannot be replayed: drop it
            return []
        }
        let step = timeline.observe(index: observation.index, snapshot: observation, isValid: observation.isValid,
                                    at: observation.time)
        anchor = Anchor(index: observation.index, time: observation.time, arrivedAt: arrivedAt)
        statistics.noteDetected(observation, latency: latency)
        let phase = step.state.phase
        let taken = automatic ? policy.consider(observation, phase: phase) : nil
        let view = taken ?? BoardView(observation.detection)
        let guidance = LiveSession.Guidance(view: view, coverage: policy.coverage.progress,
                                            gains: view.map(policy.coverage.gains(from:)), pictures: policy.coverage.views.count)
        let report = LiveShutter.Report(observation: observation, step: step, latency: latency, pixels: pixels, status: status)
        var actions: [Action] = [.frame(report, shutterChanged: lastPhase != phase, guidance: guidance)]
        lastPhase = phase
        if taken != nil {
            // Never busy: only requests are held to the backlog; the policy takes few pictures.
            actions.append(take(Picture(observation: observation, state: step.state, now: observation.time, trigger: .auto)))
        }
        return actions
    }

    /// Detection of frame `index` failed (an image too small, for instance): it is counted, and
    /// the shutter does not move.
    mutating func detectionFailed(index: Int) {
        lastHandled = index
        statistics.detectionFailures += 1
    }

    /// A frame that cannot be read reached its turn: the shutter's time moves on to its time as if
    /// it had shown nothing.
    ///
    /// - Returns: `.expired` when that ran the hold out.
    mutating func passMissing(at time: FrameTime) -> [Action] {
        guard let anchor, time >= anchor.time, let expiry = timeline.expiry, timeline.advance(to: time) else { return [] }
        return [expire(at: expiry, lastFrame: anchor.index)]
    }

    /// Time passed with no frame (a camera that stalled): moves the shutter's time on to `now`.
    ///
    /// - Parameter now: Now, on the session clock.
    /// - Returns: `.expired` when the hold ran out by `now`; nothing when it did not, or when a newer
    ///   frame is waiting for detection (that frame decides).
    mutating func tick(at now: Duration) -> [Action] {
        guard let anchor, lastHandled == nextIndex - 1, let expiry = timeline.expiry,
              timeline.advance(to: max(anchor.time, anchor.frameTime(at: now)))
        else { return [] }
        return [expire(at: expiry, lastFrame: anchor.index)]
    }

    private mutating func expire(at expiry: FrameTime, lastFrame: Int) -> Action {
        lastPhase = timeline.state.phase
        return .expired(LiveShutter.Expiry(state: timeline.state, time: expiry, lastFrame: lastFrame, status: status))
    }

    // MARK: - Pictures

    /// A picture asked for: the held valid frame, unless the shutter is disabled or the backlog is full.
    ///
    /// - Parameter now: Now on the session clock, for a source whose frames may stop (a camera): a
    ///   hold that ran out by then refuses the picture though no frame came to end it. `nil` judges
    ///   by the frames alone.
    /// - Returns: `.save`, `.refuse` (shutter disabled, or busy) or `.notTaken` (the session is ending).
    mutating func capture(at now: Duration? = nil) -> [Action] {
        let current = timeline.state
        guard current.isEnabled, let held = current.held, let anchor else { return [refuse(.shutterDisabled)] }
        if let now, let expiry = timeline.expiry, anchor.frameTime(at: now) >= expiry { return [refuse(.shutterDisabled)] }
        guard closed || pendingSaves < pictureBacklog else { return [refuse(.busy(pending: pendingSaves))] }
        return [take(Picture(observation: held.snapshot, state: current, now: anchor.time, trigger: .request))]
    }

    private mutating func refuse(_ error: PictureError) -> Action {
        if case .busy = error { pictures.busy += 1 } else { pictures.refused += 1 }
        return .refuse(error)
    }

    private mutating func take(_ picture: Picture) -> Action {
        guard !closed else { return .notTaken }
        // An automatic picture's view was recorded when the policy chose it.
        if picture.trigger == .request, let view = BoardView(picture.observation.detection) { policy.record(view) }
        pendingSaves += 1
        return .save(picture)
    }

    /// A picture handed out with `.save` was written.
    mutating func pictureSaved() {
        precondition(pendingSaves > 0, "a picture saved that was never handed out (\(pictures))")
        pendingSaves -= 1
        pictures.saved += 1
    }

    /// A picture handed out with `.save` could not be written.
    mutating func pictureFailed() {
        precondition(pendingSaves > 0, "a picture failed that was never handed out (\(pictures))")
        pendingSaves -= 1
        pictures.failed += 1
    }

    // MARK: - Stopping

    /// Stop the session (quit, Ctrl-C, a camera that disconnected).
    ///
    /// - Returns: `.stopSource` for the first stop; nothing after (its reason is kept).
    mutating func stop(reason: String) -> [Action] {
        guard stopReason == nil else { return [] }
        stopReason = reason
        return [.stopSource(reason: reason)]
    }

    /// The session is ending: no more pictures are taken (those handed out are still reported back).
    mutating func close() {
        closed = true
    }

    /// Counts, rates and latencies, with the frames the caller's slot replaced while detection was busy.
    func statistics(skipped: Int) -> LiveStatistics {
        var statistics = statistics
        statistics.framesSkipped = skipped
        return statistics
    }

    /// The summary of the run as the machine saw it, with what the caller kept besides.
    func summary(skipped: Int, recording: FrameRecorder.Summary? = nil, recordFolder: String? = nil,
                 failure: String? = nil, calibration: LiveSummary.Calibration? = nil) -> LiveSummary {
        LiveSummary(stopReason: stopReason, statistics: statistics(skipped: skipped), stretches: timeline.stretches,
                    pictures: pictures, recording: recording, recordFolder: recordFolder, failure: failure,
                    coverage: policy.coverage, calibration: calibration)
    }
}
