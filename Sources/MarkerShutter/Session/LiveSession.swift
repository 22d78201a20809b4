public import Calibration
import Dispatch
public import FileFormats
import Foundation
public import MarkerDetection
public import Pixels
import Synchronization

/// One live run of one camera or a rig of several: each camera's frames go through detection on a
/// thread of their own, one ``LiveSessionMachine`` decides for them all (one camera is a rig of
/// one), pictures (a rig's sets) are taken on request or automatically, every frame may be
/// recorded, and the run stops at the sources' end, after a number of frames, when told to, or
/// when a camera a rig needs is gone. A camera that stalls ends nothing: it is marked stalled, and
/// its frames bring it back.
///
/// Cameras come through the capture-backend seam: a ``FrameSource`` each, opened from a
/// ``SourceRequest`` (a camera through ``Configuration/backend``, a recorded folder, or a source
/// the caller made). What happens is told as ``Event`` values on ``events``, each carrying its
/// camera; ``run()`` returns the ``LiveSummary``.
///
/// ```swift
/// let session = try LiveSession(source: .replay(path: "Samples/charuco-session", framesPerSecond: 30), configuration: configuration)
/// let printer = Task { for await event in session.events { print(event) } }
/// let summary = await session.run()
/// await printer.value
/// ```
public final class LiveSession: Sendable {
    /// Which source a camera's frames come from.
    public enum SourceRequest: Sendable {
        /// A camera, opened through ``Configuration/backend`` with this request.
        case camera(path: String, request: CameraRequest)
        /// A recorded folder replayed at its own pace (`framesPerSecond` when it has no manifest).
        case replay(path: String, framesPerSecond: Double)
        /// A source made by the caller (frames handed over, a bag's topic, another backend's camera).
        case source(any FrameSource)
    }

    /// One camera of the session: its name and where its frames come from.
    public struct Camera: Sendable {
        /// Its name, as a rig's messages, folders and sidecars name it (letters, digits, `-`, `_`).
        public let name: String
        /// Its source.
        public let source: SourceRequest

        /// Describes a camera.
        package init(name: String, source: SourceRequest) {
            self.name = name
            self.source = source
        }
    }

    /// What a session does besides watching.
    public struct Configuration: Sendable {
        /// Finds the target in each frame.
        public var detector: MarkerDetector
        /// Which detections may enable a camera's shutter.
        public var rule: ValidityRule
        /// How long a lost detection is held.
        public var hold: Duration
        /// The folder pictures are saved to (a rig's sets, in the ``RigPictureLayout``).
        public var pictures: String
        /// For several cameras, the rig: its cameras (those of the session, in its order) and its
        /// rules; `nil` for one camera.
        package var rig: RigShutterMachine.Configuration?
        /// Whether pictures are taken automatically, of the views `autoCapture` chooses (for a rig,
        /// the sets whose view raises any camera's coverage).
        public var automatic = false
        /// Which views `automatic` takes (those that raise the coverage first); it also keeps the
        /// coverage of every picture taken, shown in each frame's ``Guidance``.
        var autoCapture = AutoCapturePolicy()
        /// Solve one camera's pictures as they are taken and write the calibration at the end (`--calibrate`).
        package var calibration: LiveCalibration.Configuration?
        /// Solve a rig's sets as they are saved and write the rig's files at the end (`--calibrate`,
        /// ``RigLiveCalibration``); its ``RigLiveCalibration/Configuration/pictures`` must be ``pictures``.
        package var rigCalibration: RigLiveCalibration.Configuration?
        /// A new or empty folder every frame is recorded to: one camera's with a `manifest.jsonl`
        /// (``FrameRecorder``), a rig's in its layout (``RigRecorder``).
        public var record: String?
        /// Stop once a camera delivered this many frames.
        public var stopAfter: Int?
        /// Tells the time between frames, to end a hold and mark a stall when a camera's frames stop.
        public var clock = SessionClock.continuous
        /// Opens the cameras asked for with ``SourceRequest/camera(path:request:)``.
        public var backend: any CameraBackend = V4L2Backend()
        /// With ``CameraControls/lock``: how long (in frame time) the automatic modes settle before they are fixed.
        public var controlSettling: Duration = .seconds(1)
        /// Whether a replayed rig recording keeps its frames' pace; when `false`, each frame follows
        /// the one before as soon as it is detected (the rig sees the same times either way).
        package var replayInRealTime = true
        /// How many pictures (a rig's sets) may wait to be written. A request beyond them is refused
        /// (``PictureError/busy(pending:)``): each waiting picture holds its frames, so a flood of
        /// requests (a key held down, a script posting to the browser view) must not queue them without end.
        var pictureBacklog = 8

        /// A configuration with pictures going to `pictures`, nothing automatic and no recording.
        public init(detector: MarkerDetector, rule: ValidityRule, hold: Duration, pictures: String) {
            self.detector = detector
            self.rule = rule
            self.hold = hold
            self.pictures = pictures
        }
    }

    /// How a camera is doing, told once per change.
    public enum CameraCondition: Sendable, Equatable {
        /// No frame came for longer than `limit` (the camera's stall limit): it does not count
        /// until its frames come again.
        case stalled(limit: Duration)
        /// Its frames come again, `after` (when known) since the one before.
        case back(after: Duration?)
        /// It is gone (unplugged, its capture failed), and why.
        case lost(reason: String)
    }

    /// Something that happened during the run, in the order it happened.
    public enum Event: Sendable {
        /// A camera's frame was detected (``LiveShutter/Report/camera``); `shutterChanged` when its
        /// shutter's phase differs from its frame before. The report carries the rig after it.
        case frame(LiveShutter.Report, shutterChanged: Bool, guidance: Guidance)
        /// No frame of a camera came before its hold ran out (a camera that stalled, replayed frames
        /// that cannot be read): its shutter is disabled.
        case shutterExpired(LiveShutter.Expiry)
        /// A rig of several cameras turned, or its reason changed, with no frame detected (a hold
        /// ran out, a camera stalled or came back, a stall grew longer).
        case rigChanged(RigState)
        /// A camera stalled, came back or is gone.
        case cameraChanged(camera: Int, CameraCondition)
        /// A picture (a rig's set) was saved.
        case pictureSaved(SavedPicture)
        /// A picture was asked for while the shutter (the rig) was disabled, or while
        /// ``Configuration/pictureBacklog`` pictures waited to be written.
        case pictureRefused(PictureError)
        /// A picture could not be saved (nothing of a set is left).
        case pictureFailed(PictureError)
        /// A picture was asked for while the session was ending.
        case pictureNotTaken
        /// The recording stopped; the frames recorded so far are kept.
        case recordingStopped(OutputError)
        /// A replayed frame of a camera could not be read and was skipped; its time passed all the same.
        case frameSkipped(camera: Int, file: String, reason: String)
        /// A background solve of one camera's pictures so far ended (``Configuration/calibration``).
        case calibrated(LiveCalibration.Update)
        /// A background solve of a rig's sets so far ended (``Configuration/rigCalibration``).
        case rigCalibrated(RigLiveCalibration.Update)
        /// A background solve failed (OpenCV could not solve, too few usable views).
        case calibrationFailed(CalibrationError)
        /// One camera's calibration files were written at the end: their paths.
        case calibrationWritten([String])
        /// One camera's calibration files could not be written at the end (too few views, a folder
        /// that cannot be written): nothing was.
        case calibrationNotWritten(CalibrationError)
        /// A camera's controls set, by name, as read back: before its first frame, and again once
        /// `locked` (``CameraControls``).
        case cameraControls(camera: Int, [String: Int64], locked: Bool)
    }

    /// What a frame shows for calibration, as ROS `camera_calibration` shows it: where and how the
    /// target is seen, and how far the pictures taken so far (this frame's included) cover each measure.
    public struct Guidance: Sendable {
        /// The target's view in this frame; `nil` without one (fewer than four points found).
        public let view: BoardView?
        /// How far the camera's pictures taken so far span each measure, 0...1 each.
        public let coverage: ViewCoverage.Progress
        /// How much a picture of this view would raise each measure's coverage now (`nil` without a view).
        public let gains: ViewCoverage.Measures?
        /// The pictures the coverage is made of.
        public let pictures: Int
    }

    /// A camera's counts as they stood at an event, and the pictures saved: what the status lines
    /// show, so that no view has to ask the session back.
    public struct Status: Sendable {
        /// Counts, rates and latencies so far.
        public var statistics = LiveStatistics()
        /// Pictures (a rig's sets) saved so far.
        public var picturesSaved = 0
    }

    /// A picture saved (one camera's frame, or a rig's set), with the frame it shows.
    public struct SavedPicture: Sendable {
        /// The picture's number (`capture_0003` or `set_0003` is 3).
        public let number: Int
        /// Each camera's picture, in the rig's order (one for one camera).
        public let images: [String]
        /// The sidecar: one camera's picture's, or the set's.
        public let sidecar: String
        /// The (first) frame's index.
        public let frameIndex: Int
        /// How long the frame had been held when the picture was taken (nil while the shutter was
        /// enabled, and for a set).
        public let holdAge: Duration?
        /// Who asked.
        public let trigger: PictureFolder.Trigger
        /// The (first) frame saved, when its pixels were kept (for a thumbnail).
        public let pixels: PixelBuffer?
        /// The largest time difference between a set's frames, in seconds (0 for one camera).
        public let largestDifference: Double

        /// The (first) camera's picture.
        public var image: String { images[0] }
    }

    /// What became of ``requestPicture()``: the same answer its events tell, given at once.
    public enum PictureRequest: Sendable, Equatable {
        /// The held frame (the set) is being saved; ``Event/pictureSaved(_:)`` or ``Event/pictureFailed(_:)`` follows.
        case accepted(frameIndex: Int)
        /// The shutter (the rig) is disabled, or too many pictures wait to be written, and why (as
        /// ``Event/pictureRefused(_:)`` tells it).
        case refused(PictureError)
        /// The session is ending and takes no more pictures.
        case notTaken
    }

    /// The cameras, in the session's order.
    public let cameras: [Camera]
    /// Each camera's source, in the session's order.
    package let sources: [any FrameSource]
    /// The rig's recording replayed, when this session replays one.
    package let recording: RigRecording?
    /// What happens, in order; ends when ``run()`` returns.
    public let events: AsyncStream<Event>
    /// The configuration.
    public let configuration: Configuration
    /// The cameras and the rule for the set (for one camera, its shutter alone).
    package let rig: RigShutterMachine.Configuration
    private let continuation: AsyncStream<Event>.Continuation
    /// Detection, one thread per camera.
    private let shutters: [LiveShutter]
    /// Every decision of the run, under one lock.
    private let machine: Mutex<LiveSessionMachine>
    private let pictures: Mutex<PictureWriter>
    private let recorder: Recorder?
    /// Solves the pictures in the background (`--calibrate`).
    private let calibration: Calibrator?
    /// Whether the clock is watched: some camera's frames may stop.
    private let clocked: Bool
    /// Rung after each frame, so that the clock task looks at the new deadline.
    private let doorbell: (stream: AsyncStream<Void>, continuation: AsyncStream<Void>.Continuation)
    /// A rig's replay waiting for one camera's frame to be detected.
    private let waiting = Mutex<(camera: Int, index: Int, resume: CheckedContinuation<Void, Never>)?>(nil)
    /// A rig's replay, cancelled when the session stops (it may be sleeping until a frame that is
    /// due in an hour). Set and cancelled with the machine's lock held.
    private let replaying = Mutex<Task<Void, Never>?>(nil)
    /// The cameras' failures, each naming its camera, and a single camera's own.
    private let failures = Mutex<(rig: [String], single: String?)>(([], nil))
    /// Pictures are encoded and written here, one at a time, off the detection threads.
    private let writer = DispatchQueue(label: "marker-shutter pictures")
    /// The picture and recording folders this session made (removed when the run fails with them empty).
    private let foldersMade: [String]

    /// Prepares a session of one camera.
    ///
    /// - Throws: ``LiveSessionError`` naming what could not be prepared.
    public convenience init(source request: SourceRequest, configuration: Configuration) throws(LiveSessionError) {
        try self.init(cameras: [Camera(name: "camera", source: request)], configuration: configuration)
    }

    /// Prepares the picture folder, the recording folder and every camera's source, in that order;
    /// every camera is opened, its controls set, before any streams.
    ///
    /// - Parameters:
    ///   - cameras: One camera, or the rig's (``Configuration/rig``'s, in its order).
    ///   - configuration: What the session does.
    /// - Throws: ``LiveSessionError`` naming what could not be prepared (the cameras opened so far
    ///   are closed again).
    package convenience init(cameras: [Camera], configuration: Configuration) throws(LiveSessionError) {
        try self.init(cameras: cameras, recording: nil, configuration: configuration)
    }

    /// Prepares a replay of a rig's recording: its frames go to the machine in the recorded order
    /// with their recorded times, each detected before the next is given (none skipped), so that
    /// the rig's timeline is the one the recording saw. `configuration.rig` must name the
    /// recording's cameras.
    ///
    /// - Throws: ``LiveSessionError`` naming what could not be prepared.
    package convenience init(replaying recording: RigRecording, configuration: Configuration) throws(LiveSessionError) {
        let cameras = recording.cameras.map { camera in
            Camera(name: camera.name, source: .source(StreamSource(
                named: (recording.folder as NSString).appendingPathComponent(camera.name),
                AsyncThrowingStream { $0.finish() }, stop: {})))
        }
        try self.init(cameras: cameras, recording: recording, configuration: configuration)
    }

    private init(cameras: [Camera], recording: RigRecording?, configuration: Configuration) throws(LiveSessionError) {
        precondition(!cameras.isEmpty, "a session needs a camera")
        if cameras.count > 1 {
            precondition(configuration.rig?.cameras.map(\.name) == cameras.map(\.name), "the cameras must be the rig's, in its order")
        }
        self.cameras = cameras
        self.configuration = configuration
        self.recording = recording
        (events, continuation) = AsyncStream.makeStream(of: Event.self)
        doorbell = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let isRig = cameras.count > 1
        calibration = try Self.prepareCalibration(configuration, rig: isRig, continuation: continuation)
        // What is made here is removed again when the session cannot start: the recording's own
        // files, and the folders this session made while they are empty.
        let made = [configuration.pictures, configuration.record].compactMap { $0 }.filter { !FileManager.default.fileExists(atPath: $0) }
        foldersMade = made
        var preparedRecorder: Recorder?
        var started = false
        defer {
            if !started {
                if case .rig(let recorder) = preparedRecorder { recorder.discard() }
                for folder in made.reversed() { Self.removeIfEmpty(folder) }
            }
        }
        do {
            pictures = Mutex(isRig ? .rig(try RigPictureFolder(path: configuration.pictures, pattern: configuration.detector.pattern))
                : .camera(try PictureFolder(path: configuration.pictures, pattern: configuration.detector.pattern)))
        } catch {
            throw .pictures(error)
        }
        do {
            preparedRecorder = try configuration.record.map { path throws(OutputError) -> Recorder in
                if let rig = configuration.rig, isRig { return .rig(try RigRecorder(folder: path, cameras: rig.cameras)) }
                return .camera(try FrameRecorder(folder: path))
            }
        } catch where error.errno == ENOTEMPTY {
            throw .recordingFolderNotEmpty(configuration.record ?? "")
        } catch {
            throw .recording(error)
        }
        recorder = preparedRecorder
        var opened: [any FrameSource] = []
        for camera in cameras {
            do throws(LiveSessionError) {
                opened.append(try Self.open(camera.source, configuration: configuration))
            } catch {
                for earlier in opened { earlier.stop() }
                throw error
            }
        }
        sources = opened
        if isRig, let given = configuration.rig {
            rig = given
        } else {
            let interval = opened[0].frameInterval ?? Self.requestedInterval(cameras[0].source) ?? .seconds(1) / 30
            let camera = (try? RigCamera(name: cameras[0].name, frameInterval: interval)) ?? (try! RigCamera(name: "camera", frameInterval: interval))
            rig = .single(camera, hold: configuration.hold)
        }
        shutters = cameras.map { _ in
            LiveShutter(detector: configuration.detector, rule: configuration.rule,
                        tracker: configuration.detector.mode == .fast ? RegionTracker() : nil)
        }
        machine = Mutex(LiveSessionMachine(
            configuration: rig, automatic: configuration.automatic, autoCapture: configuration.autoCapture,
            pictureBacklog: isRig ? min(configuration.pictureBacklog, 4) : configuration.pictureBacklog,
            stopAfter: configuration.stopAfter, journaling: isRig && configuration.record != nil))
        clocked = recording == nil && opened.contains(where: \.mayStall)
        started = true
    }

    /// The frame interval a camera request asks for, when it asks for a rate.
    private static func requestedInterval(_ request: SourceRequest) -> Duration? {
        guard case .camera(_, let camera) = request, let fps = camera.framesPerSecond, fps > 0 else { return nil }
        return .seconds(1) / fps
    }

    /// Opens one camera's source.
    private static func open(_ request: SourceRequest, configuration: Configuration) throws(LiveSessionError) -> any FrameSource {
        switch request {
        case .camera(let path, let camera):
            do {
                return try configuration.backend.open(path: path, request: camera, settling: configuration.controlSettling)
            } catch {
                throw error.kind == .controls ? .controls(error) : .camera(error)
            }
        case .replay(let path, let framesPerSecond):
            do {
                return try ReplaySource(path: path, framesPerSecond: framesPerSecond)
            } catch {
                throw .replay(error.description)
            }
        case .source(let given):
            return given
        }
    }

    /// The background solver for the configuration's calibration, after checking that the pattern
    /// is a board and that the folder may receive the files (checked before any folder is made).
    private static func prepareCalibration(_ configuration: Configuration, rig: Bool, continuation: AsyncStream<Event>.Continuation)
        throws(LiveSessionError) -> Calibrator?
    {
        if rig {
            guard let settings = configuration.rigCalibration else { return nil }
            do {
                return .rig(try RigLiveCalibration(configuration: settings, pattern: configuration.detector.pattern) { outcome in
                    switch outcome {
                    case .success(let update): continuation.yield(.rigCalibrated(update))
                    case .failure(let error): continuation.yield(.calibrationFailed(error))
                    }
                })
            } catch {
                throw .calibration(error)
            }
        }
        guard let settings = configuration.calibration else { return nil }
        do {
            try SafeOutput.Folder.check(path: settings.folder, input: settings.input)
            if !settings.replacing, let names = try? FileManager.default.contentsOfDirectory(atPath: settings.folder), !names.isEmpty {
                throw LiveSessionError.calibrationFolderNotEmpty(settings.folder)
            }
            return .camera(try LiveCalibration.Solver(configuration: settings, pattern: configuration.detector.pattern) { outcome in
                switch outcome {
                case .success(let update): continuation.yield(.calibrated(update))
                case .failure(let error): continuation.yield(.calibrationFailed(error))
                }
            })
        } catch let error as LiveSessionError {
            throw error
        } catch let error as CalibrationError {
            throw .calibration(error)
        } catch let error as OutputError {
            throw .calibration(.output(error))
        } catch {
            throw .calibration(.output(.notWritten(path: settings.folder, reason: "\(error)")))
        }
    }

    /// Removes a folder this session made when it holds nothing (an empty recording manifest counts
    /// as nothing; `rmdir` refuses anything else).
    private static func removeIfEmpty(_ folder: String) {
        let manifest = (folder as NSString).appendingPathComponent(FrameManifest.fileName)
        if let size = try? FileManager.default.attributesOfItem(atPath: manifest)[.size] as? Int, size == 0 { unlink(manifest) }
        _ = rmdir(folder)
    }

    /// The first camera's counts, rates and latencies so far (a single camera's).
    public var statistics: LiveStatistics { statistics(of: 0) }

    /// Camera `camera`'s counts, rates and latencies so far.
    package func statistics(of camera: Int) -> LiveStatistics {
        var statistics = machine.withLock { $0.statistics(of: camera) }
        statistics.framesSkipped = shutters[camera].framesSkipped
        return statistics
    }

    /// Pictures (a rig's sets) saved so far.
    public var picturesSaved: Int { machine.withLock { $0.pictures.saved } }

    /// The rig as it stands: the set a picture would take now, or why none.
    public var state: RigState { machine.withLock { $0.rigState } }

    /// Ends the session: every source stops, and everything in progress completes.
    ///
    /// - Parameter reason: Said in the summary ("quit", "Ctrl-C"); only the first stop's reason is kept.
    public func stop(reason: String) {
        machine.withLock { perform($0.stop(reason: reason)) }
    }

    /// Takes a picture of the held valid frame (a rig's set), or tells ``Event/pictureRefused(_:)``
    /// when the shutter (the rig) is disabled.
    ///
    /// - Returns: Whether the picture is being taken; the events tell the same.
    @discardableResult
    public func requestPicture() -> PictureRequest {
        let now = clocked ? configuration.clock.now() : nil
        let actions = machine.withLock { machine in
            let actions = machine.capture(at: now)
            perform(actions)
            return actions
        }
        for action in actions {
            switch action {
            case .save(let picture): return .accepted(frameIndex: picture.members[0].observation.index)
            case .refuse(let error): return .refused(error)
            case .notTaken: return .notTaken
            default: continue
            }
        }
        return .notTaken
    }

    /// Runs until every source ends, ``Configuration/stopAfter`` frames, ``stop(reason:)``, or the
    /// loss of a camera a rig cannot do without; every picture asked for and the recording are
    /// complete when it returns.
    public func run() async -> LiveSummary {
        for (camera, shutter) in shutters.enumerated() {
            shutter.start { [self] outcome in handle(outcome, camera: camera) }
        }
        let clockTask = clocked ? Task { await watchClock() } : nil
        if let recording {
            let task = Task { await replay(recording) }
            machine.withLock { machine in
                replaying.withLock { $0 = task }
                if machine.stopReason != nil { task.cancel() }
            }
            await task.value
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
        doorbell.continuation.finish()
        clockTask?.cancel()
        await clockTask?.value
        machine.withLock { $0.close() }
        writer.sync {}
        let recorded: FrameRecorder.Summary? = switch recorder {
        case .camera(let recorder): recorder.finish()
        case .rig(let recorder): recorder.finish()
        case nil: nil
        }
        let (calibrated, rigCalibrated) = await finishCalibration()
        continuation.finish()
        let failed = failures.withLock { $0 }
        let summary = machine.withLock { machine in
            LiveSummary(stopReason: machine.stopReason,
                        cameras: machine.cameraSummaries(names: cameras.map(\.name), devices: sources.map(\.name),
                                                         skipped: shutters.map(\.framesSkipped)),
                        pictures: machine.pictures, recording: recorded, recordFolder: configuration.record,
                        failure: failed.single, failures: failed.rig, lostCameras: machine.lostCameras,
                        setLatencies: machine.setLatencies, calibration: calibrated, rigCalibration: rigCalibrated)
        }
        if summary.failure != nil {
            if summary.pictures.saved == 0, foldersMade.contains(configuration.pictures) { Self.removeIfEmpty(configuration.pictures) }
            if recorded?.written == 0, let record = configuration.record, foldersMade.contains(record) { Self.removeIfEmpty(record) }
        }
        return summary
    }

    /// Reads camera `camera`'s frames until its source ends. A source that fails ends a single
    /// camera's session with its error; in a rig the camera is lost.
    private func pump(camera: Int) async {
        let source = sources[camera]
        let continuation = continuation
        let items = source.start { notice in
            switch notice {
            case .controls(let values, let locked): continuation.yield(.cameraControls(camera: camera, values, locked: locked))
            }
        }
        var recordingFailureShown = false
        do {
            for try await item in items {
                let frame: SourceFrame
                switch item {
                case .frame(let delivered):
                    frame = delivered
                case .missing(let missing):
                    continuation.yield(.frameSkipped(camera: camera, file: missing.file, reason: missing.reason))
                    machine.withLock { $0.receiveMissing(camera: camera) }
                    shutters[camera].pass(missing.time, arrivedAt: configuration.clock.now())
                    continue
                }
                if case .camera(let recorder) = recorder {
                    recorder.record(frame)
                    if !recordingFailureShown, let failure = recorder.summary.failure {
                        recordingFailureShown = true
                        continuation.yield(.recordingStopped(failure))
                    }
                }
                let now = configuration.clock.now()
                let arrival = machine.withLock { machine in
                    let arrival = machine.receive(frame, camera: camera, at: now)
                    perform(arrival.actions)
                    return arrival
                }
                shutters[camera].submit(frame, index: arrival.index, arrivedAt: now)
                doorbell.continuation.yield()
                if arrival.limitReached { break }  // the sources are stopped
            }
        } catch {
            lost(camera: camera, error: error)
        }
        if cameras.count == 1 { source.stop() }
    }

    /// Camera `camera`'s source failed: a single camera's session ends with its error ("camera
    /// disconnected" for one that is gone); a rig's camera is lost, and the rig stops when it
    /// cannot do without it.
    private func lost(camera: Int, error: any Error) {
        let source = sources[camera]
        let reason = "\(error)"
        if cameras.count == 1 {
            // A capture error names the device already; any other error is prefixed with the source.
            let named = error is SourceError || reason.hasPrefix(source.name + ": ")
            let gone = (error as? SourceError)?.kind == .gone
            failures.withLock { $0.single = named ? reason : "\(source.name): \(reason)" }
            machine.withLock { machine in
                _ = machine.lose(camera: camera, reason: reason)
                _ = machine.stop(reason: gone ? "camera disconnected" : "error")
            }
            return
        }
        let name = cameras[camera].name
        failures.withLock { $0.rig.append("\(name): \(reason)") }
        machine.withLock { perform($0.lose(camera: camera, reason: reason)) }
    }

    /// Hands one camera's detection outcome to the machine.
    private func handle(_ outcome: LiveShutter.Outcome, camera: Int) {
        let index: Int
        switch outcome {
        case .detected(let observation, let pixels, let arrivedAt, let latency):
            let skipped = shutters[camera].framesSkipped
            machine.withLock {
                perform($0.detected(observation, camera: camera, pixels: pixels, arrivedAt: arrivedAt, latency: latency, skipped: skipped))
            }
            index = observation.index
        case .failed(let failed):
            machine.withLock { $0.detectionFailed(camera: camera, index: failed) }
            index = failed
        case .missing(let time):
            machine.withLock { perform($0.passMissing(camera: camera, at: time)) }
            return
        }
        release(camera: camera, index: index)
        doorbell.continuation.yield()
    }

    /// Tells the machine the time when no frame comes: one task, which sleeps until the machine's
    /// next deadline (a stall, a hold's end) and looks again after every frame. A deadline that
    /// moved while it slept costs one more sleep of the same task (re-armed, as Debounce's driver
    /// does), never a new task and never a poll.
    private func watchClock() async {
        let clock = configuration.clock
        for await _ in doorbell.stream {
            while let due = machine.withLock({ $0.clockDeadline }) {
                if clock.now() < due {
                    do { try await clock.sleep(due) } catch { return }
                    continue  // a frame may have moved the deadline meanwhile
                }
                machine.withLock { perform($0.tick(at: clock.now())) }
            }
        }
    }

    /// Tells the rig what the recording says it was told, in order: arrivals, time moving on and
    /// cameras lost as they were, each frame detected before the next step, at the recording's pace
    /// when ``Configuration/replayInRealTime``.
    private func replay(_ recording: RigRecording) async {
        let clock = configuration.clock
        let start = clock.now()
        guard let first = recording.frames.first?.time else { return }
        var arrivals: [[FrameTime: Int]] = Array(repeating: [:], count: cameras.count)
        for step in recording.steps {
            if machine.withLock({ $0.stopReason != nil }) { break }
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
                let arrival = machine.withLock { machine in
                    let arrival = machine.replayArrival(camera: camera, at: time, dropped: dropped)
                    perform(arrival.actions)
                    return arrival
                }
                arrivals[camera][time] = arrival.index
            case .advance(let time), .advanceArrivals(let time):
                let arrivalsOnly = if case .advanceArrivals = step { true } else { false }
                machine.withLock { perform($0.replayAdvance(to: time, arrivalsOnly: arrivalsOnly)) }
            case .lost(let camera):
                let name = cameras[camera].name
                machine.withLock {
                    perform($0.lose(camera: camera, reason: "lost in the recording", stopping: "\(name) is gone in the recording"))
                }
            case .observed(let number):
                let frame = recording.frames[number]
                let pixels: PixelBuffer
                do {
                    pixels = try frame.readPixels()
                } catch {
                    let name = cameras[frame.camera].name
                    failures.withLock { $0.rig.append("\(name): \(frame.path): \(error)") }
                    stop(reason: "\(frame.path) cannot be read: \(error)")
                    break
                }
                let source = SourceFrame(pixels: pixels, time: frame.time, sequence: frame.sequence, file: frame.path)
                    .with(controls: frame.controls)
                let index = arrivals[frame.camera].removeValue(forKey: frame.time) ?? machine.withLock { $0.nextIndex(of: frame.camera) - 1 }
                await withCheckedContinuation { (resume: CheckedContinuation<Void, Never>) in
                    // Under the machine's lock: a stop either came first, and nothing waits, or
                    // finds this replay waiting and lets it go (stopped cameras release nothing).
                    let stopped = machine.withLock { machine -> Bool in
                        guard machine.stopReason == nil else { return true }
                        waiting.withLock { $0 = (frame.camera, index, resume) }
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
    private func release(camera: Int, index: Int) {
        let resume = waiting.withLock { waiting -> CheckedContinuation<Void, Never>? in
            guard let held = waiting, held.camera == camera, held.index <= index else { return nil }
            waiting = nil
            return held.resume
        }
        resume?.resume()
    }

    /// Carries out the machine's actions. Called with the machine's lock held, so that events keep
    /// the machine's order whichever thread moved it (detection, the clock, a request), and no
    /// picture is queued once `run` has closed the machine and waits for the writer.
    private func perform(_ actions: [LiveSessionMachine.Action]) {
        for action in actions {
            switch action {
            case .frame(let report, let changed, let guidance): continuation.yield(.frame(report, shutterChanged: changed, guidance: guidance))
            case .expired(let expiry): continuation.yield(.shutterExpired(expiry))
            case .rigChanged(let state): continuation.yield(.rigChanged(state))
            case .camera(let camera, let condition): continuation.yield(.cameraChanged(camera: camera, condition))
            case .save(let picture): writer.async { [self] in save(picture) }
            case .refuse(let error): continuation.yield(.pictureRefused(error))
            case .notTaken: continuation.yield(.pictureNotTaken)
            case .stopSources:
                for source in sources { source.stop() }
                replaying.withLock { $0 }?.cancel()
                waiting.withLock { $0.take() }?.resume.resume()
            case .journal(let step): journal(step)
            }
        }
    }

    /// Notes a step of the rig's machine in its recording.
    private func journal(_ step: LiveSessionMachine.Journal) {
        guard case .rig(let recorder) = recorder else { return }
        switch step {
        case .arrived(let camera, let time, let dropped): recorder.noteArrival(camera: camera, at: time, dropped: dropped)
        case .advance(let time, let arrivalsOnly): recorder.noteAdvance(to: time, arrivalsOnly: arrivalsOnly)
        case .lost(let camera): recorder.noteLost(camera: camera)
        case .observed(let camera, let observation, let pixels):
            recorder.record(camera: camera, pixels: pixels, time: observation.time, sequence: observation.sequence,
                            controls: observation.controls)
        }
    }

    /// Holds the picture writer until the returned function is called: pictures asked for meanwhile
    /// wait, as they would behind a slow disk (for tests of the backlog). Call the function before
    /// the session ends: `run()` waits for the writer.
    package func holdPictureWriter() -> @Sendable () -> Void {
        writer.suspend()
        let writer = writer
        return { writer.resume() }
    }

    private func save(_ picture: LiveSessionMachine.Picture) {
        do throws(PictureError) {
            let saved = try pictures.withLock { writer throws(PictureError) in
                try writer.save(picture, cameras: cameras.map(\.name), devices: sources.map(\.name), rig: rig)
            }
            machine.withLock { $0.pictureSaved() }
            switch calibration {
            case .camera(let solver):
                solver.add(picture: (saved.image as NSString).lastPathComponent, picture.members[0].observation.detection)
            case .rig(let solver):
                solver.setSaved()
            case nil:
                break
            }
            continuation.yield(.pictureSaved(saved))
        } catch {
            machine.withLock { $0.pictureFailed() }
            continuation.yield(.pictureFailed(error))
        }
    }

    /// Waits for the background solve, solves the pictures it did not include, and writes the files
    /// (off the cooperative threads: a solve takes seconds).
    private func finishCalibration() async -> (LiveSummary.Calibration?, LiveSummary.RigCalibrationOutcome?) {
        guard let calibration else { return (nil, nil) }
        let continuation = continuation
        return await withCheckedContinuation { (done: CheckedContinuation<(LiveSummary.Calibration?, LiveSummary.RigCalibrationOutcome?), Never>) in
            DispatchQueue.global().async {
                switch calibration {
                case .camera(let solver):
                    let outcome = solver.finish()
                    let folder = solver.configuration.folder
                    do throws(CalibrationError) {
                        let update = try outcome.get()
                        let files = try solver.write(update)
                        continuation.yield(.calibrationWritten(files))
                        done.resume(returning: (LiveSummary.Calibration(update: update, folder: folder, failure: nil), nil))
                    } catch {
                        continuation.yield(.calibrationNotWritten(error))
                        done.resume(returning: (LiveSummary.Calibration(update: try? outcome.get(), folder: folder, failure: error), nil))
                    }
                case .rig(let solver):
                    let folder = solver.configuration.folder
                    switch solver.finish() {
                    case .success(let update):
                        do throws(CalibrationError) {
                            let files = try solver.write(update)
                            done.resume(returning: (nil, .init(update: update, folder: folder, files: files, failure: nil)))
                        } catch {
                            done.resume(returning: (nil, .init(update: update, folder: folder, files: [], failure: error)))
                        }
                    case .failure(let error):
                        done.resume(returning: (nil, .init(update: nil, folder: folder, files: [], failure: error)))
                    }
                }
            }
        }
    }
}

/// Where a session's pictures go: one camera's into a ``PictureFolder``, a rig's sets into a
/// ``RigPictureFolder``.
private enum PictureWriter {
    case camera(PictureFolder)
    case rig(RigPictureFolder)

    /// Writes `picture`, its frames named by `cameras` and `devices`.
    mutating func save(_ picture: LiveSessionMachine.Picture, cameras: [String], devices: [String],
                       rig: RigShutterMachine.Configuration) throws(PictureError) -> LiveSession.SavedPicture {
        let first = picture.members[0]
        switch self {
        case .camera(var folder):
            defer { self = .camera(folder) }
            let files = try folder.save(first.observation, state: first.state, at: picture.now, trigger: picture.trigger)
            return LiveSession.SavedPicture(number: files.number, images: [files.image], sidecar: files.sidecar,
                                            frameIndex: first.observation.index, holdAge: picture.holdAge, trigger: picture.trigger,
                                            pixels: first.observation.pixels, largestDifference: 0)
        case .rig(var folder):
            defer { self = .rig(folder) }
            let frames = picture.members.map { member in
                RigPictureFolder.Frame(camera: cameras[member.camera], device: devices[member.camera], observation: member.observation,
                                       motion: member.motion)
            }
            let saved = try folder.save(frames, trigger: picture.trigger, syncTolerance: rig.syncTolerance, maxMotion: rig.maxMotion)
            return LiveSession.SavedPicture(number: saved.number, images: saved.images, sidecar: saved.sidecar,
                                            frameIndex: first.observation.index, holdAge: nil, trigger: picture.trigger,
                                            pixels: first.observation.pixels, largestDifference: saved.largestDifference)
        }
    }
}

/// Where a session's frames are recorded: one camera's every frame as it arrives, a rig's frames
/// and everything its machine is told.
private enum Recorder: Sendable {
    case camera(FrameRecorder)
    case rig(RigRecorder)
}

/// The background solver of `--calibrate`: one camera's pictures, or a rig's sets.
private enum Calibrator: Sendable {
    case camera(LiveCalibration.Solver)
    case rig(RigLiveCalibration)
}

/// Why a live session could not start.
public enum LiveSessionError: Error, CustomStringConvertible {
    /// The picture folder cannot be made or written to.
    case pictures(OutputError)
    /// The recording folder has files in it.
    case recordingFolderNotEmpty(String)
    /// The recording folder cannot be made or written to.
    case recording(OutputError)
    /// A camera cannot be opened.
    case camera(SourceError)
    /// A camera control was refused (out of range, unknown, read-only): the error gives what it takes.
    case controls(SourceError)
    /// The folder cannot be replayed.
    case replay(String)
    /// `--calibrate` cannot work: a pattern of loose markers, or a folder the files cannot go to.
    case calibration(CalibrationError)
    /// The calibration folder has files in it, and replacing them was not asked for.
    case calibrationFolderNotEmpty(String)

    public var description: String {
        switch self {
        case .pictures(let error): "cannot save pictures: \(error)"
        case .recordingFolderNotEmpty(let path): "\(path) is not empty: record into a new or empty folder, so sessions never mix"
        case .recording(let error): "cannot record: \(error)"
        case .camera(let error): "cannot open camera: \(error)"
        case .controls(let error): "cannot set camera controls: \(error)"
        case .replay(let reason): "cannot replay: \(reason)"
        case .calibration(let error): "cannot calibrate: \(error)"
        case .calibrationFolderNotEmpty(let path):
            "\(path) is not empty: give a new or empty --calibration-out, or --force to replace its calibration files"
        }
    }
}
