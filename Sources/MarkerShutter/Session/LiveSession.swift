public import Calibration
import Dispatch
import Foundation
public import FrameCapture
public import MarkerDetection
public import Pixels
import Synchronization

/// One live run: frames from a camera or a replayed folder go through detection and the shutter;
/// pictures are taken on request or automatically, every frame may be recorded, and the run stops
/// at the source's end, after a number of frames, or when told to.
///
/// What happens is told as ``Event`` values on ``events``; ``run()`` returns the ``LiveSummary``.
///
/// ```swift
/// let session = try LiveSession(source: .replay(path: "Samples/charuco-session"), configuration: configuration)
/// let printer = Task { for await event in session.events { print(event) } }
/// let summary = await session.run()
/// await printer.value
/// ```
public final class LiveSession: Sendable {
    /// Which source to open.
    public enum SourceRequest: Sendable {
        /// A V4L2 camera, opened with these settings.
        case camera(path: String, settings: CaptureSettings)
        /// A recorded folder replayed at its own pace (`framesPerSecond` when it has no manifest).
        case replay(path: String, framesPerSecond: Double)
        /// A source made by the caller.
        case source(LiveSource)
    }

    /// What a session does besides watching.
    public struct Configuration: Sendable {
        /// Finds the target in each frame.
        public var detector: MarkerDetector
        /// Which detections may enable the shutter.
        public var rule: ValidityRule
        /// How long a lost detection is held.
        public var hold: Duration
        /// The folder pictures are saved to.
        public var pictures: String
        /// Whether pictures are taken automatically, of the views `autoCapture` chooses.
        public var automatic = false
        /// Which views `automatic` takes (those that raise the coverage first); it also keeps the
        /// coverage of every picture taken, shown in each frame's ``Guidance``.
        public var autoCapture = AutoCapturePolicy()
        /// Solve the pictures as they are taken and write the calibration at the end (`--calibrate`).
        public var calibration: LiveCalibration.Configuration?
        /// A new or empty folder every frame is recorded to, with a `manifest.jsonl`.
        public var record: String?
        /// Stop after this many frames.
        public var stopAfter: Int?
        /// Tells the time between frames, to end a hold when a camera stalls.
        public var clock = SessionClock.continuous
        /// Camera controls to set once the camera is open, before frames flow (a camera source only).
        public var controls = ControlSettings()
        /// With ``ControlSettings/lock``: how long (in frame time) the automatic modes settle before they are fixed.
        public var controlSettling: Duration = .seconds(1)
        /// How many pictures may wait to be written. A request beyond them is refused
        /// (``PictureError/busy(pending:)``): each waiting picture holds its frame, so a flood of
        /// requests (a key held down, a script posting to the browser view) must not queue them without end.
        public var pictureBacklog = 8

        /// A configuration with pictures going to `pictures`, nothing automatic and no recording.
        public init(detector: MarkerDetector, rule: ValidityRule, hold: Duration, pictures: String) {
            self.detector = detector
            self.rule = rule
            self.hold = hold
            self.pictures = pictures
        }
    }

    /// Something that happened during the run, in the order it happened.
    public enum Event: Sendable {
        /// A frame was detected; `shutterChanged` when the shutter's phase differs from the frame before.
        case frame(LiveShutter.Report, shutterChanged: Bool, guidance: Guidance)
        /// No frame came before the hold ran out (a camera that stalled, replayed frames that
        /// cannot be read): the shutter is disabled.
        case shutterExpired(LiveShutter.Expiry)
        /// A picture was saved.
        case pictureSaved(SavedPicture)
        /// A picture was asked for while the shutter was disabled, or while
        /// ``Configuration/pictureBacklog`` pictures waited to be written.
        case pictureRefused(PictureError)
        /// A picture could not be saved.
        case pictureFailed(PictureError)
        /// A picture was asked for while the session was ending.
        case pictureNotTaken
        /// The recording stopped; the frames recorded so far are kept.
        case recordingStopped(FileWriteError)
        /// A replayed frame could not be read and was skipped; its time passed all the same.
        case frameSkipped(file: String, reason: String)
        /// A background solve of the pictures so far ended (``Configuration/calibration``).
        case calibrated(LiveCalibration.Update)
        /// A background solve failed (OpenCV could not solve, too few usable views).
        case calibrationFailed(CalibrationError)
        /// The calibration files were written at the end: their paths.
        case calibrationWritten([String])
        /// The calibration files could not be written at the end (too few views, a folder that
        /// cannot be written): nothing was.
        case calibrationNotWritten(CalibrationError)
        /// The camera controls set, by their `v4l2-ctl` names, as read back: before the first
        /// frame, and again once `locked` (``Configuration/controls``).
        case cameraControls([String: Int64], locked: Bool)
    }

    /// What a frame shows for calibration, as ROS `camera_calibration` shows it: where and how the
    /// target is seen, and how far the pictures taken so far (this frame's included) cover each measure.
    public struct Guidance: Sendable {
        /// The target's view in this frame; `nil` without one (fewer than four points found).
        public let view: BoardView?
        /// How far the pictures taken so far span each measure, 0...1 each.
        public let coverage: ViewCoverage.Progress
        /// How much a picture of this view would raise each measure's coverage now (`nil` without a view).
        public let gains: ViewCoverage.Measures?
        /// The pictures the coverage is made of.
        public let pictures: Int
    }

    /// A picture saved, with the frame it shows.
    public struct SavedPicture: Sendable {
        /// The files written.
        public let files: PictureFolder.Saved
        /// The frame's index.
        public let frameIndex: Int
        /// How long the frame had been held when the picture was taken (nil while the shutter is enabled).
        public let holdAge: Duration?
        /// Who asked.
        public let trigger: PictureFolder.Trigger
        /// The frame saved, when its pixels were kept (for a thumbnail).
        public let pixels: PixelBuffer?
    }

    /// What became of ``requestPicture()``: the same answer its events tell, given at once.
    public enum PictureRequest: Sendable {
        /// The held frame is being saved; ``Event/pictureSaved(_:)`` or ``Event/pictureFailed(_:)`` follows.
        case accepted(frameIndex: Int)
        /// The shutter is disabled, or too many pictures wait to be written, and why (as
        /// ``Event/pictureRefused(_:)`` tells it).
        case refused(PictureError)
        /// The session is ending and takes no more pictures.
        case notTaken
    }

    private struct Counts {
        var submitted = 0
        var pictures = LiveSummary.Pictures()
        var stopReason: String?
        /// No more pictures are taken: the last ones are being finished.
        var closed = false
        /// Pictures queued and not yet written (or failed).
        var pendingSaves = 0
        var lastPhase: ShutterState<FrameObservation>.Phase?
        var policy: AutoCapturePolicy
    }

    /// The source frames come from.
    public let source: LiveSource
    /// What happens, in order; ends when ``run()`` returns.
    public let events: AsyncStream<Event>
    /// The configuration.
    public let configuration: Configuration
    private let continuation: AsyncStream<Event>.Continuation
    private let shutter: LiveShutter
    private let pictures: Mutex<PictureFolder>
    private let recorder: FrameRecorder?
    private let counts: Mutex<Counts>
    /// Solves the pictures in the background (`--calibrate`).
    private let calibration: LiveCalibration.Solver?
    /// Rung after each frame, so that the stall watch looks at the new expiry.
    private let doorbell: (stream: AsyncStream<Void>, continuation: AsyncStream<Void>.Continuation)
    /// A stall ends a hold this long after its deadline, so that a frame that comes on time decides first.
    static let stallGrace: Duration = .milliseconds(100)
    /// Pictures are encoded and written here, one at a time, off the detection thread.
    private let writer = DispatchQueue(label: "marker-shutter pictures")
    /// The picture and recording folders this session made (removed when the run fails with them empty).
    private let foldersMade: [String]

    /// Prepares the picture folder, the recording folder and the source, in that order.
    ///
    /// - Throws: ``LiveSessionError`` naming what could not be prepared.
    public init(source request: SourceRequest, configuration: Configuration) throws(LiveSessionError) {
        self.configuration = configuration
        counts = Mutex(Counts(policy: configuration.autoCapture))
        (events, continuation) = AsyncStream.makeStream(of: Event.self)
        calibration = try Self.prepareCalibration(configuration, continuation: continuation)
        doorbell = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let made = [configuration.pictures, configuration.record].compactMap { $0 }.filter { !FileManager.default.fileExists(atPath: $0) }
        foldersMade = made
        // Folders made here are removed again when the session cannot start (only while empty).
        var started = false
        defer { if !started { for folder in made.reversed() { Self.removeIfEmpty(folder) } } }
        do {
            pictures = Mutex(try PictureFolder(path: configuration.pictures, pattern: configuration.detector.pattern))
        } catch {
            throw .pictures(error)
        }
        do {
            recorder = try configuration.record.map { path throws(FileWriteError) in try FrameRecorder(folder: path) }
        } catch where error.errno == ENOTEMPTY {
            throw .recordingFolderNotEmpty(configuration.record ?? "")
        } catch {
            throw .recording(error)
        }
        switch request {
        case .camera(let path, let settings):
            source = try Self.openCamera(path: path, settings: settings, configuration: configuration, continuation: continuation)
        case .replay(let path, let framesPerSecond):
            do {
                source = .replay(try FrameFolder(path: path, framesPerSecond: framesPerSecond))
            } catch {
                throw .replay("\(error)")
            }
        case .source(let given):
            source = given
        }
        shutter = LiveShutter(detector: configuration.detector, rule: configuration.rule, hold: configuration.hold,
                              clock: configuration.clock)
        started = true
    }

    /// The background solver for ``Configuration/calibration``, after checking that the pattern is
    /// a board and that the folder may receive the files (checked before any folder is made).
    private static func prepareCalibration(_ configuration: Configuration, continuation: AsyncStream<Event>.Continuation)
        throws(LiveSessionError) -> LiveCalibration.Solver?
    {
        guard let settings = configuration.calibration else { return nil }
        do {
            try OutputFolder.check(path: settings.folder, input: settings.input)
            if !settings.replacing, let names = try? FileManager.default.contentsOfDirectory(atPath: settings.folder), !names.isEmpty {
                throw LiveSessionError.calibrationFolderNotEmpty(settings.folder)
            }
            return try LiveCalibration.Solver(configuration: settings, pattern: configuration.detector.pattern) { outcome in
                switch outcome {
                case .success(let update): continuation.yield(.calibrated(update))
                case .failure(let error): continuation.yield(.calibrationFailed(error))
                }
            }
        } catch let error as LiveSessionError {
            throw error
        } catch let error as CalibrationError {
            throw .calibration(error)
        } catch {
            throw .calibration(.output(path: settings.folder, reason: "\(error)"))
        }
    }

    /// Removes a folder this session made when it holds nothing (an empty recording manifest counts
    /// as nothing; `rmdir` refuses anything else).
    private static func removeIfEmpty(_ folder: String) {
        let manifest = (folder as NSString).appendingPathComponent(FrameManifest.fileName)
        if let size = try? FileManager.default.attributesOfItem(atPath: manifest)[.size] as? Int, size == 0 { unlink(manifest) }
        _ = rmdir(folder)
    }

    /// Counts, rates and latencies so far.
    public var statistics: LiveStatistics { shutter.statistics }

    /// Pictures saved so far.
    public var picturesSaved: Int { counts.withLock { $0.pictures.saved } }

    /// Ends the session: the source stops, and everything in progress completes.
    ///
    /// - Parameter reason: Said in the summary ("quit", "Ctrl-C"); only the first stop's reason is kept.
    public func stop(reason: String) {
        let first = counts.withLock { c -> Bool in
            defer { if c.stopReason == nil { c.stopReason = reason } }
            return c.stopReason == nil
        }
        if first { source.stop() }
    }

    /// Takes a picture of the held valid frame, or tells ``Event/pictureRefused(_:)`` when the shutter is disabled.
    ///
    /// - Returns: Whether the picture is being taken; the events tell the same.
    @discardableResult
    public func requestPicture() -> PictureRequest {
        do {
            let (observation, state, now) = try shutter.heldFrame(at: source.mayStall ? configuration.clock.now() : nil)
            return try takePicture(observation, state: state, now: now, trigger: .request)
                ? .accepted(frameIndex: observation.index) : .notTaken
        } catch {
            counts.withLock { c in
                if case .busy = error { c.pictures.busy += 1 } else { c.pictures.refused += 1 }
            }
            continuation.yield(.pictureRefused(error))
            return .refused(error)
        }
    }

    /// Runs until the source ends, ``Configuration/stopAfter`` frames, or ``stop(reason:)``; every
    /// picture asked for and the recording are complete when it returns.
    public func run() async -> LiveSummary {
        let doorbell = doorbell
        shutter.start(onFrame: { [self] report in onFrame(report) }, afterFrame: { doorbell.continuation.yield() },
                      onExpiry: { [self] expiry in
                          counts.withLock { c in
                              c.lastPhase = expiry.state.phase
                              continuation.yield(.shutterExpired(expiry))
                          }
                      })
        let stallWatch = source.mayStall ? Task { await watchStalls() } : nil
        var failure: String?
        var recordingFailureShown = false
        do {
            for try await item in source.items {
                let frame: SourceFrame
                switch item {
                case .frame(let delivered):
                    frame = delivered
                case .missing(let missing):
                    continuation.yield(.frameSkipped(file: missing.file, reason: missing.reason))
                    shutter.pass(missing.time)
                    continue
                }
                if let recorder {
                    recorder.record(frame)
                    if !recordingFailureShown, let failure = recorder.summary.failure {
                        recordingFailureShown = true
                        continuation.yield(.recordingStopped(failure))
                    }
                }
                shutter.submit(frame)
                if noteSubmitted() { break }
            }
        } catch let error as CaptureError {
            failure = "\(error)"  // it names the device
            if error.kind == .disconnected { noteStop(reason: "camera disconnected") }
        } catch {
            // Errors of the camera-control lock (ControlError) name the device already.
            let text = "\(error)"
            failure = text.hasPrefix(source.name + ": ") ? text : "\(source.name): \(text)"
        }
        if failure != nil { noteStop(reason: "error") }
        source.stop()
        shutter.finish()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async { [shutter] in
                shutter.waitUntilDone()
                done.resume()
            }
        }
        doorbell.continuation.finish()
        stallWatch?.cancel()
        await stallWatch?.value
        counts.withLock { $0.closed = true }
        writer.sync {}
        let recording = recorder?.finish()
        let calibrated = await finishCalibration()
        continuation.finish()
        let c = counts.withLock { $0 }
        if failure != nil {
            if c.pictures.saved == 0, foldersMade.contains(configuration.pictures) { Self.removeIfEmpty(configuration.pictures) }
            if recording?.written == 0, let record = configuration.record, foldersMade.contains(record) { Self.removeIfEmpty(record) }
        }
        return LiveSummary(stopReason: c.stopReason, statistics: shutter.statistics, stretches: shutter.stretches,
                           pictures: c.pictures, recording: recording, recordFolder: configuration.record, failure: failure,
                           coverage: c.policy.coverage, calibration: calibrated)
    }

    /// Waits for the background solve, solves the pictures it did not include, and writes the files
    /// (off the cooperative threads: a solve takes seconds).
    private func finishCalibration() async -> LiveSummary.Calibration? {
        guard let calibration else { return nil }
        let continuation = continuation
        return await withCheckedContinuation { (done: CheckedContinuation<LiveSummary.Calibration?, Never>) in
            DispatchQueue.global().async {
                let outcome = calibration.finish()
                do throws(CalibrationError) {
                    let update = try outcome.get()
                    let files = try calibration.write(update)
                    continuation.yield(.calibrationWritten(files))
                    done.resume(returning: LiveSummary.Calibration(update: update, folder: calibration.configuration.folder,
                                                                   failure: nil))
                } catch {
                    continuation.yield(.calibrationNotWritten(error))
                    done.resume(returning: LiveSummary.Calibration(update: try? outcome.get(),
                                                                   folder: calibration.configuration.folder, failure: error))
                }
            }
        }
    }

    /// Keeps `reason` as the stop's reason unless there is one already.
    private func noteStop(reason: String) {
        counts.withLock { c in if c.stopReason == nil { c.stopReason = reason } }
    }

    /// Ends a hold by the clock when no frame comes: sleeps until the shutter's expiry (plus
    /// ``stallGrace``) and looks again after every frame.
    private func watchStalls() async {
        let clock = configuration.clock
        for await _ in doorbell.stream {
            while let due = shutter.expiryTime.map({ $0 + Self.stallGrace }) {
                if clock.now() < due {
                    do { try await clock.sleep(due) } catch { return }
                    continue  // a frame may have moved the expiry meanwhile
                }
                counts.withLock { c in
                    guard let expiry = shutter.advance(to: clock.now()) else { return }
                    c.lastPhase = expiry.state.phase
                    continuation.yield(.shutterExpired(expiry))
                }
                break  // disabled now, or a newer frame decides
            }
        }
    }

    /// Counts a submitted frame; true when ``Configuration/stopAfter`` is reached.
    private func noteSubmitted() -> Bool {
        counts.withLock { c in
            c.submitted += 1
            guard let stopAfter = configuration.stopAfter, c.submitted >= stopAfter else { return false }
            if c.stopReason == nil { c.stopReason = "\(stopAfter) frames" }
            return true
        }
    }

    private func onFrame(_ report: LiveShutter.Report) {
        let phase = report.step.state.phase
        // Told under the lock the stall watch takes too, so that the events keep the shutter's order.
        let automatic = counts.withLock { c in
            defer { c.lastPhase = phase }
            let taken = configuration.automatic ? c.policy.consider(report.observation, phase: phase) : nil
            let view = taken ?? BoardView(report.observation.detection)
            let coverage = c.policy.coverage
            let guidance = Guidance(view: view, coverage: coverage.progress, gains: view.map(coverage.gains(from:)),
                                    pictures: coverage.views.count)
            continuation.yield(.frame(report, shutterChanged: c.lastPhase != phase, guidance: guidance))
            return taken != nil
        }
        if automatic {
            // Never busy: only requests are held to the backlog; the policy takes few pictures.
            _ = try? takePicture(report.observation, state: report.step.state, now: report.observation.time, trigger: .auto)
        }
    }

    /// Queues the picture; false (and ``Event/pictureNotTaken``) when the session is ending.
    ///
    /// - Throws: ``PictureError/busy(pending:)`` for a request while ``Configuration/pictureBacklog``
    ///   pictures wait to be written.
    private func takePicture(_ observation: FrameObservation, state: ShutterState<FrameObservation>, now: FrameTime,
                             trigger: PictureFolder.Trigger) throws(PictureError) -> Bool {
        // Queued under the lock that `run` closes, so that every picture accepted is written before
        // the run returns and none is begun while it ends.
        let accepted = try counts.withLock { c throws(PictureError) -> Bool in
            guard !c.closed else { return false }
            if trigger == .request, c.pendingSaves >= configuration.pictureBacklog { throw .busy(pending: c.pendingSaves) }
            // An automatic picture's view was recorded when the policy chose it.
            if trigger == .request, let view = BoardView(observation.detection) { c.policy.record(view) }
            c.pendingSaves += 1
            writer.async { [self] in save(observation, state: state, now: now, trigger: trigger) }
            return true
        }
        if !accepted { continuation.yield(.pictureNotTaken) }
        return accepted
    }

    /// Holds the picture writer until the returned function is called: pictures asked for meanwhile
    /// wait, as they would behind a slow disk (for tests of the backlog). Call the function before
    /// the session ends: `run()` waits for the writer.
    package func holdPictureWriter() -> @Sendable () -> Void {
        writer.suspend()
        let writer = writer
        return { writer.resume() }
    }

    private func save(_ observation: FrameObservation, state: ShutterState<FrameObservation>, now: FrameTime,
                      trigger: PictureFolder.Trigger) {
        do throws(PictureError) {
            let files = try pictures.withLock { folder throws(PictureError) in
                try folder.save(observation, state: state, at: now, trigger: trigger)
            }
            counts.withLock { c in
                c.pictures.saved += 1
                c.pendingSaves -= 1
            }
            calibration?.add(picture: (files.image as NSString).lastPathComponent, observation.detection)
            let holdAge = state.phase == .enabled ? nil : state.holdAge(at: now) ?? .zero
            continuation.yield(.pictureSaved(SavedPicture(files: files, frameIndex: observation.index, holdAge: holdAge,
                                                          trigger: trigger, pixels: observation.pixels)))
        } catch {
            counts.withLock { c in
                c.pictures.failed += 1
                c.pendingSaves -= 1
            }
            continuation.yield(.pictureFailed(error))
        }
    }
}

/// Why a live session could not start.
public enum LiveSessionError: Error, CustomStringConvertible {
    /// The picture folder cannot be made or written to.
    case pictures(FileWriteError)
    /// The recording folder has files in it.
    case recordingFolderNotEmpty(String)
    /// The recording folder cannot be made or written to.
    case recording(FileWriteError)
    /// The camera cannot be opened.
    case camera(CaptureError)
    /// A camera control was refused (out of range, unknown, read-only): the error gives what it takes.
    case controls(ControlError)
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
