import FileFormats
import Foundation
import MarkerDetection
@testable import MarkerShutter
import Synchronization
import Testing

/// `ProcessRun` in-process: rows, annotations, selections and the exit outcome that
/// `marker-shutter process` turns into its exit status.
@Suite struct ProcessRunTests {
    static let chessboard = TestPaths.sharedImages + "/chessboard"

    static func configuration(_ folder: String, pattern: String = "chessboard:9x6") throws -> ProcessRun.Configuration {
        let pattern = try Pattern(parsing: pattern)
        return ProcessRun.Configuration(folder: try FrameFolder(path: folder), detector: try MarkerDetector(pattern: pattern),
                                        rule: ValidityRule(defaultsFor: pattern))
    }

    static func rows(_ path: String) throws -> [[String: Any]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test func rowsGoToTheFileAndAnnotationsAndSelectionsToFolders() throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var configuration = try Self.configuration(Self.chessboard)
        configuration.output = .replacing(folder + "/rows.jsonl")
        configuration.annotate = folder + "/annotated"
        configuration.select = folder + "/picks"
        let result = try ProcessRun(configuration).run()

        #expect(result.exit == .complete)
        let rows = try Self.rows(folder + "/rows.jsonl")
        #expect(rows.map { $0["index"] as? Int } == Array(0..<9))
        #expect(rows.allSatisfy { $0["valid"] as? Bool == true })
        let annotated = try FileManager.default.contentsOfDirectory(atPath: folder + "/annotated").sorted()
        #expect(annotated == (1...9).map { "left0\($0).jpg" })
        let picks = try FileManager.default.contentsOfDirectory(atPath: folder + "/picks").sorted()
        #expect(picks.count == result.selected)
        #expect(picks.count >= 3)
        #expect(picks.first == "left01.jpg")
        #expect(result.warnings.isEmpty)
        #expect(result.description.contains("  valid frames: 9 of 9"))
        #expect(result.description.contains("  selected for calibration: \(picks.count) frames copied to \(folder)/picks"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/.rows.jsonl.\(getpid()).tmp"))
    }

    @Test func someUnreadableFramesAreErrorRowsAndTheExitSaysSo() throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let frames = folder + "/frames"
        try FileManager.default.createDirectory(atPath: frames, withIntermediateDirectories: true)
        for n in [1, 2, 4] {
            try FileManager.default.copyItem(atPath: Self.chessboard + "/left0\(n).jpg", toPath: frames + "/frame\(n).jpg")
        }
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00]).write(to: URL(fileURLWithPath: frames + "/frame3.jpg"))
        var configuration = try Self.configuration(frames)
        configuration.output = .replacing(folder + "/rows.jsonl")
        let result = try ProcessRun(configuration).run()

        #expect(result.exit == .incomplete)
        let rows = try Self.rows(folder + "/rows.jsonl")
        #expect(rows.map { $0["file"] as? String } == ["frame1.jpg", "frame2.jpg", "frame3.jpg", "frame4.jpg"])
        #expect(rows[2]["error"] is String)
        #expect(result.summary.errors.map(\.file) == ["frame3.jpg"])
        #expect(result.description.contains("  errors: 1\n    frame3.jpg: "))
    }

    @Test func nothingReadableNamesTheFirstFrame() throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("text".utf8).write(to: URL(fileURLWithPath: folder + "/a.png"))
        var configuration = try Self.configuration(folder)
        configuration.output = .replacing(folder + "/rows.jsonl")
        let result = try ProcessRun(configuration).run()
        guard case .nothingReadable(let message) = result.exit else {
            Issue.record("expected nothing readable, got \(result.exit)")
            return
        }
        #expect(message.hasPrefix("no frame of \(folder) could be read (first: a.png: "))
    }

    @Test func aStopKeepsTheRowsBeforeItCompleteAndInOrder() throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var configuration = try Self.configuration(Self.chessboard)
        configuration.output = .replacing(folder + "/rows.jsonl")
        configuration.options.jobs = 1
        // Stop once four rows are written: `shouldStop` is asked on the calling thread, between frames.
        let written = Mutex(0)
        let result = try ProcessRun(configuration).run(shouldStop: { written.withLock { $0 >= 4 } },
                                                       onFrame: { written.withLock { $0 += 1 } })
        #expect(result.exit == .interrupted)
        #expect(result.summary.stoppedAfter == 4)
        #expect(try Self.rows(folder + "/rows.jsonl").map { $0["index"] as? Int } == [0, 1, 2, 3])
        #expect(result.description.contains("  interrupted: stopped after 4 of 9 frames"))
    }

    @Test func anUnwritableOutputIsAnErrorBeforeAnyFrame() throws {
        var configuration = try Self.configuration(Self.chessboard)
        configuration.output = .replacing("/proc/marker-shutter-rows.jsonl")
        #expect(throws: OutputError.self) { try ProcessRun(configuration).run() }
    }

    @Test func aFailedWriteEndsTheOutputAndTheExitSaysWhatFailed() throws {
        var configuration = try Self.configuration(Self.chessboard)
        configuration.output = .through("/dev/full")
        let result = try ProcessRun(configuration).run()
        #expect(result.exit == .outputFailed(
            "cannot write /dev/full: write failed: No space left on device (ENOSPC); free some space or write elsewhere; "
                + "the 0 rows written before it are kept"))
        #expect(result.summary.processedFrames == 9)
    }
}
