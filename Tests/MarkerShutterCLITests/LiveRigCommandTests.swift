import Foundation
import Testing

/// `live --camera NAME=DEVICE`: the rig's arguments are checked before any camera is opened.
@Suite struct LiveRigCommandTests {
    static let rig = ["live", "--camera", "left=/nonexistent/video8", "--camera", "right=/nonexistent/video9", "--out", "picks"]

    /// Names, counts, options and rules that cannot work: exit 64, the argument to blame named.
    @Test(arguments: [
        (["live", "--camera", "left=/nonexistent/video8"], "a rig has 2 to 8 cameras (--camera NAME=DEVICE, repeated), not 1"),
        (["live", "--camera", "a b=/x", "--camera", "c=/y"], "--camera: camera name \"a b\" may hold only letters, digits, \"-\" and \"_\""),
        (["live", "--camera", "left", "--camera", "c=/y"], "--camera takes NAME=DEVICE (left=/dev/video0), got \"left\""),
        (["live", "--camera", "a=/x", "--camera", "a=/y"], "--camera: two cameras are named \"a\": each camera needs its own name"),
        (["live", "--camera", "a=/x", "--camera", "b=/x"], "--camera: a and b are both /x: each camera of a rig is its own device"),
        (rig + ["--require", "3"], "--require takes all or a number from 2 to 2 (the cameras given), not 3"),
        (rig + ["--require", "some"], "--require takes all or a number from 2 up, got some"),
        (rig + ["--max-motion", "-1"], "--max-motion takes a number of pixels per frame more than 0, or off, got -1"),
        (rig + ["--sync-tolerance", "-5"], "--sync-tolerance takes milliseconds from 0 to 10000, got -5.0"),
        (rig + ["--camera-option", "top:fps=25"], "--camera-option names \"top\", which no --camera gives"),
        (rig + ["--camera-option", "left:format=MJPEG"],
         "--camera-option left: format takes the camera's own format (four characters: MJPG, YUYV, ...) or the frames' (BGR3 color, GREY grayscale), got MJPEG"),
        (rig + ["--camera-format", "M\tPG"], "--camera-format takes four characters (MJPG, YUYV, ...: `devices --device` lists them), got M\tPG"),
        (rig + ["--camera-option", "left:zoom=two"],
         "--camera-option left: \"zoom=two\" is not size, fps, format, exposure, focus, lock or a control set to a whole number (gain=10)"),
        (rig + ["--camera-option", "left:lock=yes"],
         "--camera-option left: \"lock=yes\" is not size, fps, format, exposure, focus, lock or a control set to a whole number (gain=10)"),
        (rig + ["--camera-option", "left:exposure=fast"], "'fast' is not understood: --camera-option left exposure takes auto or a whole number"),
        (rig + ["--camera-option", "left:,"], "--camera-option left: \"\" is not KEY=VALUE or lock"),
        (rig + ["--settle", "2"], "--settle needs --lock, or lock in a --camera-option"),
        (rig + ["--device", "/dev/video0"], "give --camera for each camera of a rig, or --device (or --replay) for one camera, not both"),
        (rig + ["--serve", "0.0.0.0:8080"], "--serve 0.0.0.0:8080 can be reached from other machines: give --token TOKEN so that only "
            + "the page address with it works, or --no-token to let anyone who reaches it watch and take pictures"),
        (rig + ["--record", "picks/"], "--record and --out are both picks/: the recording and the sets each need their own folder"),
        (rig + ["--calibrate"], "--calibrate with --camera needs --calibration-out DIR: a rig's sets fill --out, so its files go elsewhere"),
    ])
    func usageErrors(arguments: [String], message: String) throws {
        try MarkerShutterBinary.expectUsageError(arguments, message: message)
    }

    /// One device under two paths (a link such as `/dev/v4l/by-id/...`, a file's second name, as
    /// an emulated camera's file may have) is refused, both paths named; two devices are not.
    @Test func oneDeviceUnderTwoPathsIsRefused() throws {
        let folder = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data().write(to: URL(fileURLWithPath: folder + "/video0"))
        try Data().write(to: URL(fileURLWithPath: folder + "/video2"))
        try FileManager.default.createSymbolicLink(atPath: folder + "/by-id-camera", withDestinationPath: folder + "/video0")
        try FileManager.default.linkItem(atPath: folder + "/video0", toPath: folder + "/video0-again")
        try FileManager.default.createSymbolicLink(atPath: folder + "/null-link", withDestinationPath: "/dev/null")
        for (left, right) in [(folder + "/video0", folder + "/by-id-camera"), (folder + "/video0-again", folder + "/video0"),
                              ("/dev/null", folder + "/null-link")] {
            try MarkerShutterBinary.expectUsageError(
                ["live", "--camera", "left=\(left)", "--camera", "middle=\(folder)/video2", "--camera", "right=\(right)", "--out", "picks"],
                message: "--camera: left and right are one device (\(left) and \(right)): each camera of a rig is its own device\n")
        }
        // Two files, two devices: past the arguments, to opening them (which a file that is no camera fails).
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let result = try MarkerShutterBinary.run(["live", "--camera", "left=\(folder)/video0", "--camera", "right=\(folder)/video2",
                                                  "--pattern", "charuco:5x7:DICT_6X6_250", "--out", "picks"], in: scratch)
        #expect(result.status == 1, "\(result.standardError)")
        #expect(!result.standardError.contains("one device"), "\(result.standardError)")
    }

    /// A rig's recording with its cameras named and the manifest given.
    static func recording(_ manifest: String) throws -> String {
        let folder = try MarkerShutterBinary.temporaryFolder()
        try "{\"cameras\":[{\"name\":\"left\",\"fps\":30},{\"name\":\"right\",\"fps\":25}]}\n"
            .write(toFile: folder + "/cameras.json", atomically: true, encoding: .utf8)
        try manifest.write(toFile: folder + "/manifest.jsonl", atomically: true, encoding: .utf8)
        for camera in ["left", "right"] {
            try FileManager.default.createDirectory(atPath: folder + "/" + camera, withIntermediateDirectories: true)
            try Data([1, 2, 3]).write(to: URL(fileURLWithPath: folder + "/\(camera)/frame_000000.jpg"))
        }
        return folder
    }

    /// `--replay` of a rig's recording takes the rig's rules, not what only a live rig has.
    @Test(arguments: [
        (["--record", "rec"], "--record: not available with --replay of a rig's recording"),
        (["--camera-option", "left:fps=25"], "--camera-option: not available with --replay of a rig's recording"),
        (["--pattern", "chessboard:9x6", "--calibrate"],
         "--calibrate with --replay of a rig's recording needs --calibration-out DIR: a rig's sets fill --out, so its files go elsewhere"),
    ])
    func rigReplayUsageErrors(arguments: [String], message: String) throws {
        let folder = try Self.recording("")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try MarkerShutterBinary.expectUsageError(["live", "--replay", folder, "--out", "picks"] + arguments, message: message)
    }

    /// `--calibrate` of a rig's replay never writes into the recording: a `--calibration-out`
    /// inside it is refused with status 1 before anything is written.
    @Test func aRigReplaysCalibrationInsideTheRecordingIsRefused() throws {
        let folder = try Self.recording("{\"camera\":\"left\",\"file\":\"frame_000000.jpg\",\"t\":10}\n"
            + "{\"camera\":\"right\",\"file\":\"frame_000000.jpg\",\"t\":10}\n")
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer {
            try? FileManager.default.removeItem(atPath: folder)
            try? FileManager.default.removeItem(atPath: scratch)
        }
        let before = FileManager.default.subpaths(atPath: folder)?.sorted()
        let result = try MarkerShutterBinary.run(["live", "--replay", folder, "--pattern", "chessboard:9x6", "--calibrate",
                                                  "--calibration-out", folder + "/left/calibration", "--out", "sets"], in: scratch)
        #expect(result.status == 1, "\(result.standardError)")
        #expect(result.standardError.contains("--calibration-out \(folder)/left/calibration"), "\(result.standardError)")
        #expect(FileManager.default.subpaths(atPath: folder)?.sorted() == before)
        #expect(CalibrateCommandTests.contents(scratch).isEmpty)
    }

    /// `--preview` with a rig, live or replayed, without a display: status 1 before any camera,
    /// recording or folder is opened (the cameras here do not exist, so opening one would say so).
    @Test func aRigsPreviewWithoutADisplaySaysSoAndOpensNothing() throws {
        let folder = try Self.recording("")
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer {
            try? FileManager.default.removeItem(atPath: folder)
            try? FileManager.default.removeItem(atPath: scratch)
        }
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = nil
        for arguments in [Self.rig, ["live", "--replay", folder, "--out", "picks"]] {
            let result = try MarkerShutterBinary.run(arguments + ["--pattern", "charuco:5x7:DICT_6X6_250", "--preview"], in: scratch,
                                                     environment: environment)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.standardError.contains("no display: --preview needs X11 (DISPLAY is not set); run without --preview for the status line alone"),
                    "\(result.standardError)")
            #expect(!result.standardError.contains("nonexistent") && !result.standardError.contains("replaying"),
                    "a camera or the recording was opened: \(result.standardError)")
            #expect(CalibrateCommandTests.contents(scratch).isEmpty)
        }
    }

    /// A hostile rig recording is refused with status 1 before anything is written, and is left as it was.
    @Test func aHostileRigRecordingIsRefused() throws {
        let manifest = "{\"camera\":\"left\",\"file\":\"frame_000000.jpg\",\"t\":10}\n{\"camera\":\"middle\",\"file\":\"frame_000000.jpg\",\"t\":10}\n"
        let folder = try Self.recording(manifest)
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer {
            try? FileManager.default.removeItem(atPath: folder)
            try? FileManager.default.removeItem(atPath: scratch)
        }
        let result = try MarkerShutterBinary.run(["live", "--pattern", "charuco:5x7:DICT_6X6_250", "--replay", folder, "--out", "picks"],
                                                 in: scratch)
        #expect(result.status == 1)
        #expect(result.standardError.contains(
            "cannot replay \(folder): \(folder)/manifest.jsonl line 2: camera \"middle\" is not one of the rig's (left, right)\n"),
            "\(result.standardError)")
        #expect(CalibrateCommandTests.contents(scratch).isEmpty)
        #expect(try String(contentsOfFile: folder + "/manifest.jsonl", encoding: .utf8) == manifest)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["cameras.json", "left", "manifest.jsonl", "right"])
    }

    /// `process` of a hostile rig's recording says what is wrong with it, and writes nothing.
    @Test func processOfAHostileRigRecordingIsRefused() throws {
        let folder = try Self.recording("{\"camera\":\"left\",\"file\":\"frame_000000.jpg\",\"t\":10}\n")
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer {
            try? FileManager.default.removeItem(atPath: folder)
            try? FileManager.default.removeItem(atPath: scratch)
        }
        let result = try MarkerShutterBinary.run(["process", folder, "--pattern", "charuco:5x7:DICT_6X6_250"], in: scratch)
        #expect(result.status == 1)
        #expect(result.standardError.contains("cannot process \(folder): \(folder)/manifest.jsonl: camera right has no frame"),
                "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
        #expect(CalibrateCommandTests.contents(scratch).isEmpty)
    }
}
