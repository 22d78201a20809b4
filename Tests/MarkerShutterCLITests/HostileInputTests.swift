import Foundation
import Testing

/// Values and paths that used to crash the tool or cost a file: each is now an error that names
/// the value and what is allowed, before any work, and never a trap.
@Suite struct HostileInputTests {
    static let chessboard = MarkerShutterBinary.sharedImages + "/chessboard"

    @Test(arguments: [
        (["--hold", "1e10"], "--hold must be 0 to 3600 seconds, got 10000000000"),
        (["--hold", "-1"], "--hold must be 0 to 3600 seconds, got -1"),
        (["--fps", "1e-10"], "--fps must be 0.01 to 10000 frames per second, got 1e-10"),
        (["--min-sharpness", "nan"], "--min-sharpness must be 0 to 1000000000, got nan"),
        (["--min-sharpness", "inf"], "--min-sharpness must be 0 to 1000000000, got inf"),
        (["--min-sharpness", "1e20"], "--min-sharpness must be 0 to 1000000000, got 1e+20"),
        (["--opencv-threads", "70000"], "--opencv-threads must be 1 to 256 threads, got 70000"),
        (["--jobs", "-3"], "--jobs must be 1 to 1024, got -3"),
        (["--jobs", "99999999999999999999"], "--jobs must be 1 to 1024, got 99999999999999999999"),
        (["--opencv-threads", "-99999999999999999999"], "--opencv-threads must be 1 to 256 threads, got -99999999999999999999"),
        (["--min-markers", "1e3"], "--min-markers must be a whole number, 0 to 1000000, got 1e3"),
    ])
    func processNumbersOutOfRangeAreUsageErrors(option: [String], message: String) throws {
        let result = try MarkerShutterBinary.run(["process", Self.chessboard, "--pattern", "chessboard:9x6"] + option)
        #expect(result.status == 64)
        #expect(result.standardError.contains(message), "\(result.standardError)")
    }

    @Test(arguments: [
        (["--hold", "1e10"], "--hold must be 0 to 3600 seconds, got 10000000000"),
        (["--hold", "-1"], "--hold must be 0 to 3600 seconds, got -1"),
        (["--min-sharpness", "nan"], "--min-sharpness must be 0 to 1000000000, got nan"),
        (["--stop-after", "-5"], "--stop-after must be 1 to 1000000000 frames, got -5"),
        (["--size", "99999999999x480"], "--size width must be 1 to 16384 pixels, got 99999999999"),
        (["--size", "640x0"], "--size height must be 1 to 16384 pixels, got 0"),
        (["--fps", "0"], "--fps must be 1 to 1000 frames per second, got 0"),
        (["--fps", "18446744073709551616"], "--fps must be 1 to 1000 frames per second, got 18446744073709551616"),
        (["--stop-after", "+99999999999999999999"], "--stop-after must be 1 to 1000000000 frames, got +99999999999999999999"),
    ])
    func liveNumbersOutOfRangeAreUsageErrors(option: [String], message: String) throws {
        let live = try MarkerShutterBinary.run(["live", "--replay", Self.chessboard] + option)
        #expect(live.status == 64)
        #expect(live.standardError.contains(message), "\(live.standardError)")
    }

    @Test func boardSizesOutOfRangeAreUsageErrors() throws {
        let board = try MarkerShutterBinary.run(["board", "charuco", "5x7", "DICT_6X6_250", "--width", "9223372036854775807", "--out", "/tmp/never.png"])
        #expect(board.status == 64)
        #expect(board.standardError.contains("--width must be 100 to 16384 pixels, got 9223372036854775807"))
        let larger = try MarkerShutterBinary.run(["board", "charuco", "5x7", "DICT_6X6_250", "--margin", "9223372036854775808", "--out", "/tmp/never.png"])
        #expect(larger.status == 64)
        #expect(larger.standardError.contains("--margin must be 0 to 16384 pixels, got 9223372036854775808"), "\(larger.standardError)")
    }

    @Test(arguments: ["1e10", "-1e10"])
    func aManifestTimeThatOverflowsIsAnErrorInProcessAndReplay(t: String) throws {
        let folder = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(atPath: Self.chessboard + "/left01.jpg", toPath: folder + "/a.jpg")
        try Data("{\"file\":\"a.jpg\",\"t\":\(t)}\n".utf8).write(to: URL(fileURLWithPath: folder + "/manifest.jsonl"))
        let message = "manifest.jsonl line 1: t must be -1000000000 to 1000000000 seconds, got \(t.hasPrefix("-") ? "-" : "")10000000000"
        let process = try MarkerShutterBinary.run(["process", folder, "--pattern", "chessboard:9x6"])
        #expect(process.status == 1)
        #expect(process.standardError.contains(message), "\(process.standardError)")
        let live = try MarkerShutterBinary.run(["live", "--replay", folder, "--pattern", "chessboard:9x6", "--out", folder + "-pictures"])
        #expect(live.status == 1)
        #expect(live.standardError.contains(message), "\(live.standardError)")
    }

    @Test func standardOutputThatCannotBeWrittenIsAMessageAndStatusOne() throws {
        for redirection in ["> /dev/full", ">&-"] {
            let result = try Self.runInShell("exec \"$0\" process \"$1\" --pattern chessboard:9x6 \(redirection)", Self.chessboard)
            #expect(result.status == 1, "\(redirection)")
            #expect(result.standardError.contains("cannot write standard output: write failed:"), "\(result.standardError)")
        }
        let board = NSTemporaryDirectory() + "marker-shutter-full-\(getpid()).png"
        defer { try? FileManager.default.removeItem(atPath: board) }
        let empty = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: empty) }
        let commands = [
            ("board chessboard 9x6 --width 200 --force --out \"$1\"", board),
            ("devices --directory \"$1\"", empty),
            ("--help", ""),
            ("process --help", ""),
        ]
        for (command, argument) in commands {
            for redirection in ["> /dev/full", ">&-"] {
                let result = try Self.runInShell("exec \"$0\" \(command) \(redirection)", argument)
                #expect(result.status == 1, "\(command) \(redirection)")
                #expect(result.standardError.contains("cannot write standard output: write failed:"), "\(command): \(result.standardError)")
            }
        }
    }

    /// A name that is not UTF-8 is read and reported with its bytes escaped; names with control
    /// characters reach standard error escaped, so no escape sequence reaches the terminal.
    @Test func namesThatAreNotUTF8AreProcessedAndControlCharactersNeverPrintedRaw() throws {
        let folder = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let annotated = try MarkerShutterBinary.temporaryFolder("annotated")
        defer { try? FileManager.default.removeItem(atPath: annotated) }
        let script = """
            cp "$1/left01.jpg" "$0/$(printf 'bad\\377\\376name.jpg')"
            printf 'not an image' > "$0/$(printf 'red\\033[31m\\nforged line.png')"
            """
        let setup = Process()
        setup.executableURL = URL(fileURLWithPath: "/bin/sh")
        setup.arguments = ["-c", script, folder, Self.chessboard]
        try setup.run()
        setup.waitUntilExit()
        #expect(setup.terminationStatus == 0)
        let result = try MarkerShutterBinary.run(["process", folder, "--pattern", "chessboard:9x6", "--annotate", annotated])
        #expect(result.status == 2, "\(result.standardError)")
        let rows = result.jsonLines
        #expect(rows.map { $0["file"] as? String } == ["bad\\xFF\\xFEname.jpg", "red\u{1B}[31m\nforged line.png"])
        #expect(rows.first?["valid"] as? Bool == true, "the frame was read: \(rows.first ?? [:])")
        #expect(!result.standardError.contains("\u{1B}"), "no raw escape on standard error")
        #expect(!result.standardError.contains("\nforged line"), "no forged line on standard error")
        #expect(result.standardError.contains("    red\\u{1B}[31m\\nforged line.png: "), "\(result.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: annotated) == ["bad\\xFF\\xFEname.jpg"])
    }

    /// `live` goes on taking pictures when the list of them cannot be written, and says so at the end.
    @Test func liveWhoseStandardOutputCannotBeWrittenKeepsThePicturesAndEndsWithStatusOne() throws {
        let out = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try Self.runInShell("exec \"$0\" live --replay \"$1\" --auto --out \"$2\" > /dev/full",
                                         MarkerShutterBinary.packageRoot + "/Samples/charuco-session", out + "/picks")
        #expect(result.status == 1, "\(result.standardError)")
        #expect(result.standardError.contains("cannot write standard output: write failed: No space left on device"), "\(result.standardError)")
        let pictures = try FileManager.default.contentsOfDirectory(atPath: out + "/picks").filter { $0.hasSuffix(".png") }
        #expect(!pictures.isEmpty)
        #expect(result.standardError.contains("pictures: \(pictures.count) saved"), "\(result.standardError)")
    }

    /// Runs `script` in `sh -c` with the executable as `$0` and `arguments` as `$1`...; standard error is captured.
    /// Swift reads arguments as UTF-8, replacing what is not, so a folder named with other bytes
    /// used to reach the command as another name and fail with "no such file". It is refused first,
    /// by every command, with its bytes shown and what to do.
    @Test func anArgumentThatIsNotUTF8IsRefusedSayingSo() throws {
        let folder = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for command in ["process", "calibrate"] {
            let result = try Self.runInShell(
                "named=\"$1/$(printf 'frames\\377')\"; mkdir -p \"$named\" && exec \"$0\" \(command) \"$named\"", folder)
            #expect(result.status == 64, "\(command): \(result.standardError)")
            #expect(result.standardError.contains("argument 2, \(folder)/frames\\xFF, is not UTF-8"), "\(result.standardError)")
            #expect(result.standardError.contains("through a symbolic link with a UTF-8 name"), "\(result.standardError)")
        }
    }

    static func runInShell(_ script: String, _ arguments: String...) throws -> (status: Int32, standardError: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script, MarkerShutterBinary.path] + arguments
        let errorPath = NSTemporaryDirectory() + "marker-shutter-stderr-\(UUID().uuidString)"
        #expect(FileManager.default.createFile(atPath: errorPath, contents: nil))
        defer { try? FileManager.default.removeItem(atPath: errorPath) }
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, try String(contentsOfFile: errorPath, encoding: .utf8))
    }
}
