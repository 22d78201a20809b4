import ArgumentParser
import Calibration
import FileFormats
import Foundation
import FrameCapture
import MarkerShutter
import SystemCalls

/// `marker-shutter live`: watch a camera and take pictures only while the target is seen.
struct LiveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live",
        abstract: "Watch a camera and take pictures only while the calibration target is in view.",
        discussion: LiveHelp.discussion
    )

    @Option(help: ArgumentHelp("The camera (default /dev/video0; see `marker-shutter devices`).", valueName: "path"))
    var device: String?

    @Option(help: ArgumentHelp("Instead of a camera, replay a recorded frame folder, or a ROS bag (.bag, .mcap or a rosbag2 folder), in real time.",
                               valueName: "dir"))
    var replay: String?

    @Option(name: .customLong("topic"),
            help: ArgumentHelp("With --replay of a ROS bag: the image topic to replay (needed when it has several); twice or more for a rig (NAME=TOPIC names its camera).",
                               valueName: "topic"))
    var topics: [String] = []

    @OptionGroup(title: "Rigs: several cameras, one shutter for the set")
    var rig: LiveRigOptions

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

    @Option(name: .customLong("camera-format"),
            help: ArgumentHelp("The camera's own format to stream in (MJPG, YUYV, ...: `devices --device` lists them), converted here to color or gray; libv4l chooses unless given.",
                               valueName: "FOURCC"))
    var cameraFormat: String?

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
        if !topics.isEmpty, replay == nil { throw ValidationError("--topic goes with --replay of a ROS bag (.bag, .mcap or a rosbag2 folder)") }
        guard let frameSize else { throw ValidationError("--size must look like 1280x720, got \(size)") }
        try InputLimits.cameraSide.validate(frameSize.width, option: "--size width")
        try InputLimits.cameraSide.validate(frameSize.height, option: "--size height")
        try InputLimits.cameraFramesPerSecond.validate(fps, option: "--fps")
        try InputLimits.frameCount.validate(stopAfter, option: "--stop-after")
        try validateCameraControls()
        if let cameraFormat {
            if replay != nil { throw ValidationError("--camera-format chooses what a camera sends: not with --replay") }
            guard Self.cameraFourCC(cameraFormat) != nil else {
                throw ValidationError("--camera-format takes four characters (MJPG, YUYV, ...: `devices --device` lists them), got \(cameraFormat)")
            }
        }
        if calibration.calibrate, !detection.identifiesPattern { try calibration.validate(pattern: detection.parsedPattern()) }
        try validateRig()
    }

    func run() async throws {
        // A bag is listed once, before anything is opened.
        let bag = try openBag()
        // Watched from the start, so that a Ctrl-C while the camera opens still stops in good order.
        let interruption = InterruptFlag()
        // The cameras, the recording, the pictures and the browser view's connections all take file
        // descriptors: allow as many as the system lets (a shell's soft limit is often 1024).
        SystemCall.raiseOpenFileLimit()
        // A session runs for hours: frames and pictures go back to the system when freed.
        SystemCall.giveLargeBlocksBack()
        let console = Console()
        let rigReplay = replay.map(RigRecording.isRig) ?? false
        if rigReplay { try validateRigReplay() }
        let window = preview ? try LivePreview.open(console: console) : nil  // without a display, before anything is opened
        defer { window?.close() }
        let detector = try await sessionDetector(replay: replay, bag: bag, camera: identifyingCamera(), console: console, interruption: interruption)
        var configuration = LiveSession.Configuration(detector: detector, rule: detection.rule(for: detector.pattern),
                                                      hold: detection.holdDuration, pictures: out)
        configuration.automatic = auto
        configuration.stopAfter = stopAfter
        if let settle { configuration.controlSettling = .milliseconds((settle * 1000).rounded()) }
        let setup = try prepareCameras(&configuration, bag: bag)
        // The uncertainty map is drawn on each solve only for a view that shows it.
        let served = try view.address != nil
        configuration.calibration?.drawsUncertaintyMap = preview || served
        let browser = try await startBrowserView(console: console, interruption: interruption)
        let session: LiveSession
        do {
            if let recording = setup.recording {
                session = try LiveSession(replaying: recording, configuration: configuration)
            } else {
                session = try LiveSession(cameras: setup.cameras, configuration: configuration)
            }
        } catch {
            if case .camera = error { throw RuntimeError("\(error)\n(list cameras with `marker-shutter devices`)") }
            throw RuntimeError("\(error)")
        }
        let names = setup.isRig ? session.cameras.map(\.name) : []
        let keyboard = KeyboardInput()
        let terminal = LiveView(console: console, goodCalibration: configuration.calibration?.goodText, keyboard: keyboard,
                                rigCameras: names)
        if setup.isRig {
            browser?.showRig(cameras: names, folder: out)
            window?.showRig(cameras: names, folder: out)
        }
        var views: [any LiveSessionView] = [terminal]
        if let browser { views.append(browser) }
        if let window { views.append(window) }
        for line in banner(session, setup: setup, detector: detector, configuration: configuration) { console.message(line) }
        let rendering = Task { await session.present(to: views) }
        interruption.onInterrupt { name in session.send(.stop(reason: name)) }
        let picture = setup.isRig ? "a set" : "a picture"
        console.message(keyboard.isTerminal
            ? "Space or Enter: take \(picture)   q or Ctrl-C: quit"
            : "commands on standard input: capture, quit (or Ctrl-C)")

        let summary = await session.run()
        await rendering.value
        await browser?.finish(reason: summary.stopReason ?? "ended")
        terminal.finish()
        TerminalMode.restore()
        interruption.cancel()
        console.message(summary.description)
        if summary.isRig {
            let calibrated = summary.rigCalibration.map { Self.say($0, console: console) } ?? true
            if !summary.lostCameras.isEmpty, let reason = summary.stopReason, reason.contains(" is gone: ") { throw RuntimeError(reason) }
            if interruption.isSet { throw ExitCode(130) }
            if summary.writesFailed || !calibrated { throw ExitCode(2) }
            return
        }
        if let failure = summary.failure { throw RuntimeError(failure) }
        if interruption.isSet { throw ExitCode(130) }
        if summary.writesFailed { throw ExitCode(2) }
    }
}
