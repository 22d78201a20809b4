import ArgumentParser
import Calibration
import Foundation
import FrameCapture
import MarkerShutter

/// `marker-shutter live`: watch a camera and take pictures only while the target is seen.
struct LiveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live",
        abstract: "Watch a camera and take pictures only while the calibration target is in view.",
        discussion: """
            Shows on one line: frames per second, detection time, markers/corners found, the shutter \
            (ENABLED, HELD 0.12s while a lost detection is held, or disabled), pictures taken, and how far \
            the pictures cover what calibration wants, as ROS camera_calibration's X, Y, size and skew bars \
            (X▮▮▯▯ is half the spread across the image that is wanted; a + after a bar: a picture of the \
            view now seen would widen it).

            --auto takes a picture when the shutter is enabled on a sharp view that is not too similar to \
            any picture so far (its four measures' differences from each picture sum to over 0.2) and that \
            raises the coverage by at least 0.05 (summed over the four); a view that raises nothing must \
            differ by over 0.4. The first view is taken.

            --calibrate solves the camera (pinhole, as `calibrate` does) in the background after each \
            picture once there are three, one solve at a time (pictures taken meanwhile are solved together \
            next), and prints each result: views, RMS error, focal lengths with their 95% intervals, and \
            "good" once the RMS is under --good-rms and both intervals under --good-focal-interval. At the \
            end, the last solve's files (calibration.yaml, camera_info.yaml, calibration.json, coverage.png, \
            residuals.png, as `calibrate` writes them) go into --calibration-out, their paths to standard \
            output. Only this session's pictures are solved.

            Space or Enter takes a picture: the held valid frame is saved to --out as a PNG with a JSON \
            sidecar of its detection and timestamp. While the shutter is disabled the request is refused. \
            q or Ctrl-C quits, after every file is complete (a second Ctrl-C quits at once). Without a terminal, the same commands are \
            read as lines on standard input: capture, quit. A camera that stops sending frames \
            disables the shutter when the hold runs out, without waiting for a frame.

            --exposure, --focus, --control and --lock set the camera's controls (as `devices --device` \
            does) once it is open, before any frame is used; --lock waits --settle seconds of frames (1 by \
            default; those frames are not shown, recorded or taken) for the automatic modes to settle, then \
            fixes exposure, gain, white balance and focus at their values. A value the camera refuses ends \
            the run before streaming, with the values the control takes. The controls set, as read back \
            from the camera, go into each picture's sidecar ("controls") and the recording's manifest.jsonl.

            Exit status: 0 stopped by quit, --stop-after or the end of a replay; 1 the camera or folder \
            failed (or could not be opened), a camera control was refused, --calibration-out has files and no --force, or standard output \
            could not be written; 2 a picture, the recording or (with --calibrate) the calibration could not \
            be written (too few pictures, say); 64 a usage error (an option's value outside its range, --calibrate with loose markers); 130 \
            stopped by Ctrl-C, SIGTERM or SIGHUP.

            Examples:
              marker-shutter live --device /dev/video0 --pattern charuco:5x7:DICT_6X6_250
              marker-shutter live --device /dev/video2 --size 1920x1080 --out shots
              marker-shutter live --auto --out calibration --record session1
              marker-shutter live --replay Samples/charuco-session --auto --out picks
              marker-shutter live --auto --calibrate --out pictures
              marker-shutter live --exposure 20000 --control gain=80 --lock --record take2
            """
    )

    @Option(help: ArgumentHelp("The camera (default /dev/video0; see `marker-shutter devices`).", valueName: "path"))
    var device: String?

    @Option(help: ArgumentHelp("Instead of a camera, replay a recorded frame folder in real time.", valueName: "dir"))
    var replay: String?

    @OptionGroup var detection: DetectionOptions

    @Option(help: ArgumentHelp("Frame size to ask the camera for.", valueName: "WxH"))
    var size: String = "1280x720"

    @Option(parsing: .unconditional, help: "Frame rate to ask the camera for (\(InputLimits.cameraFramesPerSecond)).",
            transform: InputLimits.cameraFramesPerSecond.parse(option: "--fps"))
    var fps: Int = 30

    @Option(help: ArgumentHelp("Where pictures are saved.", valueName: "dir"))
    var out: String = "pictures"

    @Flag(help: "Take pictures automatically when the shutter is enabled on a sharp view that raises the coverage or differs enough from every picture so far.")
    var auto = false

    @OptionGroup var calibration: LiveCalibrationOptions

    @OptionGroup var view: ServeOptions

    @Option(help: ArgumentHelp("Record every frame and a manifest.jsonl into this (new or empty) folder, for `process`.", valueName: "dir"))
    var record: String?

    @Option(name: .customLong("stop-after"), parsing: .unconditional, help: ArgumentHelp("Stop after this many frames (\(InputLimits.frameCount)).", valueName: "frames"),
            transform: InputLimits.frameCount.parse(option: "--stop-after"))
    var stopAfter: Int?

    @Flag(help: "Capture grayscale frames instead of color.")
    var gray = false

    @OptionGroup(title: "Camera controls (with a camera, not --replay)")
    var cameraControls: CameraControlOptions

    @Option(parsing: .unconditional,
            help: ArgumentHelp("With --lock, how long automatic modes settle before they are fixed; 1 unless given (\(InputLimits.settleSeconds)).",
                               valueName: "seconds"))
    var settle: Double?

    @Flag(help: "Also show the frames, annotated with the detection and the shutter, in a window (X11); Space, Enter and q work there too, closing it quits. Without a display: exit status 1 before anything is opened.")
    var preview = false

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
        try validateCameraControls()
        if calibration.calibrate { try calibration.validate(pattern: detection.parsedPattern()) }
    }

    func run() async throws {
        // Watched from the start, so that a Ctrl-C while the camera opens still stops in good order.
        let interruption = InterruptFlag()
        let window = preview ? try LivePreview.open() : nil  // without a display, before anything is opened
        defer { window?.close() }
        let detector = try detection.makeDetector()
        var configuration = LiveSession.Configuration(detector: detector, rule: detection.rule(for: detector.pattern),
                                                      hold: detection.holdDuration, pictures: out)
        configuration.automatic = auto
        configuration.record = record
        configuration.stopAfter = stopAfter
        try setCameraControls(in: &configuration)
        configuration.calibration = calibration.configuration(pictures: out, replay: replay)
        if let replay {
            do { try OutputPolicy.checkFolder(out, option: "--out", notAnyOf: [replay]) } catch { throw RuntimeError("\(error)") }
        }
        let console = Console()
        let browser = try await startBrowserView(console: console, interruption: interruption)
        let session: LiveSession
        do {
            session = try LiveSession(source: sourceRequest, configuration: configuration)
        } catch {
            if case .camera = error { throw RuntimeError("\(error)\n(list cameras with `marker-shutter devices`)") }
            throw RuntimeError("\(error)")
        }
        browser?.attach(session)
        let view = LiveView(console: console, session: session)
        KeyboardInput().start { command in
            switch command {
            case .capture: session.requestPicture()
            case .quit: session.stop(reason: "quit")
            case .unknown(let text): console.message("unknown command \"\(text)\": type capture or quit")
            }
        }
        interruption.onInterrupt { name in session.stop(reason: name) }
        window?.control(session, console: console)

        console.message(session.source.banner + "; pattern \(detector.pattern), hold \(detection.hold) s, pictures to \(out)"
            + (record.map { ", recording to \($0)" } ?? "")
            + (configuration.calibration.map { ", calibration to \($0.folder) (good: \($0.goodText))" } ?? ""))
        console.message(KeyboardInput().isTerminal
            ? "Space or Enter: take a picture   q or Ctrl-C: quit"
            : "commands on standard input: capture, quit (or Ctrl-C)")

        let rendering = Task {
            for await event in session.events {
                view.show(event)
                browser?.show(event, session: session)
                window?.show(event)
            }
        }
        let summary = await session.run()
        await rendering.value
        await browser?.finish(reason: summary.stopReason ?? "ended")
        view.finish()
        TerminalMode.restore()
        interruption.cancel()
        console.message(summary.description)
        if let failure = summary.failure { throw RuntimeError(failure) }
        if interruption.isSet { throw ExitCode(130) }
        if summary.writesFailed { throw ExitCode(2) }
    }

    /// With `--serve`: listens, says where, and with `--wait-for-viewer` waits for the page.
    private func startBrowserView(console: Console, interruption: InterruptFlag) async throws -> BrowserServing? {
        guard let address = try view.address else { return nil }
        if let warning = address.exposureWarning(token: view.token) { console.message(warning) }
        let browser = try await BrowserServing(view, address: address)
        console.message("browser view: \(browser.pageURL)")
        if view.waitForViewer {
            console.message("waiting for a browser to open the page (Ctrl-C to quit)")
            interruption.onInterrupt { name in Task { await browser.finish(reason: name) } }
            await browser.waitForViewer()
            if interruption.isSet {
                await browser.finish(reason: "interrupted")
                throw ExitCode(130)
            }
        }
        return browser
    }

    private var sourceRequest: LiveSession.SourceRequest {
        if let replay { return .replay(path: replay, framesPerSecond: Double(fps)) }
        let (width, height) = frameSize!
        return .camera(path: device ?? "/dev/video0",
                       settings: CaptureSettings(width: width, height: height, framesPerSecond: fps, pixelFormat: gray ? .gray8 : .bgr24))
    }
}
