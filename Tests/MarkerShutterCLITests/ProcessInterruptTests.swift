import Foundation
import Testing

/// Ctrl-C (SIGINT), SIGTERM or SIGHUP in the middle of `process`: the rows of the frames processed so far are
/// kept, complete and in order, and the summary says where it stopped.
@Suite struct ProcessInterruptTests {
    static let frameCount = 600

    @Test(arguments: [(SIGINT, false), (SIGTERM, true), (SIGHUP, true)])
    func anInterruptKeepsTheRowsProcessedSoFar(signal: Int32, toFile: Bool) throws {
        let folder = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let frames = folder + "/frames"
        try Self.makeLongFolder(frames)

        // One job, so that the run lasts seconds and the signal finds it in the middle.
        let output = folder + "/rows.jsonl"
        let started = try MarkerShutterBinary.start(
            ["process", frames, "--pattern", "charuco:5x7:DICT_6X6_250", "--jobs", "1"] + (toFile ? ["--output", output] : []),
            in: folder, scratch: folder)
        // Rows reach their file in blocks once processing runs (the signal handlers are in place
        // before the first frame): wait for the first block, then interrupt.
        let growing = toFile ? folder + "/.rows.jsonl.\(started.process.processIdentifier).tmp" : started.standardOutputPath
        let deadline = Date().addingTimeInterval(60)
        while Self.size(of: growing) == 0, started.process.isRunning, Date() < deadline {
            usleep(10_000)
        }
        try #require(started.process.isRunning, "process ended before it could be interrupted")
        kill(started.process.processIdentifier, signal)
        let result = try started.wait()

        #expect(result.status == 130, "\(result.standardError)")
        let stopped = try #require(result.standardError.firstMatch(of: /interrupted: stopped after ([0-9]+) of ([0-9]+) frames/),
                                   "\(result.standardError)")
        let rowsKept = try #require(Int(stopped.1))
        #expect(Int(stopped.2) == Self.frameCount)
        #expect(rowsKept > 0 && rowsKept < Self.frameCount)

        // Every row kept is whole, in frame order, with nothing missing before the stop.
        let text = toFile ? try String(contentsOfFile: output, encoding: .utf8) : result.standardOutput
        #expect(text.hasSuffix("\n"))
        let rows = CommandResult(status: 0, standardOutput: text, standardError: "").jsonLines
        #expect(rows.count == text.split(separator: "\n").count)
        #expect(rows.map { $0["index"] as? Int } == (0..<rowsKept).map { $0 })
        #expect(rows.allSatisfy { $0["valid"] is Bool })
        let valid = rows.filter { $0["valid"] as? Bool == true }.count
        #expect(result.standardError.contains("valid frames: \(valid) of \(rowsKept)\n"), "\(result.standardError)")
        if toFile {
            #expect(!FileManager.default.fileExists(atPath: growing), "the temporary file was left behind")
        }
    }

    /// A second signal right after the first ends the run at once, and the temporary file of
    /// `--output` goes with it. The process is stopped while both signals are sent, so that the
    /// second one always comes while the file is still being written.
    @Test func aQuickSecondSignalLeavesNoTemporaryFile() throws {
        let folder = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let frames = folder + "/frames"
        try Self.makeLongFolder(frames)
        let started = try MarkerShutterBinary.start(
            ["process", frames, "--pattern", "charuco:5x7:DICT_6X6_250", "--jobs", "1", "--output", "g"],
            in: folder, scratch: folder)
        let pid = started.process.processIdentifier
        let temporary = folder + "/.g.\(pid).tmp"
        let deadline = Date().addingTimeInterval(60)
        while Self.size(of: temporary) == 0, started.process.isRunning, Date() < deadline {
            usleep(10_000)
        }
        try #require(started.process.isRunning, "process ended before it could be interrupted")
        kill(pid, SIGSTOP)
        kill(pid, SIGINT)
        kill(pid, SIGTERM)
        kill(pid, SIGCONT)
        let result = try started.wait()
        #expect(result.status == 130, "\(result.standardError)")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(".") }
        #expect(left.isEmpty, "temporary files left behind: \(left)")
    }

    /// The bundled session's frames, linked five times over as one long folder without a manifest.
    static func makeLongFolder(_ path: String) throws {
        let session = MarkerShutterBinary.packageRoot + "/Samples/charuco-session"
        let images = try FileManager.default.contentsOfDirectory(atPath: session).filter { $0.hasSuffix(".jpg") }.sorted()
        try #require(images.count * 5 >= frameCount)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for number in 0..<frameCount {
            try FileManager.default.createSymbolicLink(
                atPath: path + String(format: "/frame%04d.jpg", number),
                withDestinationPath: session + "/" + images[number % images.count])
        }
    }

    static func size(of path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }
}
