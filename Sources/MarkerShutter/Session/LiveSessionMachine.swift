import MarkerDetection
import Pixels

/// Every decision of a live session of one or more cameras, as a pure state machine: no thread,
/// lock, task or clock. Time comes in as arguments: the frames' timestamps, and the session
/// clock's reading when no frame comes.
///
/// One camera is a rig of one. A ``RigShutterMachine`` holds each camera's own shutter (a
/// ``ShutterTimeline``) and the rule for the set: with one camera, the set is its held frame and
/// the rule its shutter alone. Around it the machine keeps what a session needs besides: each
/// camera's frame indexes, counts and recent valid frames, the pictures (a set of one for one
/// camera) and their backlog, the `--auto` policy per camera, each camera's condition (stalled,
/// back, lost, each told once per change), the stop reason and the frame limit.
///
/// ```swift
/// var machine = LiveSessionMachine(configuration: .single(camera, hold: .milliseconds(300)))
/// let arrival = machine.receive(frame, camera: 0, at: now)           // as the frame arrives
/// for action in machine.detected(observation, camera: 0, pixels: frame.pixels, arrivedAt: now, latency: latency) { ... }
/// for action in machine.capture(at: now) { ... }                     // a picture asked for
/// for action in machine.tick(at: now) { ... }                        // no frame came by `clockDeadline`
/// ```
struct LiveSessionMachine {
    /// A side effect for the caller, once it let go of the machine.
    enum Action {
        /// Show a detected frame: its camera's shutter after it, whether that shutter's phase
        /// changed from its frame before, the rig after it, and what it shows for calibration.
        case frame(LiveShutter.Report, shutterChanged: Bool, guidance: LiveSession.Guidance)
        /// A camera's own shutter ran out with no frame to end it (a camera that stalled, a hole in a replay).
        case expired(LiveShutter.Expiry)
        /// The rig of several cameras turned, or its reason changed, with no frame detected.
        case rigChanged(RigState)
        /// A camera stalled, came back or is gone.
        case camera(Int, LiveSession.CameraCondition)
        /// Write this picture (one frame, or a set), then tell ``pictureSaved()`` or ``pictureFailed()``.
        case save(Picture)
        /// A picture asked for is refused, and why.
        case refuse(PictureError)
        /// A picture was asked for (or chosen) while the session is ending: none is taken.
        case notTaken
        /// Stop every source; `reason` is the stop's reason the summary tells (the first one given).
        case stopSources(reason: String)
        /// What a rig's recording notes, in the order the machine is told it.
        case journal(Journal)
    }

    /// A step of a rig's recording (``RigRecorder``), as the machine takes it.
    enum Journal {
        /// A frame of `camera` arrived, before detection.
        case arrived(camera: Int, time: FrameTime, dropped: Int)
        /// Time moved on with no frame (for stalls only while frames wait for detection).
        case advance(FrameTime, arrivalsOnly: Bool)
        /// The camera is gone.
        case lost(camera: Int)
        /// The frame after detection, with its pixels.
        case observed(camera: Int, observation: FrameObservation, pixels: PixelBuffer)
    }

    /// A picture to write: for one camera its held frame, for a rig one frame per camera of the set.
    struct Picture {
        /// One camera's frame of the picture.
        struct Member {
            /// The camera's position.
            let camera: Int
            /// The frame, valid, with its pixels.
            let observation: FrameObservation
            /// That camera's shutter when the picture was taken.
            let state: ShutterState<FrameObservation>
            /// The board's motion in it, in pixels per frame, when measured.
            let motion: Double?
        }

        /// The frames, in camera order.
        let members: [Member]
        /// The newest frame's time when the picture was taken.
        let now: FrameTime
        /// Who asked.
        let trigger: PictureFolder.Trigger

        /// How long the (first) frame had been held when taken; `nil` while its shutter was enabled.
        var holdAge: Duration? {
            let state = members[0].state
            return state.phase == .enabled ? nil : state.holdAge(at: now) ?? .zero
        }
    }

    /// What ``receive(_:camera:at:)`` made of an arriving frame.
    struct Arrival {
        /// The frame's index among its camera's frames (the order of arrival).
        let index: Int
        /// What the arrival changed; `.stopSources` when the frame reached the frame limit.
        let actions: [Action]
        /// Whether the frame reached the frame limit.
        let limitReached: Bool
    }

    /// The newest frame to arrive, of any camera: its timestamp and its arrival on the session
    /// clock, which relate the frames' clock to the session clock.
    private struct Anchor {
        let time: FrameTime
        let arrivedAt: Duration

        /// `now` (session clock) on the frames' clock.
        func frameTime(at now: Duration) -> FrameTime { time + (now - arrivedAt) }
        /// `frameTime` (frames' clock) on the session clock.
        func sessionTime(at frameTime: FrameTime) -> Duration { arrivedAt + time.duration(to: frameTime) }
    }

    /// One camera's part of the session.
    private struct Track {
        var statistics = LiveStatistics()
        var nextIndex = 0
        /// The index of the last frame detection finished with (whatever came of it).
        var lastHandled = -1
        /// The newest frame detected: its index and time.
        var lastDetected: (index: Int, time: FrameTime)?
        /// The newest arrival, for how long a stall lasted.
        var lastArrival: FrameTime?
        /// Its recent valid frames, by index: what a picture or a set may take.
        var held: [Int: FrameObservation] = [:]
        var lastPhase: ShutterState<Int>.Phase?
        var policy: AutoCapturePolicy
        /// The condition last told: stalled or not.
        var stalled = false
        var lost = false
    }

    /// A stall ends a hold this long after its deadline, so that a frame that comes on time decides first.
    static let stallGrace: Duration = .milliseconds(100)

    /// The cameras and the rule for the set.
    let rigConfiguration: RigShutterMachine.Configuration
    /// Whether pictures are taken automatically, of the views the policies choose.
    let automatic: Bool
    /// How many pictures may wait to be written before one more is refused as busy.
    let pictureBacklog: Int
    /// Stop once a camera delivered this many frames.
    let stopAfter: Int?
    /// Whether what the machine is told is journaled for a rig's recording.
    let journaling: Bool

    private var rig: RigShutterMachine
    private var tracks: [Track]
    private(set) var pictures = LiveSummary.Pictures()
    /// Why the session stops; the first reason given is kept.
    private(set) var stopReason: String?
    /// Pictures handed out to be written and not yet reported back.
    private(set) var pendingSaves = 0
    /// No more pictures are taken: the session is ending.
    private(set) var closed = false
    private var anchor: Anchor?
    /// The newest set `--auto` took: its newest frame's time.
    private var lastAutomatic: FrameTime?
    /// From the arrival of a set's later frame to the rig's state after its detection, for each
    /// frame that completed a set (a rig of several cameras).
    private(set) var setLatencies: [Duration] = []

    /// Creates a machine with every camera waiting for its first frame and no picture.
    ///
    /// - Parameters:
    ///   - configuration: The cameras and the rule for the set (``RigShutterMachine/Configuration/single(_:hold:stallIntervals:)`` for one).
    ///   - automatic: Whether pictures are taken automatically (`--auto`).
    ///   - autoCapture: Which views are taken automatically (each camera keeps its own coverage).
    ///   - pictureBacklog: How many pictures may wait to be written; a request beyond is refused.
    ///   - stopAfter: Stop once a camera delivered this many frames.
    ///   - journaling: Whether to hand out ``Action/journal(_:)`` for a rig's recording.
    init(configuration: RigShutterMachine.Configuration, automatic: Bool = false, autoCapture: AutoCapturePolicy = AutoCapturePolicy(),
         pictureBacklog: Int = 8, stopAfter: Int? = nil, journaling: Bool = false) {
        rigConfiguration = configuration
        rig = RigShutterMachine(configuration: configuration)
        tracks = configuration.cameras.map { _ in Track(policy: autoCapture) }
        self.automatic = automatic
        self.pictureBacklog = pictureBacklog
        self.stopAfter = stopAfter
        self.journaling = journaling
    }

    /// A machine for one camera alone, with `hold`: what a single-camera session was.
    init(hold: Duration, automatic: Bool = false, autoCapture: AutoCapturePolicy = AutoCapturePolicy(),
         pictureBacklog: Int = 8, stopAfter: Int? = nil) {
        let camera = try! RigCamera(name: "camera", frameInterval: .seconds(1) / 30)
        self.init(configuration: .single(camera, hold: hold), automatic: automatic, autoCapture: autoCapture,
                  pictureBacklog: pictureBacklog, stopAfter: stopAfter)
    }

    // MARK: - What the caller reads

    /// How many cameras.
    var cameraCount: Int { tracks.count }
    /// The index camera `camera`'s next frame gets.
    func nextIndex(of camera: Int) -> Int { tracks[camera].nextIndex }
    /// Camera `camera`'s own shutter, its held frame with its observation.
    func state(of camera: Int) -> ShutterState<FrameObservation> { observed(rig.shutter(of: camera), camera: camera) }
    /// The first camera's shutter (the shutter of a single-camera session).
    var state: ShutterState<FrameObservation> { state(of: 0) }
    /// The rig: the set a picture takes now, or why none.
    var rigState: RigState { rig.state }
    /// Camera `camera`'s counts, rates and latencies.
    func statistics(of camera: Int) -> LiveStatistics { tracks[camera].statistics }
    /// The first camera's counts (a single-camera session's).
    var statistics: LiveStatistics { tracks[0].statistics }
    /// The coverage of camera `camera`'s pictures so far.
    func coverage(of camera: Int) -> ViewCoverage { tracks[camera].policy.coverage }
    /// The first camera's enabled stretches.
    var stretches: [EnabledStretch] { rig.stretches(of: 0) }
    /// The timestamp of the newest frame detected of camera `camera`.
    func latestTime(of camera: Int = 0) -> FrameTime? { tracks[camera].lastDetected?.time }
    /// The cameras lost so far, by name.
    var lostCameras: [String] { rig.lostCameras }
    /// What a view shows with an event of camera `camera`: its counts and the pictures saved.
    func status(of camera: Int) -> LiveSession.Status {
        LiveSession.Status(statistics: tracks[camera].statistics, picturesSaved: pictures.saved)
    }

    /// Whether some camera's frame is still waiting for detection (it decides, not the clock).
    private var framesWaiting: Bool { tracks.contains { $0.nextIndex - 1 > $0.lastHandled && !$0.lost } }

    /// When, on the session clock, ``tick(at:)`` should look again for want of frames: the first
    /// camera stall ahead, and while no frame waits for detection, the first hold's end plus
    /// ``stallGrace``. `nil` when nothing is due (no frame yet, or every camera stalled and disabled).
    var clockDeadline: Duration? {
        guard let anchor else { return nil }
        var times = tracks.indices.compactMap { rig.stallTime(of: $0) }
        if !framesWaiting {
            let judged = rig.now
            times += tracks.indices.compactMap { camera in
                rig.expiry(of: camera).flatMap { expiry in judged.map { expiry > $0 } ?? true ? expiry + Self.stallGrace : nil }
            }
        }
        return times.min().map { anchor.sessionTime(at: $0) }
    }

    // MARK: - Frames

    /// A frame of `camera` arrived (before detection): it takes the next index, is counted, and
    /// counts against the camera's stall at once.
    ///
    /// - Parameters:
    ///   - frame: The frame.
    ///   - camera: Its camera.
    ///   - now: Its arrival on the session clock.
    /// - Returns: The frame's index and what the arrival changed (a camera back, the rig).
    mutating func receive(_ frame: SourceFrame, camera: Int, at now: Duration?) -> Arrival {
        let index = tracks[camera].nextIndex
        tracks[camera].nextIndex += 1
        tracks[camera].statistics.noteReceived(frame)
        if let now, anchor.map({ frame.time >= $0.time }) ?? true { anchor = Anchor(time: frame.time, arrivedAt: now) }
        return counted(index, camera: camera, actions: arrive(camera: camera, at: frame.time, dropped: frame.droppedBefore))
    }

    /// A recorded arrival of `camera` replayed (a rig's recording): as ``receive(_:camera:at:)`` with
    /// nothing but its time and the frames lost before it.
    mutating func replayArrival(camera: Int, at time: FrameTime, dropped: Int) -> Arrival {
        let index = tracks[camera].nextIndex
        tracks[camera].nextIndex += 1
        tracks[camera].statistics.noteArrival(at: time, dropped: dropped)
        return counted(index, camera: camera, actions: arrive(camera: camera, at: time, dropped: dropped))
    }

    /// Frame `index` of `camera` arrived with `actions`: the sources stop (after the actions) once
    /// the camera delivered ``stopAfter`` frames.
    private mutating func counted(_ index: Int, camera: Int, actions: [Action]) -> Arrival {
        let limitReached = stopAfter.map { tracks[camera].nextIndex >= $0 } ?? false
        guard limitReached, let stopAfter else { return Arrival(index: index, actions: actions, limitReached: false) }
        let reason = stopReason ?? "\(stopAfter) frames"
        stopReason = reason
        return Arrival(index: index, actions: actions + [.stopSources(reason: reason)], limitReached: true)
    }

    private mutating func arrive(camera: Int, at time: FrameTime, dropped: Int) -> [Action] {
        var actions: [Action] = journaling ? [.journal(.arrived(camera: camera, time: time, dropped: dropped))] : []
        let silent = tracks[camera].lastArrival.map { $0.duration(to: time) }
        tracks[camera].lastArrival = max(tracks[camera].lastArrival ?? time, time)
        let step = rig.arrived(camera: camera, at: time, dropped: dropped)
        actions += conditionChanges(backAfter: silent.map { (camera, $0) })
        if step.changed, tracks.count > 1 { actions.append(.rigChanged(step.state)) }
        return actions
    }

    /// A replayed frame of `camera` that cannot be read arrived: it is counted and takes no index;
    /// its time passes in its turn, with ``passMissing(camera:at:)``.
    mutating func receiveMissing(camera: Int = 0) {
        tracks[camera].statistics.framesMissing += 1
    }

    /// Detection finished with frame `observation.index` of `camera`.
    ///
    /// - Parameters:
    ///   - observation: The frame after detection.
    ///   - camera: Its camera.
    ///   - pixels: The frame's pixels, valid or not, for views that show every frame.
    ///   - arrivedAt: When the frame arrived, on the session clock.
    ///   - latency: From the frame's arrival to now, detection included.
    ///   - skipped: The camera's frames replaced while detection was busy so far.
    /// - Returns: `.frame` to show it, then `.save` (or `.notTaken`) when `--auto` takes it; nothing
    ///   for a frame whose timestamp goes back (it is counted and dropped).
    mutating func detected(_ observation: FrameObservation, camera: Int = 0, pixels: PixelBuffer, arrivedAt: Duration,
                           latency: Duration, skipped: Int = 0) -> [Action] {
        tracks[camera].lastHandled = observation.index
        tracks[camera].statistics.framesSkipped = skipped
        if let latest = tracks[camera].lastDetected?.time, observation.time < latest {
            tracks[camera].statistics.framesOutOfOrder += 1  // a timestamp going back cannot be replayed: drop it
            return []
        }
        guard !tracks[camera].lost else { return [] }  // its last frames, detected late
        tracks[camera].lastDetected = (observation.index, observation.time)
        let step = rig.observe(RigFrame(camera: camera, index: observation.index, time: observation.time, isValid: observation.isValid,
                                        motion: .corners(observation.detection.boardCorners)))
        if observation.isValid { tracks[camera].held[observation.index] = observation }
        letGoOfOldFrames()
        tracks[camera].statistics.noteDetected(observation, latency: latency)
        var actions: [Action] = journaling ? [.journal(.observed(camera: camera, observation: observation, pixels: pixels))] : []
        actions += conditionChanges()
        // The set a picture would take now, when this frame is in it: `--auto` looks at it.
        let set = step.state.set.flatMap { $0.member(camera: camera)?.index == observation.index ? $0 : nil }
        if let set, tracks.count > 1, let later = set.members.max(by: { $0.time < $1.time }), later.camera == camera,
           setLatencies.count < 1_000_000 {
            setLatencies.append(latency)
        }
        var taken: Picture?
        var takenView: BoardView?
        if automatic, !closed, let set, let (picture, view) = automaticPicture(of: set, camera: camera) {
            taken = picture
            takenView = view
        }
        let shutter = step.shutter ?? ShutterStep(state: rig.shutter(of: camera), changed: false)
        let phase = shutter.state.phase
        let policy = tracks[camera].policy
        let view = takenView ?? BoardView(observation.detection)
        let guidance = LiveSession.Guidance(view: view, coverage: policy.coverage.progress, gains: view.map(policy.coverage.gains(from:)),
                                            pictures: policy.coverage.views.count)
        let report = LiveShutter.Report(
            observation: observation, step: ShutterStep(state: observed(shutter.state, camera: camera), changed: shutter.changed),
            latency: latency, pixels: pixels, status: status(of: camera), camera: camera, rig: step.state, rigChanged: step.changed)
        actions.append(.frame(report, shutterChanged: tracks[camera].lastPhase != phase, guidance: guidance))
        tracks[camera].lastPhase = phase
        if let taken { actions.append(take(taken)) }
        return actions
    }

    /// Detection of frame `index` of `camera` failed (an image too small, for instance): it is
    /// counted, and the shutter does not move.
    mutating func detectionFailed(camera: Int = 0, index: Int) {
        tracks[camera].lastHandled = index
        tracks[camera].statistics.detectionFailures += 1
    }

    /// A frame of `camera` that cannot be read reached its turn: the camera's time moves on to its
    /// time as if it had shown nothing (every frame of the camera before it was detected).
    ///
    /// - Returns: `.expired` when that ran the camera's hold out.
    mutating func passMissing(camera: Int = 0, at time: FrameTime) -> [Action] {
        guard let latest = tracks[camera].lastDetected?.time, time >= latest else { return [] }
        var actions = arrive(camera: camera, at: time, dropped: 0)
        actions += advance(to: time, holds: true)
        return actions
    }

    /// Time passed with no frame: moves the session's time on to `now`: holds run out (once no
    /// frame waits for detection) and cameras stall.
    ///
    /// - Parameter now: Now, on the session clock.
    /// - Returns: `.expired` for each camera whose hold ran out, the cameras stalled, the rig.
    mutating func tick(at now: Duration) -> [Action] {
        guard let anchor else { return [] }
        return advance(to: max(anchor.time, anchor.frameTime(at: now)), holds: !framesWaiting)
    }

    /// A recorded advance of a rig's time replayed.
    mutating func replayAdvance(to time: FrameTime, arrivalsOnly: Bool) -> [Action] {
        advance(to: time, holds: !arrivalsOnly)
    }

    private mutating func advance(to time: FrameTime, holds: Bool) -> [Action] {
        var actions: [Action] = journaling ? [.journal(.advance(time, arrivalsOnly: !holds))] : []
        let before = tracks.indices.map { (rig.shutter(of: $0), rig.expiry(of: $0)) }
        let step = holds ? rig.advance(to: time) : rig.advanceArrivals(to: time)
        for camera in tracks.indices where !tracks[camera].lost {
            let (earlier, expiry) = before[camera]
            let after = rig.shutter(of: camera)
            guard earlier.isEnabled, !after.isEnabled, let expiry, let last = tracks[camera].lastDetected else { continue }
            tracks[camera].lastPhase = after.phase
            actions.append(.expired(LiveShutter.Expiry(state: observed(after, camera: camera), time: expiry, lastFrame: last.index,
                                                       status: status(of: camera), camera: camera)))
        }
        letGoOfOldFrames()
        actions += conditionChanges()
        if step.changed, tracks.count > 1 { actions.append(.rigChanged(step.state)) }
        return actions
    }

    /// Camera `camera` is gone (unplugged, its capture failed): it stops counting for good. A rig
    /// whose requirement cannot be met without it stops.
    ///
    /// - Parameters:
    ///   - camera: The camera.
    ///   - reason: Why, as its source said.
    ///   - stopping: The stop's reason when the rig cannot go on; by default, which camera and what the rig needs.
    /// - Returns: The camera's condition, the rig, and `.stopSources` when the rig cannot go on.
    mutating func lose(camera: Int, reason: String, stopping: String? = nil) -> [Action] {
        guard !tracks[camera].lost else { return [] }
        tracks[camera].lost = true
        tracks[camera].held = [:]
        var actions: [Action] = journaling ? [.journal(.lost(camera: camera))] : []
        let step = rig.lose(camera: camera)
        actions.append(.camera(camera, .lost(reason: reason)))
        if step.changed, tracks.count > 1 { actions.append(.rigChanged(step.state)) }
        guard tracks.count > 1, !rig.canMeetRequirement else { return actions }
        let name = rigConfiguration.cameras[camera].name
        let left = tracks.filter { !$0.lost }.count
        let needed = rigConfiguration.require == .all ? "all its cameras" : "\(rig.requiredCount) cameras"
        return actions + stop(reason: stopping ?? "\(name) is gone: the rig needs \(needed), \(left) left")
    }

    /// The cameras whose stalled condition changed since last told: `.camera(c, .stalled)` or
    /// `.camera(c, .back)`.
    private mutating func conditionChanges(backAfter silence: (camera: Int, duration: Duration)? = nil) -> [Action] {
        var actions: [Action] = []
        for camera in tracks.indices where !tracks[camera].lost {
            let stalled = rig.isStalled(camera)
            guard stalled != tracks[camera].stalled else { continue }
            tracks[camera].stalled = stalled
            if stalled {
                actions.append(.camera(camera, .stalled(limit: rigConfiguration.stallLimit(of: camera))))
            } else {
                let after = silence?.camera == camera ? silence?.duration : nil
                actions.append(.camera(camera, .back(after: after)))
            }
        }
        return actions
    }

    /// Lets go of valid frames no picture can take any more (older than the rig keeps).
    private mutating func letGoOfOldFrames() {
        guard let oldest = rig.oldestKept else { return }
        for camera in tracks.indices where tracks[camera].held.values.contains(where: { $0.time < oldest }) {
            tracks[camera].held = tracks[camera].held.filter { $0.value.time >= oldest }
        }
    }

    /// `shutter` with its held frame's observation.
    private func observed(_ shutter: ShutterState<Int>, camera: Int) -> ShutterState<FrameObservation> {
        shutter.replacingSnapshot { index, _ in tracks[camera].held[index] }
    }

    // MARK: - Pictures

    /// The picture of `set` with each camera's frame and shutter, or `nil` when a frame is no
    /// longer held (it cannot be: the set's frames are kept as long as the rig keeps them).
    private func picture(of set: RigSet, now: FrameTime, trigger: PictureFolder.Trigger) -> Picture? {
        var members: [Picture.Member] = []
        for member in set.members {
            guard let observation = tracks[member.camera].held[member.index] else { return nil }
            members.append(Picture.Member(camera: member.camera, observation: observation, state: state(of: member.camera),
                                          motion: member.motion))
        }
        return Picture(members: members, now: now, trigger: trigger)
    }

    /// `--auto`: `set` is taken when the frame just detected (of `camera`) completes it, its frames
    /// are newer than the last set taken automatically, fewer than the backlog wait, and the view
    /// of one of its frames is one its camera's policy takes. Records every view of it.
    private mutating func automaticPicture(of set: RigSet, camera: Int) -> (Picture, BoardView)? {
        guard let earliest = set.members.map(\.time).min(), lastAutomatic.map({ earliest > $0 }) ?? true,
              pendingSaves < pictureBacklog, let newest = tracks[camera].lastDetected?.time,
              let picture = picture(of: set, now: newest, trigger: .auto) else { return nil }
        var views: [(camera: Int, view: BoardView)] = []
        for member in picture.members {
            guard let view = BoardView(member.observation.detection) else { return nil }
            views.append((member.camera, view))
        }
        guard views.contains(where: { tracks[$0.camera].policy.reason(toTake: $0.view) != nil }) else { return nil }
        for (camera, view) in views { tracks[camera].policy.record(view) }
        lastAutomatic = set.members.map(\.time).max()
        guard let own = views.first(where: { $0.camera == camera })?.view else { return nil }
        return (picture, own)
    }

    /// A picture asked for: the set the rig holds now (for one camera its held valid frame), unless
    /// the rig is disabled or the backlog is full.
    ///
    /// - Parameter now: Now on the session clock, for cameras whose frames may stop: the session's
    ///   time moves on to it first, so that a hold that ran out by then refuses the picture though no
    ///   frame came to end it. `nil` judges by the frames alone.
    /// - Returns: What moving on to `now` changed, then `.save`, `.refuse` (disabled, or busy) or
    ///   `.notTaken` (the session is ending).
    mutating func capture(at now: Duration? = nil) -> [Action] {
        var actions: [Action] = []
        if let now, let anchor { actions += advance(to: max(anchor.time, anchor.frameTime(at: now)), holds: !framesWaiting) }
        guard let set = rig.state.set else { return actions + [refuse(refusal)] }
        guard closed || pendingSaves < pictureBacklog else { return actions + [refuse(.busy(pending: pendingSaves))] }
        let newest = set.members.compactMap { tracks[$0.camera].lastDetected?.time }.max() ?? set.members[0].time
        guard let picture = picture(of: set, now: newest, trigger: .request) else { return actions + [refuse(refusal)] }
        return actions + [take(picture)]
    }

    /// Why no picture can be taken now, in the words a refused capture says: for one camera whose
    /// frames come but show no valid detection, the single camera's ``PictureError/shutterDisabled``.
    private var refusal: PictureError {
        let reason = rig.state.refusal ?? .notSeeing([])
        // A camera alone that stalls has run out its hold first (its stall limit is longer): its
        // shutter is disabled, as a single camera's always said; only one that is gone says so.
        if tracks.count == 1, reason != .lost(camera: rigConfiguration.cameras[0].name) { return .shutterDisabled }
        return .rigDisabled(reason)
    }

    private mutating func refuse(_ error: PictureError) -> Action {
        if case .busy = error { pictures.busy += 1 } else { pictures.refused += 1 }
        return .refuse(error)
    }

    private mutating func take(_ picture: Picture) -> Action {
        guard !closed else { return .notTaken }
        // An automatic picture's views were recorded when the policy chose it.
        if picture.trigger == .request {
            for member in picture.members {
                if let view = BoardView(member.observation.detection) { tracks[member.camera].policy.record(view) }
            }
        }
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
    /// - Returns: `.stopSources` for the first stop; nothing after (its reason is kept).
    mutating func stop(reason: String) -> [Action] {
        guard stopReason == nil else { return [] }
        stopReason = reason
        return [.stopSources(reason: reason)]
    }

    /// The session is ending: no more pictures are taken (those handed out are still reported back).
    mutating func close() {
        closed = true
    }

    /// The summary of the run as the machine saw it, its cameras named by the rig, with no device,
    /// recording or calibration (what a caller keeps besides, ``LiveSession`` adds).
    func summary(skipped: Int = 0) -> LiveSummary {
        let names = rigConfiguration.cameras.map(\.name)
        return LiveSummary(stopReason: stopReason,
                           cameras: cameraSummaries(names: names, devices: names.map { _ in "" },
                                                    skipped: [skipped] + Array(repeating: 0, count: names.count - 1)),
                           pictures: pictures, recording: nil, recordFolder: nil, failure: nil, lostCameras: lostCameras,
                           setLatencies: setLatencies)
    }

    /// Each camera's counts, rates and latencies, with the frames its slot replaced while detection was busy.
    func cameraSummaries(names: [String], devices: [String], skipped: [Int]) -> [LiveSummary.Camera] {
        tracks.indices.map { camera in
            var statistics = tracks[camera].statistics
            statistics.framesSkipped = skipped[camera]
            return LiveSummary.Camera(name: names[camera], device: devices[camera], statistics: statistics,
                                      stretches: rig.stretches(of: camera), coverage: tracks[camera].policy.coverage)
        }
    }
}
