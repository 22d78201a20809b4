public import Calibration
import Dispatch
public import FileFormats
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
        var autoCapture = AutoCapturePolicy()
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
        var pictureBacklog = 8

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
        case recordingStopped(OutputError)
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

    /// The session's counts as they stood at an event: what the status lines show, so that no view
    /// has to ask the session back.
    public struct Status: Sendable {
        /// Counts, rates and latencies so far.
        public var statistics = LiveStatistics()
        /// Pictures saved so far.
        public var picturesSaved = 0
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

    /// The source frames come from.
    public let source: LiveSource
    /// What happens, in order; ends when ``run()`` returns.
    public let events: AsyncStream<Event>
    /// The configuration.
    public let configuration: Configuration
    private let continuation: AsyncStream<Event>.Continuation
    /// Detection, on its own thread.
    private let shutter: LiveShutter
    private let pictures: Mutex<PictureFolder>
    private let recorder: FrameRecorder?
    /// The shutter, the pictures, the stop and the counts: every decision of the run, under one lock.
    private let machine: Mutex<LiveSessionMachine>
    /// Solves the pictures in the background (`--calibrate`).
    private let calibration: LiveCalibration.Solver?
    /// Rung after each frame, so that the stall watch looks at the new expiry.
    private let doorbell: (stream: AsyncStream<Void>, continuation: AsyncStream<Void>.Continuation)
    /// Pictures are encoded and written here, one at a time, off the detection thread.
    private let writer = DispatchQueue(label: "marker-shutter pictures")
    /// The picture and recording folders this session made (removed when the run fails with them empty).
    private let foldersMade: [String]

    /// Prepares the picture folder, the recording folder and the source, in that order.
    ///
    /// - Throws: ``LiveSessionError`` naming what could not be prepared.
    public init(source request: SourceRequest, configuration: Configuration) throws(LiveSessionError) {
        self.configuration = configuration
        machine = Mutex(LiveSessionMachine(configuration: configuration))
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
            recorder = try configuration.record.map { path throws(OutputError) in try FrameRecorder(folder: path) }
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
        shutter = LiveShutter(detector: configuration.detector, rule: configuration.rule,
                              tracker: configuration.detector.mode == .fast ? RegionTracker() : nil)
        started = true
    }

    /// The background solver for ``Configuration/calibration``, after checking that the pattern is
    /// a board and that the folder may receive the files (checked before any folder is made).
    private static func prepareCalibration(_ configuration: Configuration, continuation: AsyncStream<Event>.Continuation)
        throws(LiveSessionError) -> LiveCalibration.Solver?
    {
        guard let settings = configuration.calibration else { return nil }
        do {
            try SafeOutput.Folder.check(path: settings.folder, input: settings.input)
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

    /// Counts, rates and latencies so far.
    public var statistics: LiveStatistics { machine.withLock { $0.statistics(skipped: shutter.framesSkipped) } }

    /// Pictures saved so far.
    public var picturesSaved: Int { machine.withLock { $0.pictures.saved } }

    /// Ends the session: the source stops, and everything in progress completes.
    ///
    /// - Parameter reason: Said in the summary ("quit", "Ctrl-C"); only the first stop's reason is kept.
    public func stop(reason: String) {
        perform(machine.withLock { $0.stop(reason: reason) })
    }

    /// Takes a picture of the held valid frame, or tells ``Event/pictureRefused(_:)`` when the shutter is disabled.
    ///
    /// - Returns: Whether the picture is being taken; the events tell the same.
    @discardableResult
    public func requestPicture() -> PictureRequest {
        let now = source.mayStall ? configuration.clock.now() : nil
        let actions = machine.withLock { machine in
            let actions = machine.capture(at: now)
            perform(actions)
            return actions
        }
        switch actions.first {
        case .save(let picture): return .accepted(frameIndex: picture.observation.index)
        case .refuse(let error): return .refused(error)
        default: return .notTaken
        }
    }

    /// Runs until the source ends, ``Configuration/stopAfter`` frames, or ``stop(reason:)``; every
    /// picture asked for and the recording are complete when it returns.
    public func run() async -> LiveSummary {
        let doorbell = doorbell
        shutter.start { [self] outcome in
            switch outcome {
            case .detected(let observation, let pixels, let arrivedAt, let latency):
                let skipped = shutter.framesSkipped
                machine.withLock {
                    perform($0.detected(observation, pixels: pixels, arrivedAt: arrivedAt, latency: latency, skipped: skipped))
                }
            case .failed(let index):
                machine.withLock { $0.detectionFailed(index: index) }
            case .missing(let time):
                machine.withLock { perform($0.passMissing(at: time)) }
                return
            }
            doorbell.continuation.yield()
        }
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
                    machine.withLock { $0.receiveMissing() }
                    shutter.pass(missing.time, arrivedAt: configuration.clock.now())
                    continue
                }
                if let recorder {
                    recorder.record(frame)
                    if !recordingFailureShown, let failure = recorder.summary.failure {
                        recordingFailureShown = true
                        continuation.yield(.recordingStopped(failure))
                    }
                }
                let arrival = machine.withLock { $0.receive(frame) }
                shutter.submit(frame, index: arrival.index, arrivedAt: configuration.clock.now())
                if !arrival.actions.isEmpty { break }  // the frame limit: the source is stopped below
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
        machine.withLock { $0.close() }
        writer.sync {}
        let recording = recorder?.finish()
        let calibrated = await finishCalibration()
        continuation.finish()
        let summary = machine.withLock {
            $0.summary(skipped: shutter.framesSkipped, recording: recording, recordFolder: configuration.record,
                       failure: failure, calibration: calibrated)
        }
        if failure != nil {
            if summary.pictures.saved == 0, foldersMade.contains(configuration.pictures) { Self.removeIfEmpty(configuration.pictures) }
            if recording?.written == 0, let record = configuration.record, foldersMade.contains(record) { Self.removeIfEmpty(record) }
        }
        return summary
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

    /// Keeps `reason` as the stop's reason unless there is one already (the source is stopped by
    /// the caller, `run`).
    private func noteStop(reason: String) {
        _ = machine.withLock { $0.stop(reason: reason) }
    }

    /// Ends a hold by the clock when no frame comes: sleeps until the machine's stall deadline and
    /// looks again after every frame. A deadline that moved while it slept costs one more sleep of
    /// the same task (re-armed, as Debounce's driver does), never a new task.
    private func watchStalls() async {
        let clock = configuration.clock
        for await _ in doorbell.stream {
            while let due = machine.withLock({ $0.stallDeadline }) {
                if clock.now() < due {
                    do { try await clock.sleep(due) } catch { return }
                    continue  // a frame may have moved the deadline meanwhile
                }
                machine.withLock { perform($0.tick(at: clock.now())) }
                break  // disabled now, or a newer frame decides
            }
        }
    }

    /// Carries out the machine's actions. Called with the machine's lock held, so that events keep
    /// the machine's order whichever thread moved it (detection, the stall watch, a request), and no
    /// picture is queued once `run` has closed the machine and waits for the writer.
    private func perform(_ actions: [LiveSessionMachine.Action]) {
        for action in actions {
            switch action {
            case .frame(let report, let changed, let guidance): continuation.yield(.frame(report, shutterChanged: changed, guidance: guidance))
            case .expired(let expiry): continuation.yield(.shutterExpired(expiry))
            case .save(let picture): writer.async { [self] in save(picture) }
            case .refuse(let error): continuation.yield(.pictureRefused(error))
            case .notTaken: continuation.yield(.pictureNotTaken)
            case .stopSource: source.stop()
            }
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
            let files = try pictures.withLock { folder throws(PictureError) in
                try folder.save(picture.observation, state: picture.state, at: picture.now, trigger: picture.trigger)
            }
            machine.withLock { $0.pictureSaved() }
            calibration?.add(picture: (files.image as NSString).lastPathComponent, picture.observation.detection)
            continuation.yield(.pictureSaved(SavedPicture(files: files, frameIndex: picture.observation.index, holdAge: picture.holdAge,
                                                          trigger: picture.trigger, pixels: picture.observation.pixels)))
        } catch {
            machine.withLock { $0.pictureFailed() }
            continuation.yield(.pictureFailed(error))
        }
    }
}

/// Why a live session could not start.
public enum LiveSessionError: Error, CustomStringConvertible {
    /// The picture folder cannot be made or written to.
    case pictures(OutputError)
    /// The recording folder has files in it.
    case recordingFolderNotEmpty(String)
    /// The recording folder cannot be made or written to.
    case recording(OutputError)
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
