public import Calibration
import Dispatch
import FileFormats
import Foundation
public import FrameCapture
public import Pixels
public import MarkerDetection
import Synchronization

/// One live run of a rig: every camera its own capture and detection (on its own thread), one
/// ``RigShutterMachine`` for the set, and sets saved in the ``RigPictureLayout`` on request or
/// automatically.
///
/// The machine decides; this driver feeds it each camera's arrivals and detections, tells it the
/// time when no frame comes (a camera that stalls), keeps the recent valid frames a set may be made
/// of, and writes the sets. What happens is told as ``Event`` values on ``events``; ``run()``
/// returns the ``RigSummary`` once every camera stopped and every set asked for is written.
///
/// With ``Configuration/record`` the frames the rig takes and everything its machine is told go to a
/// ``RigRecorder``; ``init(replaying:configuration:)`` tells a new machine the same from a
/// ``RigRecording``, one step after another, and so reaches the same decisions.
public final class RigSession: Sendable {
    /// One camera of the rig and where its frames come from.
    public struct CameraSource: Sendable {
        /// The camera, with its name and frame interval.
        public let camera: RigCamera
        /// The source to open: a camera with its settings, a replayed folder, or frames made by the caller.
        public let request: LiveSession.SourceRequest
        /// The controls to set on a camera once it is open, before its frames flow (its exposure,
        /// focus, named controls, lock); nothing for other sources.
        public let controls: ControlSettings

        /// Describes one camera of the rig.
        public init(camera: RigCamera, request: LiveSession.SourceRequest, controls: ControlSettings = ControlSettings()) {
            self.camera = camera
            self.request = request
            self.controls = controls
        }
    }

    /// What a rig session does besides watching.
    public struct Configuration: Sendable {
        /// Finds the target in each frame.
        public var detector: MarkerDetector
        /// Which detections may enable a camera's shutter.
        public var rule: ValidityRule
        /// The folder the sets are saved to.
        public var pictures: String
        /// The rig's rules.
        public var rig: RigShutterMachine.Configuration
        /// Whether sets are taken automatically: those whose view raises any camera's coverage.
        public var automatic = false
        /// Stop once a camera delivered this many frames.
        public var stopAfter: Int?
        /// Tells the time between frames, to find stalls.
        public var clock = SessionClock.continuous
        /// A new or empty folder the frames the rig sees are recorded to (``RigRecorder``).
        public var record: String?
        /// Solve the sets as they are saved, and write the rig's files at the end (`--calibrate`,
        /// ``RigLiveCalibration``); its ``RigLiveCalibration/Configuration/pictures`` must be ``pictures``.
        public var calibration: RigLiveCalibration.Configuration?
        /// How long the cameras' automatic modes settle before a lock fixes them
        /// (``CameraSource/controls``); each camera's frames until then are dropped.
        public var controlSettling: Duration = .seconds(1)
        /// Whether a replayed recording keeps its frames' pace; when `false`, each frame follows
        /// the one before as soon as it is detected (the rig sees the same times either way).
        public var replayInRealTime = true
        /// How many sets may wait to be written before a request is refused.
        var setBacklog = 4

        /// A configuration with sets going to `pictures`, nothing automatic.
        public init(detector: MarkerDetector, rule: ValidityRule, pictures: String, rig: RigShutterMachine.Configuration) {
            self.detector = detector
            self.rule = rule
            self.pictures = pictures
            self.rig = rig
        }
    }

    /// Something that happened during the run, in the order it happened.
    public enum Event: Sendable {
        /// A camera's frame was detected; the rig after it, and whether it turned or its reason changed.
        /// `pixels` are the frame's, valid or not (the observation keeps a valid frame's only), for the views.
        case frame(camera: Int, observation: FrameObservation, rig: RigState, changed: Bool, pixels: PixelBuffer)
        /// The rig changed with no frame (a hold ran out, a camera stalled).
        case rigChanged(RigState)
        /// A set was saved.
        case setSaved(RigPictureFolder.Saved, trigger: PictureFolder.Trigger)
        /// A set asked for was refused, and why.
        case setRefused(RigRefusal)
        /// A set could not be saved (nothing of it is left).
        case setFailed(PictureError)
        /// A camera is gone (unplugged, its capture failed): the rig goes on without it, or stops.
        case cameraLost(camera: String, reason: String)
        /// A camera's controls were set, by their `v4l2-ctl` names, as read back: once it is open,
        /// and again once `locked` (``CameraSource/controls``).
        case cameraControls(camera: String, values: [String: Int64], locked: Bool)
        /// A background solve of the sets so far ended (``Configuration/calibration``).
        case calibrated(RigLiveCalibration.Update)
        /// A background solve of the sets so far failed, and why.
        case calibrationFailed(CalibrationError)
    }

    /// What became of ``requestSet()``.
    public enum SetRequest: Sendable, Equatable {
        /// The set is being saved; ``Event/setSaved(_:trigger:)`` or ``Event/setFailed(_:)`` follows.
        case accepted
        /// The rig is disabled, and why.
        case refused(RigRefusal)
        /// Too many sets wait to be written.
        case busy
        /// The session is ending.
        case notTaken
    }

    /// Everything the cameras' threads, the stall watch and requests share, under one lock.
    private struct Shared: Sendable {
        var machine: RigShutterMachine
        /// Each camera's recent valid frames, with their pixels, by index.
        var held: [[Int: FrameObservation]]
        /// Where what the machine is told is recorded.
        var journal: RigRecorder?
        /// In a replay, each camera's frames' indexes by their times, as they arrived.
        var arrivalIndexes: [[FrameTime: Int]] = []
        /// A replay waiting for one camera's frame to be detected.
        var waiting: (camera: Int, index: Int, resume: CheckedContinuation<Void, Never>)?
        var nextIndex: [Int]
        /// The index of the last frame each camera's detection finished with.
        var lastHandled: [Int]
        var cameras: [RigSummary.Camera]
        var sets = RigSummary.Sets()
        var policies: [AutoCapturePolicy]
        /// The newest frame's time and its arrival on the session clock, relating the two clocks.
        var anchor: (time: FrameTime, arrivedAt: Duration)?
        var lastAutomatic: FrameTime?
        var pending = 0
        var closed = false
        var stopReason: String?
        var failures: [String] = []
        /// From the arrival of a set's later frame to the rig's state after its detection, for
        /// each frame that completed a set.
        var setLatencies: [Duration] = []

        func frameTime(at now: Duration) -> FrameTime? { anchor.map { $0.time + (now - $0.arrivedAt) } }

        /// Moves the machine's time on to `time` with no frame: holds too when detection has
        /// caught up with every camera's frames, only stalls while frames still wait (they decide).
        mutating func advance(to time: FrameTime) -> RigShutterMachine.Step {
            let waiting = zip(nextIndex, lastHandled).contains { $0 - 1 > $1 }
            journal?.noteAdvance(to: time, arrivalsOnly: waiting)
            return waiting ? machine.advanceArrivals(to: time) : machine.advance(to: time)
        }
    }

    /// The cameras.
    public let cameras: [CameraSource]
    /// Each camera's source, in the rig's order.
    public let sources: [LiveSource]
    /// What happens, in order; ends when ``run()`` returns.
    public let events: AsyncStream<Event>
    /// The configuration.
    public let configuration: Configuration
    private let continuation: AsyncStream<Event>.Continuation
    private let shutters: [LiveShutter]
    private let shared: Mutex<Shared>
    private let recorder: RigRecorder?
    /// The recording replayed, when this session replays one.
    public let recording: RigRecording?
    private let pictures: Mutex<RigPictureFolder>
    private let writer = DispatchQueue(label: "marker-shutter sets")
    /// Solves the sets in the background (``Configuration/calibration``).
    private let calibration: RigLiveCalibration?

    /// Prepares the picture folder and opens every camera, in the rig's order.
    ///
    /// - Throws: ``LiveSessionError`` naming what could not be prepared (the cameras opened so far
    ///   are closed again).
    public convenience init(cameras: [CameraSource], configuration: Configuration) throws(LiveSessionError) {
        try self.init(cameras: cameras, recording: nil, configuration: configuration)
    }

    /// Prepares a replay of a rig's recording: its frames go to the rig machine in the recorded
    /// order with their recorded times, each detected before the next is given (none skipped), so
    /// that the rig's timeline is the one the recording saw. `configuration.rig.cameras` must be
    /// the recording's cameras.
    ///
    /// - Throws: ``LiveSessionError`` naming what could not be prepared.
    public convenience init(replaying recording: RigRecording, configuration: Configuration) throws(LiveSessionError) {
        let sources = recording.cameras.map { camera in
            CameraSource(camera: camera, request: .source(.items(
                named: (recording.folder as NSString).appendingPathComponent(camera.name),
                AsyncThrowingStream { $0.finish() }, stop: {})))
        }
        try self.init(cameras: sources, recording: recording, configuration: configuration)
    }

    private init(cameras: [CameraSource], recording: RigRecording?, configuration: Configuration) throws(LiveSessionError) {
        precondition(cameras.map(\.camera) == configuration.rig.cameras, "the sources must be the rig's cameras, in its order")
        self.cameras = cameras
        self.configuration = configuration
        self.recording = recording
        (events, continuation) = AsyncStream.makeStream(of: Event.self)
        let told = continuation
        do {
            calibration = try configuration.calibration.map { settings throws(CalibrationError) in
                try RigLiveCalibration(configuration: settings, pattern: configuration.detector.pattern) { outcome in
                    switch outcome {
                    case .success(let update): told.yield(.calibrated(update))
                    case .failure(let error): told.yield(.calibrationFailed(error))
                    }
                }
            }
        } catch {
            throw .calibration(error)
        }
        // What is made here is removed again when the session cannot start: the recording's own
        // files, and the folders this session made while they are empty.
        let made = [configuration.pictures, configuration.record].compactMap { $0 }.filter { !FileManager.default.fileExists(atPath: $0) }
        var prepared: RigRecorder?
        var started = false
        defer {
            if !started {
                prepared?.discard()
                for folder in made.reversed() { _ = rmdir(folder) }
            }
        }
        do {
            pictures = Mutex(try RigPictureFolder(path: configuration.pictures, pattern: configuration.detector.pattern))
        } catch {
            throw .pictures(error)
        }
        do {
            prepared = try configuration.record.map { path throws(OutputError) in
                try RigRecorder(folder: path, cameras: configuration.rig.cameras)
            }
            recorder = prepared
        } catch where error.errno == ENOTEMPTY {
            throw .recordingFolderNotEmpty(configuration.record ?? "")
        } catch {
            throw .recording(error)
        }
        // Every camera is opened, with its controls set, before any streams.
        var opened: [Opened] = []
        for source in cameras {
            do throws(LiveSessionError) {
                opened.append(try Self.open(source, settling: configuration.controlSettling, continuation: continuation))
            } catch {
                for earlier in opened { if case .camera(let camera) = earlier { camera.close() } }
                throw error
            }
        }
        sources = opened.map { opened in
            switch opened {
            case .camera(let camera): camera.source()
            case .source(let source): source
            }
        }
        shutters = cameras.map { _ in
            LiveShutter(detector: configuration.detector, rule: configuration.rule,
                        tracker: configuration.detector.mode == .fast ? RegionTracker() : nil)
        }
        let count = cameras.count
        let counts = zip(cameras, sources).map { RigSummary.Camera(name: $0.camera.name, device: $1.name) }
        shared = Mutex(Shared(machine: RigShutterMachine(configuration: configuration.rig), held: Array(repeating: [:], count: count),
                              journal: recorder, arrivalIndexes: Array(repeating: [:], count: count),
                              nextIndex: Array(repeating: 0, count: count), lastHandled: Array(repeating: -1, count: count),
                              cameras: counts,
                              policies: Array(repeating: AutoCapturePolicy(), count: count)))
        started = true
    }

    /// A camera opened but not streaming yet, or another source.
    private enum Opened {
        case camera(OpenedCamera)
        case source(LiveSource)
    }

    private static func open(_ source: CameraSource, settling: Duration,
                             continuation: AsyncStream<Event>.Continuation) throws(LiveSessionError) -> Opened {
        switch source.request {
        case .camera(let path, let settings):
            let name = source.camera.name
            return .camera(try OpenedCamera(path: path, settings: settings, controls: source.controls, settling: settling) { values, locked in
                continuation.yield(.cameraControls(camera: name, values: values, locked: locked))
            })
        case .replay(let path, let framesPerSecond):
            do {
                return .source(.replay(try FrameFolder(path: path, framesPerSecond: framesPerSecond)))
            } catch {
                throw .replay("\(error)")
            }
        case .source(let given):
            return .source(given)
        }
    }

    /// The rig as it stands.
    public var state: RigState { shared.withLock { $0.machine.state } }

    /// Ends the session: every camera stops, and everything in progress completes.
    ///
    /// - Parameter reason: Said in the summary; only the first stop's reason is kept.
    public func stop(reason: String) {
        // A replay waiting for a frame to be detected is let go: once the cameras stop, nothing
        // else would (the page's Stop or SIGTERM left it waiting for good).
        let (first, waiting) = shared.withLock { state -> (Bool, CheckedContinuation<Void, Never>?) in
            guard state.stopReason == nil else { return (false, nil) }
            state.stopReason = reason
            let waiting = state.waiting?.resume
            state.waiting = nil
            return (true, waiting)
        }
        if first { for source in sources { source.stop() } }
        waiting?.resume()
    }

    /// Takes the set the rig holds now, or says why not.
    @discardableResult
    public func requestSet() -> SetRequest {
        let now = configuration.clock.now()
        return shared.withLock { state in
            if let time = state.frameTime(at: now), sources.contains(where: \.mayStall) {
                _ = state.advance(to: time)
            }
            guard !state.closed else { return .notTaken }
            guard let set = state.machine.state.set else {
                let refusal = state.machine.state.refusal ?? .notSeeing([])
                state.sets.refused += 1
                continuation.yield(.setRefused(refusal))
                return .refused(refusal)
            }
            guard state.pending < configuration.setBacklog else {
                state.sets.busy += 1
                return .busy
            }
            take(set, trigger: .request, in: &state)
            return .accepted
        }
    }

    /// Queues the set's frames to be written. The frames the machine may put in a set are held
    /// here as long as it keeps them (both let go of frames older than the hold and the tolerance).
    private func take(_ set: RigSet, trigger: PictureFolder.Trigger, in state: inout Shared) {
        var frames: [RigPictureFolder.Frame] = []
        for member in set.members {
            guard let observation = state.held[member.camera][member.index] else {
                preconditionFailure("frame \(member.index) of camera \(member.camera) is in the set but not held")
            }
            frames.append(RigPictureFolder.Frame(camera: cameras[member.camera].camera.name, device: sources[member.camera].name,
                                                 observation: observation, motion: member.motion))
        }
        if trigger == .request {
            for frame in frames {
                if let view = BoardView(frame.observation.detection) {
                    state.policies[cameras.firstIndex { $0.camera.name == frame.camera }!].record(view)
                }
            }
        }
        state.pending += 1
        let tolerance = configuration.rig.syncTolerance
        let limit = configuration.rig.maxMotion
        writer.async { [self, frames] in
            do throws(PictureError) {
                let saved = try pictures.withLock { folder throws(PictureError) in
                    try folder.save(frames, trigger: trigger, syncTolerance: tolerance, maxMotion: limit)
                }
                shared.withLock {
                    $0.pending -= 1
                    $0.sets.saved += 1
                }
                continuation.yield(.setSaved(saved, trigger: trigger))
                calibration?.setSaved()
            } catch {
                shared.withLock {
                    $0.pending -= 1
                    $0.sets.failed += 1
                }
                continuation.yield(.setFailed(error))
            }
        }
    }

    /// Runs until every camera ends, ``Configuration/stopAfter`` frames, ``stop(reason:)``, or the
    /// loss of a camera the requirement cannot do without; every set asked for is written when it returns.
    public func run() async -> RigSummary {
        for (camera, shutter) in shutters.enumerated() {
            shutter.start { [self] outcome in handle(outcome, camera: camera) }
        }
        let watch = sources.contains(where: \.mayStall) ? Task { await watchStalls() } : nil
        if let recording {
            await replay(recording)
        } else {
            await withTaskGroup(of: Void.self) { group in
                for camera in sources.indices {
                    group.addTask { [self] in await pump(camera: camera) }
                }
            }
        }
        for shutter in shutters { shutter.finish() }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async { [shutters] in
                for shutter in shutters { shutter.waitUntilDone() }
                done.resume()
            }
        }
        watch?.cancel()
        await watch?.value
        shared.withLock { $0.closed = true }
        writer.sync {}
        let calibrated = await finishCalibration()
        continuation.finish()
        var summary = shared.withLock { state in
            var cameras = state.cameras
            for index in cameras.indices { cameras[index].skipped = shutters[index].framesSkipped }
            return RigSummary(stopReason: state.stopReason, cameras: cameras, sets: state.sets,
                              lostCameras: state.machine.lostCameras, failures: state.failures, setLatencies: state.setLatencies)
        }
        if let recorder { summary.recording = (recorder.folder, recorder.finish()) }
        summary.calibration = calibrated
        return summary
    }

    /// Solves every set saved once more if the last background solve missed some, and writes the
    /// rig's files (off the cooperative threads: a solve takes seconds); `nil` without ``Configuration/calibration``.
    private func finishCalibration() async -> RigSummary.Calibration? {
        guard let calibration else { return nil }
        return await withCheckedContinuation { (done: CheckedContinuation<RigSummary.Calibration?, Never>) in
            DispatchQueue.global().async {
                let folder = calibration.configuration.folder
                switch calibration.finish() {
                case .success(let update):
                    do throws(CalibrationError) {
                        let files = try calibration.write(update)
                        done.resume(returning: RigSummary.Calibration(update: update, folder: folder, files: files, failure: nil))
                    } catch {
                        done.resume(returning: RigSummary.Calibration(update: update, folder: folder, files: [], failure: error))
                    }
                case .failure(let error):
                    done.resume(returning: RigSummary.Calibration(update: nil, folder: folder, files: [], failure: error))
                }
            }
        }
    }

    /// Reads camera `camera`'s frames until its source ends; a camera that fails is lost.
    private func pump(camera: Int) async {
        let source = sources[camera]
        do {
            for try await item in source.items {
                guard case .frame(let frame) = item else { continue }
                let (_, limitReached) = arrive(frame, camera: camera)
                if limitReached {
                    stop(reason: "\(configuration.stopAfter ?? 0) frames")
                    break
                }
            }
        } catch {
            let name = cameras[camera].camera.name
            let reason = "\(error)"
            let stopping = shared.withLock { state -> String? in
                state.failures.append("\(name): \(reason)")
                state.journal?.noteLost(camera: camera)
                let step = state.machine.lose(camera: camera)
                continuation.yield(.cameraLost(camera: name, reason: reason))
                if step.changed { continuation.yield(.rigChanged(step.state)) }
                guard !state.machine.canMeetRequirement else { return nil }
                let left = state.machine.configuration.cameras.count - state.machine.lostCameras.count
                return "\(name) is gone: the rig needs \(configuration.rig.require == .all ? "all its cameras" : "\(state.machine.requiredCount) cameras"), \(left) left"
            }
            if let stopping { stop(reason: stopping) }
        }
    }

    /// Counts camera `camera`'s frame in, tells the machine it arrived and hands it to detection.
    ///
    /// - Returns: The frame's index, and whether ``Configuration/stopAfter`` is reached with it.
    private func arrive(_ frame: SourceFrame, camera: Int) -> (index: Int, limitReached: Bool) {
        let now = configuration.clock.now()
        let (index, limitReached) = shared.withLock { state -> (Int, Bool) in
            let index = state.nextIndex[camera]
            state.nextIndex[camera] += 1
            state.cameras[camera].received += 1
            state.cameras[camera].lostByCamera += frame.droppedBefore
            if state.anchor.map({ frame.time >= $0.time }) ?? true { state.anchor = (frame.time, now) }
            state.journal?.noteArrival(camera: camera, at: frame.time, dropped: frame.droppedBefore)
            let step = state.machine.arrived(camera: camera, at: frame.time, dropped: frame.droppedBefore)
            if step.changed { continuation.yield(.rigChanged(step.state)) }
            return (index, configuration.stopAfter.map { state.nextIndex[camera] >= $0 } ?? false)
        }
        shutters[camera].submit(frame, index: index, arrivedAt: now)
        return (index, limitReached)
    }

    /// Tells the rig what the recording says it was told, in order: arrivals, time moving on and
    /// cameras lost as they were, each frame detected before the next step, at the recording's pace
    /// when ``Configuration/replayInRealTime``.
    private func replay(_ recording: RigRecording) async {
        let clock = configuration.clock
        let start = clock.now()
        guard let first = recording.frames.first?.time else { return }
        for step in recording.steps {
            if shared.withLock({ $0.stopReason != nil }) { break }
            let time: FrameTime
            switch step {
            case .arrived(_, let t, _), .advance(let t), .advanceArrivals(let t): time = t
            case .observed(let frame): time = recording.frames[frame].time
            case .lost: time = first
            }
            if configuration.replayInRealTime, time > first {
                do { try await clock.sleep(start + first.duration(to: time)) } catch { break }
            }
            switch step {
            case .arrived(let camera, let time, let dropped):
                let limitReached = shared.withLock { state -> Bool in
                    let index = state.nextIndex[camera]
                    state.nextIndex[camera] += 1
                    state.cameras[camera].received += 1
                    state.arrivalIndexes[camera][time] = index
                    state.cameras[camera].lostByCamera += dropped
                    let step = state.machine.arrived(camera: camera, at: time, dropped: dropped)
                    if step.changed { continuation.yield(.rigChanged(step.state)) }
                    return configuration.stopAfter.map { state.nextIndex[camera] >= $0 } ?? false
                }
                if limitReached { stop(reason: "\(configuration.stopAfter ?? 0) frames") }
            case .advance(let time), .advanceArrivals(let time):
                shared.withLock { state in
                    let step = if case .advance = step { state.machine.advance(to: time) } else { state.machine.advanceArrivals(to: time) }
                    if step.changed { continuation.yield(.rigChanged(step.state)) }
                }
            case .lost(let camera):
                let name = cameras[camera].camera.name
                let stopping = shared.withLock { state -> Bool in
                    let step = state.machine.lose(camera: camera)
                    continuation.yield(.cameraLost(camera: name, reason: "lost in the recording"))
                    if step.changed { continuation.yield(.rigChanged(step.state)) }
                    return !state.machine.canMeetRequirement
                }
                if stopping { stop(reason: "\(name) is gone in the recording") }
            case .observed(let number):
                let frame = recording.frames[number]
                let pixels: PixelBuffer
                do {
                    pixels = try frame.readPixels()
                } catch {
                    let name = cameras[frame.camera].camera.name
                    shared.withLock { $0.failures.append("\(name): \(frame.path): \(error)") }
                    stop(reason: "\(frame.path) cannot be read: \(error)")
                    break
                }
                let source = SourceFrame(pixels: pixels, time: frame.time, sequence: frame.sequence, file: frame.path)
                    .with(controls: frame.controls)
                let index = shared.withLock { state in
                    state.arrivalIndexes[frame.camera].removeValue(forKey: frame.time) ?? state.nextIndex[frame.camera] - 1
                }
                await withCheckedContinuation { (resume: CheckedContinuation<Void, Never>) in
                    let stopped = shared.withLock { state -> Bool in
                        guard state.stopReason == nil else { return true }
                        state.waiting = (frame.camera, index, resume)
                        return false
                    }
                    if stopped {
                        resume.resume()
                    } else {
                        shutters[frame.camera].submit(source, index: index, arrivedAt: clock.now())
                    }
                }
            }
        }
    }

    /// Lets a replay waiting for camera `camera`'s frame `index` go on.
    private func release(camera: Int, index: Int, in state: inout Shared) {
        guard let waiting = state.waiting, waiting.camera == camera, waiting.index <= index else { return }
        state.waiting = nil
        waiting.resume.resume()
    }

    private func handle(_ outcome: LiveShutter.Outcome, camera: Int) {
        guard case .detected(let observation, let pixels, _, let latency) = outcome else {
            if case .failed(let index) = outcome {
                shared.withLock {
                    $0.cameras[camera].detectionFailures += 1
                    $0.lastHandled[camera] = index
                    release(camera: camera, index: index, in: &$0)
                }
            }
            return
        }
        shared.withLock { state in
            state.lastHandled[camera] = observation.index
            let frame = RigFrame(camera: camera, index: observation.index, time: observation.time, isValid: observation.isValid,
                                 motion: .corners(observation.detection.boardCorners))
            let step = state.machine.observe(frame)
            state.cameras[camera].detected += 1
            if observation.isValid { state.held[camera][observation.index] = observation }
            if let oldest = state.machine.oldestKept {
                for index in state.held.indices { state.held[index] = state.held[index].filter { $0.value.time >= oldest } }
            }
            if let set = step.state.set, let later = set.members.max(by: { $0.time < $1.time }),
               later.camera == camera, later.index == observation.index, state.setLatencies.count < 1_000_000 {
                state.setLatencies.append(latency)
            }
            continuation.yield(.frame(camera: camera, observation: observation, rig: step.state, changed: step.changed, pixels: pixels))
            if configuration.automatic, !state.closed, let set = step.state.set { considerAutomatic(set, in: &state) }
            if let recorder {
                recorder.record(camera: camera, pixels: pixels, time: observation.time, sequence: observation.sequence,
                                controls: observation.controls)
            }
            release(camera: camera, index: observation.index, in: &state)
        }
    }

    /// Takes `set` when its frames are newer than the last automatic set and the view of any of
    /// them raises that camera's coverage (or differs enough from its pictures so far).
    private func considerAutomatic(_ set: RigSet, in state: inout Shared) {
        guard let earliest = set.members.map(\.time).min(), state.lastAutomatic.map({ earliest > $0 }) ?? true,
              state.pending < configuration.setBacklog else { return }
        var views: [(camera: Int, view: BoardView)] = []
        var wanted = false
        for member in set.members {
            guard let observation = state.held[member.camera][member.index], let view = BoardView(observation.detection) else { return }
            views.append((member.camera, view))
            if state.policies[member.camera].reason(toTake: view) != nil { wanted = true }
        }
        guard wanted else { return }
        take(set, trigger: .auto, in: &state)
        for (camera, view) in views { state.policies[camera].record(view) }
        state.lastAutomatic = set.members.map(\.time).max()
    }

    /// Tells the machine the time when no frame comes: sleeps until its next deadline (at most
    /// 50 ms at a time, so that a deadline a frame moved is looked at again soon).
    private func watchStalls() async {
        let clock = configuration.clock
        while !Task.isCancelled {
            let now = clock.now()
            let due = shared.withLock { state -> Duration? in
                guard let deadline = state.machine.nextDeadline, let anchor = state.anchor else { return nil }
                return anchor.arrivedAt + anchor.time.duration(to: deadline) + .milliseconds(5)
            }
            let wake = min(due ?? now + .milliseconds(50), now + .milliseconds(50))
            do { try await clock.sleep(max(wake, now + .milliseconds(1))) } catch { return }
            let later = clock.now()
            shared.withLock { state in
                guard let time = state.frameTime(at: later) else { return }
                let step = state.advance(to: time)
                if step.changed { continuation.yield(.rigChanged(step.state)) }
            }
        }
    }
}
