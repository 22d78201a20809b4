import Foundation
import Testing

@Suite struct ProcessCommandTests {
    @Test func everyChessboardPhotoIsValidAndTheExitStatusIsZero() throws {
        let result = try MarkerShutterBinary.run(["process", MarkerShutterBinary.sharedImages + "/chessboard", "--pattern", "chessboard:9x6"])
        #expect(result.status == 0)
        let rows = result.jsonLines
        #expect(rows.count == 9)
        #expect(rows.allSatisfy { $0["valid"] as? Bool == true && ($0["corners"] as? [Any])?.count == 54 })
        #expect(rows.allSatisfy { Set($0.keys).isSuperset(of: ["index", "file", "t", "valid", "markers", "corners", "sharpness", "shutter", "held_index"]) })
        #expect(result.standardError.contains("valid frames: 9 of 9"))
        #expect(result.standardError.contains("errors: 0"))
    }

    @Test func theCharucoPhotoIsValidWithItsCounts() throws {
        let result = try MarkerShutterBinary.run(["process", MarkerShutterBinary.sharedImages + "/charuco", "--pattern", "charuco:5x7:DICT_6X6_250"])
        #expect(result.status == 0)
        let row = try #require(result.jsonLines.first)
        #expect(row["valid"] as? Bool == true)
        #expect((row["markers"] as? [Any])?.count == 17)
        #expect((row["corners"] as? [Any])?.count == 24)
    }

    @Test func someUnreadableFramesGiveErrorRowsTheOtherRowsAndStatusTwo() throws {
        let folder = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for n in [1, 2, 4] {
            try FileManager.default.copyItem(atPath: MarkerShutterBinary.sharedImages + "/chessboard/left0\(n).jpg", toPath: folder + "/frame\(n).jpg")
        }
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00]).write(to: URL(fileURLWithPath: folder + "/frame3.jpg"))
        let result = try MarkerShutterBinary.run(["process", folder, "--pattern", "chessboard:9x6"])
        #expect(result.status == 2)
        let rows = result.jsonLines
        #expect(rows.map { $0["file"] as? String } == ["frame1.jpg", "frame2.jpg", "frame3.jpg", "frame4.jpg"])
        #expect(rows[2]["error"] is String)
        #expect(rows.filter { $0["valid"] as? Bool == true }.count == 3)
        #expect(result.standardError.contains("errors: 1"))
        #expect(result.standardError.contains("frame3.jpg"))
    }

    @Test func nothingReadableOrNoFolderIsStatusOneWithTheReason() throws {
        let folder = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("text".utf8).write(to: URL(fileURLWithPath: folder + "/a.png"))
        let unreadable = try MarkerShutterBinary.run(["process", folder])
        #expect(unreadable.status == 1)
        #expect(unreadable.standardError.contains("no frame of \(folder) could be read"))
        let missing = try MarkerShutterBinary.run(["process", folder + "/missing"])
        #expect(missing.status == 1)
        #expect(missing.standardError.contains("no such folder"))
    }

    @Test func outputGoesToAFileAndAnnotationsAndSelectionsToFolders() throws {
        let folder = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try MarkerShutterBinary.run([
            "process", MarkerShutterBinary.sharedImages + "/chessboard", "--pattern", "chessboard:9x6",
            "--output", folder + "/rows.jsonl", "--annotate", folder + "/annotated", "--select", folder + "/picks",
        ])
        #expect(result.status == 0)
        #expect(result.standardOutput.isEmpty)
        let rows = try String(contentsOfFile: folder + "/rows.jsonl", encoding: .utf8).split(separator: "\n")
        #expect(rows.count == 9)
        let annotated = try FileManager.default.contentsOfDirectory(atPath: folder + "/annotated").sorted()
        #expect(annotated == (1...9).map { "left0\($0).jpg" })
        // The nine photos show the board in different places: several are worth keeping, not all
        // in one place, and each kept one is a byte-for-byte copy.
        let picks = try FileManager.default.contentsOfDirectory(atPath: folder + "/picks").sorted()
        #expect(picks.count >= 3)
        #expect(picks.first == "left01.jpg", "the first valid view is always new")
        for pick in picks {
            #expect(FileManager.default.contentsEqual(atPath: folder + "/picks/" + pick,
                                                       andPath: MarkerShutterBinary.sharedImages + "/chessboard/" + pick))
        }
        #expect(result.standardError.contains("selected for calibration: \(picks.count) frames"))
    }

    @Test func bothDetectionModesFindTheSameCornersInTheSharedPhotos() throws {
        let runs = try ["full", "fast"].map { mode in
            try MarkerShutterBinary.run(["process", MarkerShutterBinary.sharedImages + "/chessboard", "--pattern", "chessboard:9x6",
                                         "--detect", mode])
        }
        for result in runs {
            #expect(result.status == 0)
            #expect(result.standardError.contains("valid frames: 9 of 9"))
        }
        let corners = runs.map { run in
            run.jsonLines.map { row in ((row["corners"] as? [[String: Any]]) ?? []).map { $0["xy"] as? [Double] ?? [] } }
        }
        #expect(corners[0].count == 9)
        #expect(corners[0].allSatisfy { $0.count == 54 })
        #expect(corners[0] == corners[1])
    }

    @Test func anUnknownDetectionModeIsAUsageErrorNamingTheValue() throws {
        let result = try MarkerShutterBinary.run(["process", "/tmp", "--detect", "quick"])
        #expect(result.status == 64)
        #expect(result.standardError.contains("--detect must be full or fast, got 'quick'"))
    }

    @Test func aMalformedPatternIsAUsageErrorThatShowsTheGrammar() throws {
        let result = try MarkerShutterBinary.run(["process", "/tmp", "--pattern", "charuco:5x7"])
        #expect(result.status == 64)
        #expect(result.standardError.contains("charuco:COLSxROWS:DICTIONARY"))
    }
}

@Suite struct BoardCommandTests {
    @Test(arguments: [
        (["charuco", "5x7", "DICT_6X6_250"], "charuco:5x7:DICT_6X6_250", 24),
        (["aruco", "4x3", "DICT_4X4_50"], "gridboard:4x3:DICT_4X4_50", 0),
        (["chessboard", "9x6"], "chessboard:9x6", 54),
        (["charuco:6x8:DICT_5X5_100:legacy"], "charuco:6x8:DICT_5X5_100:legacy", 35),
        (["aprilgrid", "6x6", "tag36h11"], "aprilgrid:6x6:tag36h11", 144),
    ])
    func aPrintedTargetIsDetectedCompletely(words: [String], pattern: String, corners: Int) throws {
        let folder = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let board = try MarkerShutterBinary.run(["board"] + words + ["--width", "1200", "--out", folder + "/target.png"])
        #expect(board.status == 0)
        #expect(board.standardOutput.contains("wrote \(folder)/target.png: \(pattern)"))
        let detected = try MarkerShutterBinary.run(["process", folder, "--pattern", pattern])
        #expect(detected.status == 0)
        let row = try #require(detected.jsonLines.first)
        #expect(row["valid"] as? Bool == true)
        #expect((row["corners"] as? [Any])?.count == corners)
        if pattern.hasPrefix("gridboard") { #expect((row["markers"] as? [Any])?.count == 12) }
    }

    @Test func aSheetOfLooseTagsIsDetectedWithItsIds() throws {
        let folder = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let board = try MarkerShutterBinary.run(
            ["board", "apriltag", "4x3", "tag25h9:first=20", "--width", "1200", "--out", folder + "/tags.png"])
        #expect(board.status == 0)
        #expect(board.standardOutput.contains("wrote \(folder)/tags.png: 4x3 tag25h9 tags from id 20"))
        let detected = try MarkerShutterBinary.run(["process", folder, "--pattern", "apriltag:tag25h9"])
        let row = try #require(detected.jsonLines.first)
        let ids = (row["markers"] as? [[String: Any]])?.compactMap { $0["id"] as? Int }
        #expect(ids?.sorted() == Array(20..<32))
    }

    @Test(arguments: [
        (["apriltag", "4x3", "tag25h9:first=30"], "12 tags from id 30 do not fit in tag25h9's ids 0...34"),
        (["apriltag", "4x3", "tag99h1"], "unknown AprilTag family 'tag99h1'"),
        (["apriltag", "tag36h11"], "loose tags have no board to print"),
        (["aprilgrid", "7x6", "tag25h9"], "a grid within tag25h9's ids 0...34, found 42 tags"),
    ])
    func badAprilTagTargetsAreRefused(words: [String], message: String) throws {
        let folder = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try MarkerShutterBinary.run(["board"] + words + ["--out", folder + "/target.png"])
        #expect(result.status == 64)
        #expect(result.standardError.contains(message))
        #expect(!FileManager.default.fileExists(atPath: folder + "/target.png"))
    }

    @Test func anExistingFileIsKeptUnlessForced() throws {
        let folder = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: folder + "/board.png"))
        let refused = try MarkerShutterBinary.run(["board", "chessboard", "9x6", "--out", folder + "/board.png"])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("exists; use --force"))
        #expect(try String(contentsOfFile: folder + "/board.png", encoding: .utf8) == "keep me")
        let forced = try MarkerShutterBinary.run(["board", "chessboard", "9x6", "--out", folder + "/board.png", "--force"])
        #expect(forced.status == 0)
    }
}

@Suite struct HelpTests {
    @Test(arguments: ["process", "live", "calibrate", "board", "devices"])
    func everyCommandsHelpShowsExamples(command: String) throws {
        let result = try MarkerShutterBinary.run([command, "--help"])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("Examples:"))
        #expect(result.standardOutput.contains("marker-shutter \(command)"))
    }

    @Test(arguments: [
        ("process", ["0 every frame processed", "2 some frames unreadable", "1 nothing could be processed", "64 a usage error", "130 stopped by Ctrl-C"]),
        ("calibrate", ["0 calibrated", "1 nothing written", "64 a usage error"]),
        ("board", ["0 the file written", "1 nothing written", "64 a usage error"]),
        ("devices", ["0 listed", "1 standard output cannot be written", "64 a usage error"]),
    ])
    func helpStatesEveryExitStatus(command: String, statuses: [String]) throws {
        let result = try MarkerShutterBinary.run([command, "--help"])
        #expect(result.status == 0)
        #expect(result.flowingOutput.contains("Exit status: "))
        for status in statuses { #expect(result.flowingOutput.contains(status), "\(command): \(status)") }
    }

    @Test(arguments: [
        ("process", ["--hold <seconds> Seconds a lost detection is held before the shutter is disabled (0 to 3600 seconds)",
                     "(default: 50; 0 to 1000000000)", "no manifest.jsonl (0.01 to 10000 frames per second)",
                     "else OpenCV's own; 1 to 256 threads, and more than the cores runs one per core, with a note)"]),
        ("board", ["Width of the image in pixels (100 to 16384 pixels)", "a tenth of the shorter side; 0 to 16384 pixels)"]),
    ])
    func helpStatesTheRangeOfEveryNumber(command: String, ranges: [String]) throws {
        let result = try MarkerShutterBinary.run([command, "--help"])
        for range in ranges { #expect(result.flowingOutput.contains(range), "\(command): \(range)\n\(result.standardOutput)") }
    }

    @Test func liveRefusesAnUnwritablePictureFolderBeforeOpeningAnyCamera() throws {
        let result = try MarkerShutterBinary.run(["live", "--device", "/nonexistent/video9", "--out", "/sys/marker-shutter-pictures"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("cannot save pictures: cannot write /sys/marker-shutter-pictures"))
    }

    @Test func liveSaysWhenTheCameraCannotBeOpened() throws {
        let folder = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let out = folder + "/pictures", recording = folder + "/recording"
        let result = try MarkerShutterBinary.run(["live", "--device", "/nonexistent/video9", "--out", out, "--record", recording])
        #expect(result.status == 1)
        #expect(result.standardError.contains("cannot open camera"))
        #expect(result.standardError.contains("/nonexistent/video9"))
        #expect(result.standardError.contains("marker-shutter devices"))
        // A live run that fails at once leaves no empty folders behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }
}
