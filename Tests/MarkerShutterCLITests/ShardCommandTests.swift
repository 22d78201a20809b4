import Foundation
import Testing

/// `process --shard`, `process --folders` and `merge` run as commands, on one machine: the merged
/// rows and summary are `process`'s, a missing shard is named and nothing written.
@Suite struct ShardCommandTests {
    static let session = MarkerShutterBinary.packageRoot + "/Samples/charuco-session"

    /// Rows with each frame's `detect_ms` taken out.
    static func rows(_ text: String) -> [String] {
        text.split(separator: "\n").map {
            $0.replacingOccurrences(of: #","detect_ms":[0-9.e-]+"#, with: "", options: .regularExpression)
        }
    }

    /// A summary without its second line, which says how long the work took.
    static func summary(_ text: String) -> [String] {
        var lines = text.split(separator: "\n").map(String.init)
        if lines.count > 1 { lines.remove(at: 1) }
        return lines
    }

    /// The summary of `folder` among several printed one after another (without its second line).
    static func summary(of folder: String, in text: String) -> [String] {
        let lines = text.split(separator: "\n").map(String.init)
        guard let start = lines.firstIndex(where: { $0.hasPrefix(folder + ": ") }) else { return [] }
        return summary(([lines[start]] + lines[(start + 1)...].prefix { $0.hasPrefix(" ") }).joined(separator: "\n"))
    }

    /// `process` on one machine: its rows and summary.
    static func oneMachine(_ folder: String) throws -> (rows: [String], summary: [String]) {
        let result = try MarkerShutterBinary.run(["process", folder])
        try #require(result.status == 0, "\(result.standardError)")
        return (rows(result.standardOutput), summary(result.standardError))
    }

    /// Three folders made of the sample session's frames 0-39, 40-79 and 80-119, with their manifests.
    static func threeFolders(in scratch: String) throws -> [String] {
        let lines = try String(contentsOfFile: session + "/manifest.jsonl", encoding: .utf8).split(separator: "\n")
        return try (0..<3).map { part in
            let folder = scratch + "/part-\(part + 1)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let own = lines[(part * 40)..<(part * 40 + 40)]
            try (own.joined(separator: "\n") + "\n").write(toFile: folder + "/manifest.jsonl", atomically: true, encoding: .utf8)
            for line in own {
                let file = try #require((try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["file"] as? String)
                try FileManager.default.copyItem(atPath: session + "/" + file, toPath: folder + "/" + file)
            }
            return folder
        }
    }

    @Test func fourShardsMergedAreTheRowsAndSummaryOfProcess() throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        for task in 0..<4 {
            let result = try MarkerShutterBinary.run(["process", Self.session, "--shard", "\(task)/4", "--output", scratch + "/shards"])
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardError.contains("shard \(task) of 4, frames \(task * 30)-\(task * 30 + 29) of 120"), "\(result.standardError)")
            #expect(result.standardOutput.isEmpty)
        }
        let merged = try MarkerShutterBinary.run(["merge", scratch + "/shards", "--output", scratch + "/timeline.jsonl"])
        #expect(merged.status == 0, "\(merged.standardError)")
        let single = try Self.oneMachine(Self.session)
        #expect(Self.rows(try String(contentsOfFile: scratch + "/timeline.jsonl", encoding: .utf8)) == single.rows)
        #expect(Self.summary(merged.standardError) == single.summary)
        #expect(merged.standardError.contains("processed in 4 shards ("))
        // Run again, the timeline is kept unless --force.
        let again = try MarkerShutterBinary.run(["merge", scratch + "/shards", "--output", scratch + "/timeline.jsonl"])
        #expect(again.status == 1)
        #expect(again.standardError.contains("timeline.jsonl exists; use --force to replace it; nothing written"), "\(again.standardError)")
    }

    @Test func aMissingShardIsNamedAndNothingIsWritten() throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        for task in [0, 1, 3] {
            let result = try MarkerShutterBinary.run(["process", Self.session, "--shard", "\(task)/4", "--output", scratch])
            #expect(result.status == 0, "\(result.standardError)")
        }
        let merged = try MarkerShutterBinary.run(["merge", scratch, "--output", scratch + "/timeline.jsonl"])
        #expect(merged.status == 1)
        #expect(merged.standardError.contains(
            "\(Self.session): shard 2 (frames 60-89) of 4 is missing: run task 2 again (sbatch --array=2 with MARKER_SHUTTER_SHARDS=4); nothing written"),
            "\(merged.standardError)")
        #expect(!FileManager.default.fileExists(atPath: scratch + "/timeline.jsonl"))
    }

    /// A shard found damaged part-way, after rows of the shards before it were written: the output
    /// that was there is kept as it was, no temporary file is left, and standard output gets
    /// nothing; whole shards merge to standard output as to a file.
    @Test func aShardDamagedPartWayLeavesTheOutputAsItWas() throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        for task in 0..<4 {
            let result = try MarkerShutterBinary.run(["process", Self.session, "--shard", "\(task)/4", "--output", scratch + "/shards"])
            #expect(result.status == 0, "\(result.standardError)")
        }
        let last = scratch + "/shards/charuco-session.shard-3-of-4.jsonl"
        let whole = try Data(contentsOf: URL(fileURLWithPath: last))
        try whole.dropLast(3).write(to: URL(fileURLWithPath: last))
        try "rows of an earlier merge\n".write(toFile: scratch + "/timeline.jsonl", atomically: true, encoding: .utf8)
        let refused = try MarkerShutterBinary.run(["merge", scratch + "/shards", "--output", scratch + "/timeline.jsonl", "--force"])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("\(last) is cut short (its last line has no newline): run its task again; nothing written"),
                "\(refused.standardError)")
        #expect(try String(contentsOfFile: scratch + "/timeline.jsonl", encoding: .utf8) == "rows of an earlier merge\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch).sorted() == ["shards", "timeline.jsonl"])
        let toStandardOutput = try MarkerShutterBinary.run(["merge", scratch + "/shards", "--output", "-"])
        #expect(toStandardOutput.status == 1)
        #expect(toStandardOutput.standardOutput.isEmpty)
        try whole.write(to: URL(fileURLWithPath: last))
        let merged = try MarkerShutterBinary.run(["merge", scratch + "/shards", "--output", scratch + "/timeline.jsonl", "--force"])
        #expect(merged.status == 0, "\(merged.standardError)")
        let piped = try MarkerShutterBinary.run(["merge", scratch + "/shards", "--output", "-"])
        #expect(piped.status == 0, "\(piped.standardError)")
        let rows = Self.rows(try String(contentsOfFile: scratch + "/timeline.jsonl", encoding: .utf8))
        #expect(rows.count == 120)
        #expect(Self.rows(piped.standardOutput) == rows)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch).sorted() == ["shards", "timeline.jsonl"])
    }

    /// The recording the shards were made from is never written into, with --force or without:
    /// not over its manifest, not over a frame, not beside them, not through a link to it.
    @Test func theRecordingTheShardsWereMadeFromIsNeverWrittenInto() throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let folder = try Self.threeFolders(in: scratch)[0]
        for task in 0..<2 {
            let result = try MarkerShutterBinary.run(["process", folder, "--shard", "\(task)/2", "--output", scratch + "/shards"])
            #expect(result.status == 0, "\(result.standardError)")
        }
        try FileManager.default.createSymbolicLink(atPath: scratch + "/link", withDestinationPath: folder)
        let manifest = try Data(contentsOf: URL(fileURLWithPath: folder + "/manifest.jsonl"))
        let before = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        let frame = try #require(before.first { $0.hasSuffix(".jpg") })
        for output in [folder + "/manifest.jsonl", folder + "/" + frame, folder + "/timeline.jsonl", folder + "/", scratch + "/link/rows.jsonl"] {
            let merged = try MarkerShutterBinary.run(["merge", scratch + "/shards", "--output", output, "--force"])
            #expect(merged.status == 1, "\(output): \(merged.standardError)")
            #expect(merged.standardError.contains("is inside the input folder \(folder), which is never written into"),
                    "\(output): \(merged.standardError)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == before)
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/manifest.jsonl")) == manifest)
        // Beside it is fine.
        let beside = try MarkerShutterBinary.run(["merge", scratch + "/shards", "--output", scratch + "/timeline.jsonl"])
        #expect(beside.status == 0, "\(beside.standardError)")
    }

    /// Names from a folder list reach the terminal escaped: an escape sequence in a listed folder's
    /// name is printed as `\u{1B}`, never sent raw, whether the folder is missing or holds no frames.
    @Test func escapeSequencesInAFolderListAreNotSentToTheTerminal() throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let empty = scratch + "/empty\u{1B}[2J\u{1B}]0;owned\u{07}"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        for list in [empty, scratch + "/missing\u{1B}[31m"] {
            try (list + "\n").write(toFile: scratch + "/list.txt", atomically: true, encoding: .utf8)
            let result = try MarkerShutterBinary.run(["process", "--folders", scratch + "/list.txt", "--shard", "0/1",
                                                      "--output", scratch + "/shards"])
            #expect(result.status != 0, "\(result.standardError)")
            #expect(!result.standardError.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, "\(result.standardError)")
            #expect(result.standardError.contains("\\u{1B}["), "\(result.standardError)")
        }
    }

    @Test func aListOfThreeFoldersOverTwoTasksGivesEachFolderItsTimeline() throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let folders = try Self.threeFolders(in: scratch)
        try ("# three parts\n" + folders.joined(separator: "\n") + "\n").write(toFile: scratch + "/list.txt", atomically: true, encoding: .utf8)
        // Two tasks, two shards per folder: six shards, task 0 does 0, 2, 4 and task 1 does 1, 3, 5.
        for task in 0..<2 {
            let result = try MarkerShutterBinary.run(["process", "--folders", scratch + "/list.txt", "--shards-per-folder", "2",
                                                      "--shard", "\(task)/2", "--output", scratch + "/shards"])
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardError.components(separatedBy: "wrote ").count - 1 == 3, "\(result.standardError)")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: scratch + "/shards").sorted()
        #expect(names == ["part-1.shard-0-of-2.jsonl", "part-1.shard-1-of-2.jsonl", "part-2.shard-0-of-2.jsonl",
                          "part-2.shard-1-of-2.jsonl", "part-3.shard-0-of-2.jsonl", "part-3.shard-1-of-2.jsonl"])
        // One shard lost: the merge names the folder's shard and the task that writes it.
        try FileManager.default.moveItem(atPath: scratch + "/shards/part-2.shard-1-of-2.jsonl", toPath: scratch + "/part-2.lost")
        let refused = try MarkerShutterBinary.run(["merge", scratch + "/shards", "--output", scratch + "/timelines/"])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("\(folders[1]): shard 1 (frames 20-39) of 2 is missing: run task 1 again"), "\(refused.standardError)")
        #expect(!FileManager.default.fileExists(atPath: scratch + "/timelines"))
        try FileManager.default.moveItem(atPath: scratch + "/part-2.lost", toPath: scratch + "/shards/part-2.shard-1-of-2.jsonl")

        let merged = try MarkerShutterBinary.run(["merge", scratch + "/shards", "--output", scratch + "/timelines/"])
        #expect(merged.status == 0, "\(merged.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch + "/timelines").sorted() == ["part-1.jsonl", "part-2.jsonl", "part-3.jsonl"])
        for (index, folder) in folders.enumerated() {
            let single = try Self.oneMachine(folder)
            let rows = Self.rows(try String(contentsOfFile: scratch + "/timelines/part-\(index + 1).jsonl", encoding: .utf8))
            #expect(rows == single.rows, "part-\(index + 1)")
            #expect(Self.summary(of: folder, in: merged.standardError) == single.summary, "part-\(index + 1)")
        }
    }

    @Test func shardingOptionsAreCheckedBeforeAnyWork() throws {
        try MarkerShutterBinary.expectUsageError(["process", Self.session, "--shard", "1/4"],
                                                 message: "--shard writes shard files into a folder: give it as --output DIR")
        try MarkerShutterBinary.expectUsageError(["process", Self.session, "--shard", "4/4", "--output", "shards"],
                                                 message: "shard 4/4: K must be from 0 to 3")
        try MarkerShutterBinary.expectUsageError(["process", Self.session, "--shard", "slurm", "--output", "shards"],
                                                 message: "SLURM_ARRAY_TASK_ID is not set")
        try MarkerShutterBinary.expectUsageError(["process", Self.session, "--shard", "0/2", "--output", "shards", "--select", "picks"],
                                                 message: "--select does not go with --shard")
        try MarkerShutterBinary.expectUsageError(["process", "--folders", "list.txt", "--output", "shards"],
                                                 message: "--folders needs --shard")
    }
}
