import FileFormats
import Foundation
import MarkerDetection
@testable import MarkerShutter
@testable import Sharding
import Testing

/// ``ShardRun`` and ``ShardMerge``: the sample session cut into shards and put together again
/// gives `process`'s rows and summary; missing, doubled, foreign and cut-short shards are refused.
@Suite struct ShardMergeTests {
    static let pattern = "charuco:5x7:DICT_6X6_250"

    /// Writes `folder`'s `count` shards into `output` and returns their paths, shard 0 first.
    static func writeShards(of folder: String, count: Int, into output: String, hold: Duration = .milliseconds(300)) throws -> [String] {
        let frames = try FrameFolder(path: folder)
        let detector = try MarkerDetector(pattern: try Pattern(parsing: pattern))
        return try (0..<count).map { index in
            var configuration = ShardRun.Configuration(folder: frames, detector: detector, rule: ValidityRule(defaultsFor: detector.pattern),
                                                       shard: try Shard(index: index, count: count), outputFolder: output)
            configuration.options.hold = hold
            let result = try ShardRun(configuration).run()
            #expect(result.exit == .complete)
            return result.path
        }
    }

    /// `process`'s rows and summary for `folder`, in-process.
    static func oneMachine(_ folder: String, scratch: String) throws -> (rows: [String], summary: ProcessingSummary) {
        let detector = try MarkerDetector(pattern: try Pattern(parsing: pattern))
        var configuration = ProcessRun.Configuration(folder: try FrameFolder(path: folder), detector: detector,
                                                     rule: ValidityRule(defaultsFor: detector.pattern))
        let path = scratch + "/one-machine.jsonl"
        configuration.output = .replacing(path)
        let result = try ProcessRun(configuration).run()
        return (try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init), result.summary)
    }

    /// A row with its `detect_ms`, each frame's own timing, taken out.
    static func withoutTiming(_ row: String) -> String {
        row.replacingOccurrences(of: #","detect_ms":[0-9.e-]+"#, with: "", options: .regularExpression)
    }

    @Test func fourShardsMergeIntoTheRowsAndSummaryOfOneMachine() throws {
        let scratch = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let paths = try Self.writeShards(of: SampleSessionTests.folder, count: 4, into: scratch + "/shards")
        #expect(paths.map { ($0 as NSString).lastPathComponent }
            == (0..<4).map { "charuco-session.shard-\($0)-of-4.jsonl" })
        let recordings = try ShardMerge.recordings(try ShardMerge.files(in: [scratch + "/shards"]))
        try #require(recordings.count == 1)
        #expect(recordings[0].files == paths)
        // Checked without writing, then written as it is read.
        let checked = try ShardMerge.merge(recordings[0])
        let output = scratch + "/merged.jsonl"
        let writer = try SafeOutput.Writer(.replacing(output))
        let merged = try ShardMerge.merge(recordings[0], into: writer)
        try writer.commit(replacing: false)
        #expect(checked.summary.timelineLines == merged.summary.timelineLines)
        let rows = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n").map(String.init)
        let single = try Self.oneMachine(SampleSessionTests.folder, scratch: scratch)
        #expect(rows.count == 120)
        #expect(rows.map(Self.withoutTiming) == single.rows.map(Self.withoutTiming))
        #expect(merged.summary.timelineLines == single.summary.timelineLines)
        #expect(merged.summary.timelineLines == [
            "  valid frames: 85 of 120", "  shutter enabled: 3.27 s in 2 stretches: 0-80, 102-119", "  errors: 0",
        ])
        #expect(merged.trailers.map(\.rows) == [30, 30, 30, 30])
    }

    @Test func aMissingShardIsNamedWithItsFramesAndTask() throws {
        let scratch = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let paths = try Self.writeShards(of: SampleSessionTests.folder, count: 4, into: scratch)
        try FileManager.default.removeItem(atPath: paths[2])
        let error = #expect(throws: ShardMergeError.self) { try ShardMerge.recordings(try ShardMerge.files(in: [scratch])) }
        #expect(error == .missing(recording: SampleSessionTests.folder, shards: [MissingShard(shard: 2, frames: 60..<90, task: 2)],
                                  of: 4, tasks: 4))
        #expect(error.map { "\($0)" } == "\(SampleSessionTests.folder): shard 2 (frames 60-89) of 4 is missing: run task 2 again "
            + "(sbatch --array=2 with MARKER_SHUTTER_SHARDS=4)")
    }

    /// A FIFO or a device named like a shard is refused before it is opened: reading a FIFO no one
    /// writes would wait for ever, a device would never end.
    @Test func whatIsNoRegularFileIsRefusedUnread() throws {
        let scratch = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let fifo = scratch + "/session.shard-0-of-1.jsonl"
        #expect(mkfifo(fifo, 0o644) == 0)
        #expect(throws: ShardMergeError.notAFile(fifo, "a FIFO")) { try ShardMerge.files(in: [scratch]) }
        #expect(throws: ShardMergeError.notAFile(fifo, "a FIFO")) { try ShardMerge.files(in: [fifo]) }
        #expect(throws: ShardMergeError.notAFile("/dev/zero", "a device")) { try ShardMerge.files(in: ["/dev/zero"]) }
        #expect("\(ShardMergeError.notAFile(fifo, "a FIFO"))" == "\(fifo) is a FIFO, not a shard file: give shard files or folders of them")
    }

    @Test func aDoubledShardIsRefusedNamingBothFiles() throws {
        let scratch = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let paths = try Self.writeShards(of: SampleSessionTests.folder, count: 4, into: scratch)
        try FileManager.default.copyItem(atPath: paths[1], toPath: scratch + "/copy.shard-1-of-4.jsonl")
        // Files of other names in the folder are not read as shards.
        try "{}\n".write(toFile: scratch + "/timeline.jsonl", atomically: true, encoding: .utf8)
        #expect(throws: ShardMergeError.doubled(shard: 1, of: 4, paths[1], scratch + "/copy.shard-1-of-4.jsonl")) {
            try ShardMerge.recordings(try ShardMerge.files(in: [scratch]))
        }
        #expect(throws: ShardMergeError.doubledFile(paths[1])) { try ShardMerge.recordings([paths[0], paths[1], paths[1]]) }
    }

    @Test func foreignShardsAreRefused() throws {
        let scratch = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let paths = try Self.writeShards(of: SampleSessionTests.folder, count: 4, into: scratch + "/a")
        // The same folder with another hold: other options.
        let otherHold = try Self.writeShards(of: SampleSessionTests.folder, count: 4, into: scratch + "/b", hold: .milliseconds(500))
        let error = #expect(throws: ShardMergeError.self) { try ShardMerge.recordings([paths[0], paths[1], otherHold[2], paths[3]]) }
        #expect(error == .otherOptions(otherHold[2], paths[0], "hold 0.5 s vs 0.3 s"))
        // Another folder (the session's first 60 frames): another frame list.
        let other = scratch + "/first-60"
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        let manifest = try String(contentsOfFile: SampleSessionTests.folder + "/manifest.jsonl", encoding: .utf8)
            .split(separator: "\n").prefix(60).joined(separator: "\n") + "\n"
        try manifest.write(toFile: other + "/manifest.jsonl", atomically: true, encoding: .utf8)
        for line in manifest.split(separator: "\n") {
            let file = try #require((try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["file"] as? String)
            try FileManager.default.copyItem(atPath: SampleSessionTests.folder + "/" + file, toPath: other + "/" + file)
        }
        let foreign = try Self.writeShards(of: other, count: 4, into: scratch + "/c")
        let resolved = try FrameFolder(path: other).resolvedPath, expected = try FrameFolder(path: SampleSessionTests.folder).resolvedPath
        #expect(throws: ShardMergeError.foreign([foreign[2]], of: resolved, expected: expected)) {
            try ShardMerge.recordings([paths[0], paths[1], foreign[2], paths[3]], oneRecording: true)
        }
    }

    @Test func cutShortOrDamagedShardsAreRefused() throws {
        let scratch = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let paths = try Self.writeShards(of: SampleSessionTests.folder, count: 4, into: scratch)
        let original = try Data(contentsOf: URL(fileURLWithPath: paths[1]))
        var lines = String(decoding: original, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count == 33)  // header, 30 frames, trailer, and the empty end after the last newline
        func merging(_ text: String) throws -> ShardMergeError? {
            try text.write(toFile: paths[1], atomically: true, encoding: .utf8)
            let recordings = try ShardMerge.recordings(try ShardMerge.files(in: [scratch]))
            return #expect(throws: ShardMergeError.self) { try ShardMerge.merge(recordings[0]) }
        }
        // Cut after frame 49: no trailer.
        #expect(try merging(lines[0...20].joined(separator: "\n") + "\n")
            == .truncated(paths[1], "it ends after frame 49 without the shard's last line (frames 30-59)"))
        // Cut in the middle of a line.
        let text = lines.joined(separator: "\n")
        #expect(try merging(String(text.prefix(text.count / 2))) == .truncated(paths[1], "its last line has no newline"))
        // A frame's line lost, the trailer kept.
        lines.remove(at: 5)
        #expect(try merging(lines.joined(separator: "\n")) == .damaged(paths[1], line: 6, "frame 35 where frame 34 belongs"))
        // A header whose numbers cannot be.
        try String(decoding: original, as: UTF8.self).replacingOccurrences(of: "\"shards\":4", with: "\"shards\":0")
            .write(toFile: paths[1], atomically: true, encoding: .utf8)
        #expect(throws: ShardMergeError.damaged(paths[1], line: 1, "a shard header with impossible numbers")) {
            try ShardMerge.recordings(try ShardMerge.files(in: [scratch]))
        }
        // A frame count near the end of Int, a hold of centuries: refused before anything is made of them.
        for (field, value) in [("\"frames\":120", "\"frames\":9223372036854775000"), ("\"hold_ns\":300000000", "\"hold_ns\":9223372036854775000")] {
            try String(decoding: original, as: UTF8.self).replacingOccurrences(of: field, with: value)
                .write(toFile: paths[1], atomically: true, encoding: .utf8)
            let error = #expect(throws: ShardMergeError.self) { try ShardMerge.recordings(try ShardMerge.files(in: [scratch])) }
            #expect(error.map { "\($0)" }?.contains("impossible") == true, "\(value): \(error.map { "\($0)" } ?? "")")
        }
        // Not a shard file at all.
        try "{\"index\":0}\n".write(toFile: paths[1], atomically: true, encoding: .utf8)
        #expect(throws: ShardMergeError.notAShard(paths[1])) { try ShardMerge.recordings(try ShardMerge.files(in: [scratch])) }
    }

    /// A hostile-input table for `merge`: shard 1 of 4 replaced by each bad file, the error it
    /// gives (the file named, with the line where there is one). Grow it as new cases are found.
    @Test func aHostileShardFileIsRefusedNamingItsFileAndLine() throws {
        let scratch = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let paths = try Self.writeShards(of: SampleSessionTests.folder, count: 4, into: scratch)
        let original = try Data(contentsOf: URL(fileURLWithPath: paths[1]))
        let lines = String(decoding: original, as: UTF8.self).split(separator: "\n").map(String.init)
        let header = lines[0] + "\n", frame = lines[1] + "\n", rest = lines[2...].joined(separator: "\n") + "\n"
        let path = paths[1]
        let cases: [(String, [UInt8], String)] = [
            ("empty", [], "\(path) is not a shard file"),
            ("binary", (0..<4096).map { UInt8($0 % 256) }, "\(path) is not a shard file"),
            ("a header longer than any", Array(("{\"marker_shutter_shard\":1,\"x\":\"" + String(repeating: "x", count: 5 << 20)).utf8),
             "\(path) is not a shard file"),
            ("the header alone", Array(header.utf8), "\(path) is cut short (it ends after frame 29 without the shard's last line (frames 30-59))"),
            ("a line of 5 MiB", Array((header + "{\"index\":30," + String(repeating: " ", count: 5 << 20) + "}\n" + rest).utf8),
             "\(path), line 2: a line longer than 4 MiB, which no shard holds"),
            ("NUL bytes for a frame", Array(header.utf8) + [0, 0, 0, 10] + Array(rest.utf8), "\(path), line 2: not the end of shard 1"),
            ("not UTF-8", Array(header.utf8) + [0xFF, 0xFE, 0x7B, 10] + Array(rest.utf8), "\(path), line 2: not the end of shard 1"),
            ("a time beyond the range", Array((header + frame.replacingOccurrences(of: #""t_ns":"#, with: #""t_ns":9999999999"#) + rest).utf8),
             "\(path), line 2: no t_ns"),
            ("a line after the last", Array((header + frame + rest + frame).utf8), "\(path), line 33: a line after the shard's last"),
            ("another shard's end", Array((header + frame + rest.replacingOccurrences(of: #""marker_shutter_shard_end":1"#,
                                                                                      with: #""marker_shutter_shard_end":2"#)).utf8),
             "\(path), line 32: not the end of shard 1"),
            ("the last line cut", Array((header + frame + rest).utf8.dropLast(5)), "\(path) is cut short (its last line has no newline)"),
        ]
        for (name, bytes, message) in cases {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            do {
                let recordings = try ShardMerge.recordings(try ShardMerge.files(in: [scratch]))
                _ = try ShardMerge.merge(recordings[0])
                Issue.record("\(name): merged")
            } catch {
                #expect("\(error)".hasPrefix(message), "\(name): \(error)")
            }
        }
    }
}
