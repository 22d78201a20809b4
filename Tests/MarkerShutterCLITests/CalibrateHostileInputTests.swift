import Foundation
import Testing

/// `marker-shutter calibrate` against hostile input: sidecars written to escape or confuse, an
/// existing output, signals, names that would repaint the terminal or forge YAML keys.
@Suite struct CalibrateHostileInputTests {
    static let chessboard = CalibrateCommandTests.chessboard
    static let available = FileManager.default.fileExists(atPath: chessboard + "/left01.jpg")
    static let missing = "the shared photos are not next to the package (../shared/images)"

    /// The chessboard photos' detections (`process` rows), one `[String: Any]` per photo, in name order.
    static var rows: [[String: Any]] {
        CommandResult(status: 0, standardOutput: processOutput, standardError: "").jsonLines
    }

    /// What `process` printed for the chessboard photos, run once.
    static let processOutput: String =
        (try? MarkerShutterBinary.run(["process", chessboard, "--pattern", "chessboard:9x6"]))?.standardOutput ?? ""

    /// A picture folder as `live` writes it, from the chessboard photos: `copies` times each photo
    /// (as a symbolic link `pNNNN.jpg`) with a sidecar holding its detection; `edit` may change any
    /// sidecar's fields.
    static func pictureFolder(_ folder: String, copies: Int = 1, edit: (Int, inout [String: Any]) -> Void = { _, _ in }) throws {
        let rows = Self.rows
        try #require(rows.count == 9, "process gave \(rows.count) rows")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for index in 0..<(9 * copies) {
            let row = rows[index % 9]
            let stem = String(format: "p%04d", index)
            try FileManager.default.createSymbolicLink(
                atPath: folder + "/" + stem + ".jpg", withDestinationPath: chessboard + "/" + (row["file"] as? String ?? ""))
            var fields: [String: Any] = [
                "image": stem + ".jpg", "pattern": "chessboard:9x6", "width": 640, "height": 480,
                "corners": row["corners"] ?? [], "markers": [], "trigger": "request",
            ]
            edit(index, &fields)
            let data = try JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])
            try data.write(to: URL(fileURLWithPath: folder + "/" + stem + ".json"))
        }
    }

    static func contents(_ folder: String) -> [String] { CalibrateCommandTests.contents(folder) }

    static func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    @Test(.enabled(if: available, Comment(rawValue: missing)), arguments: ["../../escaped.jpg", "../p0001.jpg", "/tmp/x.jpg", ".."])
    func anImageNameOutsideTheFolderIsRefusedAndNothingIsWritten(name: String) throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try FileManager.default.createDirectory(atPath: scratch + "/work", withIntermediateDirectories: true)
        try Self.pictureFolder(scratch + "/work/picks") { index, fields in if index == 1 { fields["image"] = name } }
        try FileManager.default.copyItem(atPath: Self.chessboard + "/left02.jpg", toPath: scratch + "/escaped.jpg")
        try FileManager.default.copyItem(atPath: Self.chessboard + "/left02.jpg", toPath: scratch + "/work/p0001.jpg")
        let result = try MarkerShutterBinary.run(["calibrate", "picks", "--out", "cal", "--undistort"], in: scratch + "/work")
        #expect(result.status == 1)
        let kind = name.contains("/") ? "which has a path separator" : "which holds \"..\""
        #expect(result.standardError == "Error: cannot read picks/p0001.json: corrupted sidecar: field \"image\" is \"\(name)\", "
            + "\(kind): a picture's name must be a file name in the folder\n")
        #expect(result.standardOutput.isEmpty)
        #expect(Self.contents(scratch) == ["escaped.jpg", "work"])
        #expect(Self.contents(scratch + "/work") == ["p0001.jpg", "picks"])
        #expect(Self.contents(scratch + "/work/picks").count == 18)
    }

    @Test(.enabled(if: available, Comment(rawValue: missing)))
    func aSidecarOutsideItsRangesIsRefusedNamingTheFileAndField() throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try Self.pictureFolder(scratch + "/picks") { index, fields in if index == 4 { fields["width"] = 1_000_000 } }
        let result = try MarkerShutterBinary.run(["calibrate", "picks"], in: scratch)
        #expect(result.status == 1)
        #expect(result.standardError == "Error: cannot read picks/p0004.json: corrupted sidecar: "
            + "field \"width\" is 1000000, outside the 1...16384 pixels a picture may have\n")
        #expect(Self.contents(scratch) == ["picks"])
    }

    /// Every corner of a view seen at one pixel (another pixel in each view, so that no view is a
    /// copy of another): the solve gives NaN, which is an error; nothing is written.
    @Test(.enabled(if: available, Comment(rawValue: missing)))
    func aSolveThatIsNoCameraWritesNothing() throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try Self.pictureFolder(scratch + "/picks") { index, fields in
            fields["corners"] = (0..<54).map { ["id": $0, "xy": [320.0 + Double(index), 240.0]] as [String: Any] }
        }
        let result = try MarkerShutterBinary.run(["calibrate", "picks", "--out", "cal"], in: scratch)
        #expect(result.status == 1, "\(result.standardError)")
        #expect(result.standardError.hasSuffix("Error: the solve gave fx = nan, not a camera: these views do not determine one "
            + "(points piled up or every view alike); take pictures of the whole target from different positions and angles\n"),
            "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
        #expect(Self.contents(scratch) == ["picks"])
    }

    @Test(.enabled(if: available, Comment(rawValue: missing)))
    func anOutputWithFilesIsRefusedWithoutForceAndReplacedWithIt() throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try Self.pictureFolder(scratch + "/picks")
        try FileManager.default.createDirectory(atPath: scratch + "/cal", withIntermediateDirectories: true)
        try "notes".write(toFile: scratch + "/cal/notes.txt", atomically: false, encoding: .utf8)
        try "old".write(toFile: scratch + "/cal/calibration.json", atomically: false, encoding: .utf8)
        let refused = try MarkerShutterBinary.run(["calibrate", "picks", "--out", "cal"], in: scratch)
        #expect(refused.status == 1)
        #expect(refused.standardError
            == "Error: cal is not empty: give a new or empty folder, or --force to replace the calibration files in it\n")
        #expect(Self.contents(scratch + "/cal") == ["calibration.json", "notes.txt"])
        #expect(Self.bytes(scratch + "/cal/calibration.json") == Data("old".utf8))

        let replaced = try MarkerShutterBinary.run(["calibrate", "picks", "--out", "cal", "--force"], in: scratch)
        #expect(replaced.status == 0, "\(replaced.standardError)")
        #expect(Self.contents(scratch + "/cal") == [
            "calibration.cameramodel", "calibration.json", "calibration.yaml", "camera_info.yaml", "coverage.png", "notes.txt", "residuals.png",
            "uncertainty.png",
        ])
        #expect(Self.bytes(scratch + "/cal/notes.txt") == Data("notes".utf8))
        let json = try #require(try JSONSerialization.jsonObject(with: Self.bytes(scratch + "/cal/calibration.json") ?? Data()) as? [String: Any])
        #expect((json["views_used"] as? [String])?.count == 9)
        #expect(Self.contents(scratch) == ["cal", "picks"])
    }

    /// A replacement that fails part way (the folder for the undistorted pictures is a file) leaves
    /// the old calibration files whole, and says nothing was written.
    @Test(.enabled(if: available, Comment(rawValue: missing)))
    func aFailedReplacementLeavesTheOldSetWhole() throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try Self.pictureFolder(scratch + "/picks")
        let first = try MarkerShutterBinary.run(["calibrate", "picks", "--out", "cal", "--model", "rational"], in: scratch)
        try #require(first.status == 0, "\(first.standardError)")
        let names = Self.contents(scratch + "/cal")
        let old = names.map { Self.bytes(scratch + "/cal/" + $0) }
        #expect(FileManager.default.createFile(atPath: scratch + "/cal/undistorted", contents: Data("a file".utf8)))
        let result = try MarkerShutterBinary.run(["calibrate", "picks", "--out", "cal", "--force", "--undistort"], in: scratch)
        #expect(result.status == 1)
        #expect(result.standardError.hasSuffix("Error: cannot write cal/undistorted: it exists and is not a folder; nothing was written\n"),
                "\(result.standardError)")
        #expect(Self.contents(scratch + "/cal") == (names + ["undistorted"]).sorted())
        #expect(names.map { Self.bytes(scratch + "/cal/" + $0) } == old)
        #expect(Self.contents(scratch) == ["cal", "picks"])
    }

    /// A signal while the files are being written: the temporary folder is removed, nothing is
    /// written, exit 130.
    @Test(.enabled(if: available, Comment(rawValue: missing)), arguments: [SIGINT, SIGTERM, SIGHUP])
    func aSignalRemovesTheTemporaryFolder(signal: Int32) throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try Self.pictureFolder(scratch + "/picks", copies: 10)
        let started = try MarkerShutterBinary.start(
            ["calibrate", "picks", "--out", "cal", "--undistort"], in: scratch, scratch: scratch)
        // The temporary folder is made once the solve is done; the 90 undistorted pictures then
        // take seconds to write. Wait for it (bounded), then signal.
        let staging = scratch + "/.cal.\(started.process.processIdentifier).tmp"
        let deadline = Date().addingTimeInterval(120)
        while !FileManager.default.fileExists(atPath: staging + "/undistorted"), started.process.isRunning, Date() < deadline {
            usleep(10_000)
        }
        try #require(started.process.isRunning, "calibrate ended before it could be interrupted")
        kill(started.process.processIdentifier, signal)
        let result = try started.wait()
        let name = [SIGINT: "Ctrl-C", SIGTERM: "SIGTERM", SIGHUP: "SIGHUP"][signal] ?? ""
        #expect(result.status == 130, "\(result.standardError)")
        #expect(result.standardError.hasSuffix("stopped by \(name): nothing was written\n"), "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
        #expect(Self.contents(scratch) == ["picks", "stderr", "stdout"])
        #expect(Self.contents(scratch + "/picks").count == 180)
    }

    /// Two signals in quick succession, the second while the first is being handled, at 25 timings
    /// spread over the writing of the results: each run exits 130 and leaves no temporary folder
    /// (and, where it got that far, only the whole set of files in `--out`).
    @Test(.enabled(if: available, Comment(rawValue: missing)))
    func aQuickSecondSignalLeavesNoTemporaryFolder() throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try Self.pictureFolder(scratch + "/picks", copies: 3)
        let signals: [(Int32, Int32)] = [(SIGINT, SIGINT), (SIGINT, SIGTERM), (SIGTERM, SIGHUP), (SIGHUP, SIGINT), (SIGTERM, SIGTERM)]
        for attempt in 0..<25 {
            let folder = scratch + "/try\(attempt)"
            try FileManager.default.createDirectory(atPath: folder + "/log", withIntermediateDirectories: true)
            let started = try MarkerShutterBinary.start(
                ["calibrate", "picks", "--out", "try\(attempt)/cal", "--undistort"], in: scratch, scratch: folder + "/log")
            let pid = started.process.processIdentifier
            defer { if started.process.isRunning { kill(pid, SIGKILL) } }
            // The temporary folder is made once the solve is done, then the undistorted pictures
            // take a while to write: wait for it (bounded), then signal after 0 to 60 ms.
            let staging = folder + "/.cal.\(pid).tmp"
            let deadline = Date().addingTimeInterval(120)
            while !FileManager.default.fileExists(atPath: staging), started.process.isRunning, Date() < deadline {
                usleep(1_000)
            }
            try #require(started.process.isRunning, "calibrate ended before it could be interrupted")
            usleep(useconds_t(attempt % 5 * 15_000))
            let (first, second) = signals[attempt % 5]
            switch attempt / 5 {
            case 0:
                // Stopped while both are sent: they arrive together.
                kill(pid, SIGSTOP)
                kill(pid, first)
                kill(pid, second)
                kill(pid, SIGCONT)
            case let gap:
                kill(pid, first)
                usleep([0, 100, 1_000, 10_000][gap - 1])
                kill(pid, second)
            }
            let result = try started.wait()
            #expect(result.status == 130, "try \(attempt): \(result.standardError)")
            #expect(!result.standardError.contains("Error"), "try \(attempt): \(result.standardError)")
            let left = Self.contents(folder).filter { $0 != "log" }
            #expect(left.isEmpty || left == ["cal"], "try \(attempt): left \(left)")
            if left == ["cal"] {
                #expect(Self.contents(folder + "/cal").allSatisfy { !$0.hasPrefix(".") }, "try \(attempt)")
                #expect(Self.contents(folder + "/cal/undistorted").count == 27, "try \(attempt)")
            }
        }
        #expect(Self.contents(scratch + "/picks").count == 54)
    }

    @Test(.enabled(if: available, Comment(rawValue: missing)))
    func aHostileCameraNameIsOneQuotedYAMLString() throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try Self.pictureFolder(scratch + "/picks")
        let name = "cam\ndistortion_model: none\n- *x {}: yes null \"q\" \\"
        let result = try MarkerShutterBinary.run(["calibrate", "picks", "--camera-name", name], in: scratch)
        #expect(result.status == 0, "\(result.standardError)")
        let info = try String(contentsOfFile: scratch + "/calibration/camera_info.yaml", encoding: .utf8)
        #expect(info.contains("camera_name: \"cam\\ndistortion_model: none\\n- *x {}: yes null \\\"q\\\" \\\\\"\n"), "\(info)")
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        python.arguments = ["-c", "import json, sys, yaml; d = yaml.safe_load(open(sys.argv[1])); print(json.dumps([d['camera_name'], d['distortion_model'], len(d)]))",
                            scratch + "/calibration/camera_info.yaml"]
        let pipe = Pipe()
        python.standardOutput = pipe
        guard (try? python.run()) != nil else { return }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        python.waitUntilExit()
        try #require(python.terminationStatus == 0, "python3 yaml is missing")
        let read = try #require(try JSONSerialization.jsonObject(with: output) as? [Any])
        #expect(read[0] as? String == name)
        #expect(read[1] as? String == "plumb_bob")
        #expect(read[2] as? Int == 8)
    }

    /// Names from sidecars reach the terminal with their control characters escaped.
    @Test(.enabled(if: available, Comment(rawValue: missing)))
    func namesFromSidecarsAreEscapedOnTheTerminal() throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try Self.pictureFolder(scratch + "/picks") { index, fields in
            if index == 2 {
                fields["image"] = "\u{1B}]0;owned\u{07}\u{1B}[2J.jpg"
                fields["corners"] = []
            }
        }
        let result = try MarkerShutterBinary.run(["calibrate", "picks"], in: scratch)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(!result.standardError.contains("\u{1B}") && !result.standardError.contains("\u{07}"))
        #expect(result.standardError.contains("  rejected \\u{1B}]0;owned\\u{7}\\u{1B}[2J.jpg: no target corners\n"),
                "\(result.standardError)")

        try Self.pictureFolder(scratch + "/bad") { index, fields in if index == 0 { fields["image"] = "\u{1B}[31m/x\n.jpg" } }
        let refused = try MarkerShutterBinary.run(["calibrate", "bad", "--out", "other"], in: scratch)
        #expect(refused.status == 1)
        #expect(!refused.standardError.contains("\u{1B}"))
        #expect(refused.standardError == "Error: cannot read bad/p0000.json: corrupted sidecar: field \"image\" is "
            + "\"\\u{1B}[31m/x\\n.jpg\", which has a path separator: a picture's name must be a file name in the folder\n")
    }

    @Test(.enabled(if: available, Comment(rawValue: missing)))
    func aPictureNameThatIsNotUTF8IsReadAndUndistorted() throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try FileManager.default.createDirectory(atPath: scratch + "/photos", withIntermediateDirectories: true)
        for number in 1...9 {
            let name: [UInt8] = Array("left0\(number)".utf8) + (number == 5 ? [0xFF] : []) + Array(".jpg".utf8)
            let path = Array((scratch + "/photos/").utf8) + name + [0]
            let made = path.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { symlink(Self.chessboard + "/left0\(number).jpg", $0.baseAddress!) == 0 }
            }
            #expect(made)
        }
        let result = try MarkerShutterBinary.run(
            ["calibrate", "photos", "--pattern", "chessboard:9x6", "--undistort", "--out", "cal"], in: scratch)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.hasPrefix("photos: detected chessboard:9x6 in 9 pictures, target in 9\n"))
        #expect(result.standardError.contains("views: 9 used, 0 rejected"))
        let undistorted = Self.contents(scratch + "/cal/undistorted")
        #expect(undistorted.count == 9)
        #expect(undistorted.contains("left05\\xFF.png"), "\(undistorted)")
    }
}
