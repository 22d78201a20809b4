import ArgumentParser
import Debounce
import Dispatch
import Foundation
import FrameCapture
import MarkerDetection
import MarkerShutter
import Pixels
import Synchronization

/// `marker-shutter live`: watch a camera and take pictures only while the target is seen.
struct LiveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live",
        abstract: "Watch a camera and take pictures only while the calibration target is in view.",
        discussion: """
            Shows frames per second, detection time, markers and corners found, the shutter (ENABLED, \
            HELD 0.12s while a lost detection is held, or disabled) and pictures taken, on one line.

            Space or Enter takes a picture: the held valid frame is saved to --out as a PNG with a JSON \
            sidecar of its detection and timestamp. While the shutter is disabled the request is refused. \
            q or Ctrl-C quits, after every file is complete (a second Ctrl-C quits at once). Without a terminal, the same commands are \
            read as lines on standard input: capture, quit.

            Examples:
              marker-shutter live --device /dev/video0 --pattern charuco:5x7:DICT_6X6_250
              marker-shutter live --device /dev/video2 --size 1920x1080 --out shots
              marker-shutter live --auto --out calibration --record session1
              marker-shutter live --replay Samples/charuco-session --auto --out picks
            """
    )

    @Option(help: ArgumentHelp("The camera (default /dev/video0; see `marker-shutter devices`).", valueName: "path"))
    var device: String?

    @Option(help: ArgumentHelp("Instead of a camera, replay a recorded frame folder in real time.", valueName: "dir"))
    var replay: String?

    @OptionGroup var detection: DetectionOptions

    @Option(help: ArgumentHelp("Frame size to ask the camera for.", valueName: "WxH"))
    var size: String = "1280x720"

    @Option(parsing: .unconditional, help: "Frame rate to ask the camera for.")
    var fps: Int = 30

    @Option(help: ArgumentHelp("Where pictures are saved.", valueName: "dir"))
    var out: String = "pictures"

    @Flag(help: "Take pictures automatically when the shutter is enabled on a sharp view that differs from every picture so far.")
    var auto = false

    @Option(help: ArgumentHelp("Record every frame and a manifest.jsonl into this (new or empty) folder, for `process`.", valueName: "dir"))
    var record: String?

    @Option(name: .customLong("stop-after"), parsing: .unconditional, help: ArgumentHelp("Stop after this many frames.", valueName: "frames"))
    var stopAfter: Int?

    @Flag(help: "Capture grayscale frames instead of color.")
    var gray = false

    var frameSize: (width: Int, height: Int)? {
        let parts = size.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) else { return nil }
        return (width, height)
    }

    func validate() throws {
        if device != nil, replay != nil { throw ValidationError("give --device or --replay, not both") }
        guard let frameSize else { throw ValidationError("--size must look like 1280x720, got \(size)") }
        try InputLimits.cameraSide.validate(frameSize.width, option: "--size width")
        try InputLimits.cameraSide.validate(frameSize.height, option: "--size height")
        try InputLimits.cameraFramesPerSecond.validate(fps, option: "--fps")
        try InputLimits.frameCount.validate(stopAfter, option: "--stop-after")
    }

    func run() async throws {
        // Watched from the start, so that a Ctrl-C while the camera opens still stops in good order.
        let interruption = InterruptFlag()
        let detector = try detection.makeDetector()
        let pattern = detector.pattern
        let console = Console()

        if let replay {
            do { try OutputPolicy.checkFolder(out, option: "--out", notAnyOf: [replay]) } catch { throw RuntimeError("\(error)") }
        }
        let pictures: CaptureFolder
        do {
            pictures = try CaptureFolder(path: out, pattern: pattern)
        } catch {
            throw RuntimeError("cannot save pictures: \(error)")
        }
        let recorder: FrameRecorder?
        do {
            recorder = try record.map { try FrameRecorder(folder: $0) }
        } catch let error as FileWriteError where error.errno == ENOTEMPTY {
            throw RuntimeError("\(record!) is not empty: record into a new or empty folder, so sessions never mix")
        } catch {
            throw RuntimeError("cannot record: \(error)")
        }

        let source = try openSource(console: console)
        let shutter = LiveShutter(detector: detector, rule: detection.rule(for: pattern), hold: detection.holdDuration)
        let session = Session(console: console, pictures: pictures, shutter: shutter, source: source, stopAfter: stopAfter)
        let statusUpdates = Throttler<String, ContinuousClock>(interval: .milliseconds(100)) { console.setStatus($0) }
        let autoPolicy = Mutex(AutoCapturePolicy())
        let automatic = auto

        let lastPhase = Mutex<String?>(nil)
        shutter.start { report in
            statusUpdates.send(session.statusLine(report))
            let phase = report.step.state.phase.description
            let phaseChanged = lastPhase.withLock { last in
                defer { last = phase }
                return last != phase
            }
            if phaseChanged, !console.isTerminal {
                console.message(String(format: "t=%.3fs frame %d: shutter %@", report.observation.time.seconds,
                                       report.observation.index, report.step.state.phase.description))
            }
            if automatic, autoPolicy.withLock({ $0.consider(report.observation, phase: report.step.state.phase) }) != nil {
                session.capture(report.observation, state: report.step.state, now: report.observation.time, trigger: .auto)
            }
        }
        KeyboardInput().start { command in
            switch command {
            case .capture: session.captureHeldFrame()
            case .quit: session.stop(reason: "quit")
            case .unknown(let text): console.message("unknown command \"\(text)\": type capture or quit")
            }
        }
        interruption.onInterrupt { name in session.stop(reason: name) }

        console.message(source.banner + "; pattern \(pattern), hold \(detection.hold) s, pictures to \(out)"
            + (record.map { ", recording to \($0)" } ?? ""))
        console.message(KeyboardInput().isTerminal
            ? "Space or Enter: take a picture   q or Ctrl-C: quit"
            : "commands on standard input: capture, quit (or Ctrl-C)")

        var failure: (any Error)?
        var recordingFailureShown = false
        do {
            for try await frame in source.frames {
                if let recorder {
                    recorder.record(frame)
                    if !recordingFailureShown, let failure = recorder.summary.failure {
                        recordingFailureShown = true
                        console.message("recording stopped: \(failure); the frames recorded so far are kept")
                    }
                }
                shutter.submit(frame)
                if session.noteSubmitted() { break }
            }
        } catch {
            failure = error
        }
        source.stop()
        shutter.finish()
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                shutter.waitUntilDone()
                continuation.resume()
            }
        }
        statusUpdates.cancel()
        session.finishCaptures()
        let recording = recorder?.finish()
        console.clearStatus()
        TerminalMode.restore()
        interruption.cancel()
        session.printSummary(recording: recording, recordFolder: record)
        if let failure { throw RuntimeError("\(source.name): \(failure)") }
    }

    private func openSource(console: Console) throws -> LiveSource {
        if let replay {
            do {
                return try LiveSource.replay(FrameFolder(path: replay, framesPerSecond: Double(fps)), console: console)
            } catch {
                throw RuntimeError("cannot replay: \(error)")
            }
        }
        let path = device ?? "/dev/video0"
        let (width, height) = frameSize!
        let settings = CaptureSettings(width: width, height: height, framesPerSecond: fps, pixelFormat: gray ? .gray8 : .bgr24)
        do {
            return LiveSource.camera(try Camera(path: path, settings: settings))
        } catch {
            throw RuntimeError("cannot open camera: \(error)\n(list cameras with `marker-shutter devices`)")
        }
    }
}

/// Where live frames come from: a camera, or a folder replayed at its recorded pace.
struct LiveSource: Sendable {
    let name: String
    let banner: String
    let frames: AsyncThrowingStream<SourceFrame, any Error>
    let stop: @Sendable () -> Void

    static func camera(_ camera: Camera) -> LiveSource {
        let format = camera.format
        // Streaming starts here, not in the task, so that a stop that comes before the task runs
        // ends the stream instead of finding it not yet started.
        let frames = camera.frames()
        let stream = AsyncThrowingStream<SourceFrame, any Error> { continuation in
            let task = Task {
                do {
                    for try await frame in frames {
                        continuation.yield(SourceFrame(pixels: frame.pixels, time: FrameTime(frame.timestamp),
                                                       sequence: UInt64(frame.sequence), droppedBefore: frame.droppedBefore))
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
        let rate = format.framesPerSecond.map { String(format: "%.1f fps", $0) } ?? "camera's rate"
        return LiveSource(
            name: camera.path,
            banner: "camera \(camera.path): \(format.width)x\(format.height) \(format.pixelFormat) at \(rate)"
                + (format.matchesRequest ? "" : " (nearest to what was asked)"),
            frames: stream,
            stop: { camera.stop() }
        )
    }

    static func replay(_ folder: FrameFolder, console: Console) -> LiveSource {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: SourceFrame.self, throwing: (any Error).self)
        let task = Task {
            let clock = ContinuousClock()
            let start = clock.now
            let origin = folder.frames[0].time
            for frame in folder.frames {
                try? await clock.sleep(until: start + origin.duration(to: frame.time))
                if Task.isCancelled { break }
                do {
                    let pixels = try ImageFile.read(frame.path)
                    continuation.yield(SourceFrame(pixels: pixels, time: frame.time, sequence: frame.sequence, file: frame.file))
                } catch {
                    console.message(FileNameText.escaped("skipping \(frame.file): \(error)"))
                }
            }
            continuation.finish()
        }
        return LiveSource(name: folder.path, banner: "replaying \(folder.path): \(folder.frames.count) frames, \(folder.timing)",
                          frames: stream, stop: { task.cancel() })
    }
}

/// The state a live run shares between the frame loop, the detection thread, the keys and the
/// signal handlers.
final class Session: Sendable {
    private struct Counts {
        var submitted = 0
        var saved = 0
        var refused = 0
        var failed = 0
        var stopReason: String?
        /// No more pictures are taken: the last ones are being finished before the program exits.
        var closed = false
    }

    private let console: Console
    private let pictures: Mutex<CaptureFolder>
    private let shutter: LiveShutter
    private let source: LiveSource
    private let stopAfter: Int?
    private let counts = Mutex(Counts())
    /// Pictures are encoded and written here, one at a time, off the detection thread.
    private let writer = DispatchQueue(label: "marker-shutter pictures")

    init(console: Console, pictures: CaptureFolder, shutter: LiveShutter, source: LiveSource, stopAfter: Int?) {
        self.console = console
        self.pictures = Mutex(pictures)
        self.shutter = shutter
        self.source = source
        self.stopAfter = stopAfter
    }

    /// Counts a submitted frame; true when `--stop-after` is reached.
    func noteSubmitted() -> Bool {
        counts.withLock { c in
            c.submitted += 1
            guard let stopAfter, c.submitted >= stopAfter else { return false }
            if c.stopReason == nil { c.stopReason = "\(stopAfter) frames" }
            return true
        }
    }

    /// Ends the session: the source stops, and everything in progress completes.
    ///
    /// - Returns: Whether this call started the stop (false when already stopping).
    @discardableResult
    func stop(reason: String) -> Bool {
        let first = counts.withLock { c -> Bool in
            defer { if c.stopReason == nil { c.stopReason = reason } }
            return c.stopReason == nil
        }
        if first { source.stop() }
        return first
    }

    /// Takes a picture of the held frame, or says why not.
    func captureHeldFrame() {
        do {
            let (observation, state, now) = try shutter.heldFrame()
            capture(observation, state: state, now: now, trigger: .request)
        } catch {
            counts.withLock { $0.refused += 1 }
            console.message("\(error)")
        }
    }

    func capture(_ observation: FrameObservation, state: ShutterState<FrameObservation>, now: FrameTime, trigger: CaptureFolder.Trigger) {
        // Queued under the lock that `finishCaptures` closes, so that every picture accepted is
        // written before the program exits and none is begun while it exits.
        let accepted = counts.withLock { c -> Bool in
            guard !c.closed else { return false }
            enqueueCapture(observation, state: state, now: now, trigger: trigger)
            return true
        }
        if !accepted { console.message("picture not taken: the session is ending") }
    }

    private func enqueueCapture(_ observation: FrameObservation, state: ShutterState<FrameObservation>, now: FrameTime,
                                trigger: CaptureFolder.Trigger) {
        writer.async { [self] in
            do {
                let saved = try pictures.withLock { try $0.save(observation, state: state, at: now, trigger: trigger) }
                counts.withLock { $0.saved += 1 }
                let held = state.phase == .enabled ? "" : String(format: ", held %.2fs", state.holdAge(at: now)?.inSeconds ?? 0)
                console.result("\(saved.image) (frame \(observation.index)\(held), \(trigger.rawValue))")
            } catch {
                counts.withLock { $0.failed += 1 }
                console.message("picture not saved: \(error)")
            }
        }
    }

    /// Takes no more pictures, and waits until every picture asked for is written.
    func finishCaptures() {
        counts.withLock { $0.closed = true }
        writer.sync {}
    }

    /// The status line for the newest frame.
    func statusLine(_ report: LiveShutter.Report) -> String {
        let statistics = shutter.statistics
        let state = report.step.state
        let shutterText: String
        switch state.phase {
        case .enabled: shutterText = "ENABLED"
        case .held: shutterText = String(format: "HELD %.2fs", state.holdAge(at: report.observation.time)?.inSeconds ?? 0)
        case .disabled: shutterText = "disabled"
        }
        let fps = statistics.framesPerSecond.map { String(format: "%.1f fps", $0) } ?? "-- fps"
        let detect = statistics.lastDetectionTime.map { String(format: "detect %.1f ms", $0.inSeconds * 1000) } ?? "detect --"
        let saved = counts.withLock { $0.saved }
        return "\(fps) | \(detect) | \(statistics.lastCounts.markers) markers \(statistics.lastCounts.corners) corners | "
            + "\(shutterText) | \(saved) picture\(saved == 1 ? "" : "s")"
    }

    func printSummary(recording: FrameRecorder.Summary?, recordFolder: String?) {
        let statistics = shutter.statistics
        let c = counts.withLock { $0 }
        let enabled = shutter.stretches.reduce(Duration.zero) { $0 + $1.duration }
        var lines = [
            "stopped (\(c.stopReason ?? "end of frames")): \(statistics.framesReceived) frames received, "
                + "\(statistics.framesDetected) detected, \(statistics.framesSkipped) skipped while detection was busy, "
                + "\(statistics.framesLostByCamera) lost by the camera",
            String(format: "  shutter enabled %.2f s in %d stretch%@", enabled.inSeconds, shutter.stretches.count,
                   shutter.stretches.count == 1 ? "" : "es"),
            "  pictures: \(c.saved) saved" + (c.refused > 0 ? ", \(c.refused) refused (shutter disabled)" : "")
                + (c.failed > 0 ? ", \(c.failed) failed" : ""),
        ]
        if let median = statistics.latency(percentile: 0.5), let p99 = statistics.latency(percentile: 0.99) {
            lines.append(String(format: "  latency from frame to shutter state: median %.1f ms, 99th percentile %.1f ms",
                                median.inSeconds * 1000, p99.inSeconds * 1000))
        }
        if let recording, let recordFolder {
            lines.append("  recording: \(recording.written) frames in \(recordFolder)"
                + (recording.skipped > 0 ? ", \(recording.skipped) not recorded (disk too slow)" : "")
                + (recording.failure.map { "; stopped: \($0)" } ?? ""))
        }
        console.message(lines.joined(separator: "\n"))
    }
}
