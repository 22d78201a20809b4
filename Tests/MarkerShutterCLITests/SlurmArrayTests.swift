import Foundation
import Testing

/// `Samples/slurm` on a single-node Slurm started here (`Scripts/start-local-slurm`): the sample
/// session as a 4-task array plus the merge, a list of 3 folders, and a failed task that the merge
/// names and a re-run of it alone completes. Skipped, with the reason, where Slurm cannot start.
@Suite(.serialized) struct SlurmArrayTests {
    static let submit = MarkerShutterBinary.packageRoot + "/Samples/slurm/submit"
    static let task = MarkerShutterBinary.packageRoot + "/Samples/slurm/process-task.sbatch"

    struct Ran {
        let status: Int32
        let output: String
        let error: String
    }

    /// The longest a script or `sbatch --wait` may take: a job the node never runs (a node gone
    /// down, say) fails the test instead of holding the whole run. A run here takes seconds.
    static let deadline = "900"

    /// Runs a program with the test's environment and `environment` added, and waits for it, under
    /// `timeout`, which ends the program and whatever it started at the deadline (status 124).
    static func run(_ program: String, _ arguments: [String], environment: [String: String] = [:], in directory: String? = nil) throws -> Ran {
        let scratch = try MarkerShutterBinary.temporaryFolder("script")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        _ = FileManager.default.createFile(atPath: scratch + "/out", contents: nil)
        _ = FileManager.default.createFile(atPath: scratch + "/err", contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["--kill-after=30", Self.deadline, program] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        process.standardOutput = FileHandle(forWritingAtPath: scratch + "/out")
        process.standardError = FileHandle(forWritingAtPath: scratch + "/err")
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return Ran(status: process.terminationStatus, output: try String(contentsOfFile: scratch + "/out", encoding: .utf8),
                   error: try String(contentsOfFile: scratch + "/err", encoding: .utf8))
    }

    /// Starts the local Slurm, or cancels the test with the reason it cannot start.
    static func startSlurm() throws {
        let started = try run(MarkerShutterBinary.packageRoot + "/Scripts/start-local-slurm", [])
        if started.status != 0 { try Test.cancel("a local Slurm cannot start here: \(started.error)") }
    }

    /// What the scripts need: the marker-shutter just built.
    static var environment: [String: String] { ["MARKER_SHUTTER": MarkerShutterBinary.path] }

    @Test func theSampleSessionAsAFourTaskArrayMergesToTheTimelineOfOneMachine() throws {
        try Self.startSlurm()
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let ran = try Self.run(Self.submit, [ShardCommandTests.session, "--tasks", "4", "--shards", scratch + "/shards",
                                             "--output", scratch + "/timeline.jsonl"], environment: Self.environment)
        #expect(ran.status == 0, "\(ran.error)")
        #expect(ran.error.contains("submit: 4 task(s): sbatch --array=0-3"), "\(ran.error)")
        let shards = try FileManager.default.contentsOfDirectory(atPath: scratch + "/shards").filter { $0.hasSuffix(".jsonl") }.sorted()
        #expect(shards == (0..<4).map { "charuco-session.shard-\($0)-of-4.jsonl" })
        let single = try ShardCommandTests.oneMachine(ShardCommandTests.session)
        #expect(ShardCommandTests.rows(try String(contentsOfFile: scratch + "/timeline.jsonl", encoding: .utf8)) == single.rows)
        #expect(ShardCommandTests.summary(of: ShardCommandTests.session, in: ran.error) == single.summary)
    }

    @Test func aListOfThreeFoldersIsOneArrayWithATimelinePerFolder() throws {
        try Self.startSlurm()
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let folders = try ShardCommandTests.threeFolders(in: scratch)
        try (folders.joined(separator: "\n") + "\n").write(toFile: scratch + "/list.txt", atomically: true, encoding: .utf8)
        let ran = try Self.run(Self.submit, ["--folders", scratch + "/list.txt", "--shards", scratch + "/shards",
                                             "--output", scratch + "/timelines"], environment: Self.environment)
        #expect(ran.status == 0, "\(ran.error)")
        #expect(ran.error.contains("submit: 3 task(s): sbatch --array=0-2"), "\(ran.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch + "/timelines").sorted() == ["part-1.jsonl", "part-2.jsonl", "part-3.jsonl"])
        for (index, folder) in folders.enumerated() {
            let single = try ShardCommandTests.oneMachine(folder)
            let rows = ShardCommandTests.rows(try String(contentsOfFile: scratch + "/timelines/part-\(index + 1).jsonl", encoding: .utf8))
            #expect(rows == single.rows, "part-\(index + 1)")
            #expect(ShardCommandTests.summary(of: folder, in: ran.error) == single.summary, "part-\(index + 1)")
        }
    }

    @Test func aKilledTaskIsNamedByTheMergeAndRunningItAgainAloneCompletesTheJob() throws {
        try Self.startSlurm()
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        // Task 2 is killed (SIGKILL) as it starts; the others run marker-shutter.
        let wrapper = scratch + "/killed-task-2"
        try """
            #!/bin/sh
            [ "$SLURM_ARRAY_TASK_ID" = 2 ] && kill -KILL $$
            exec "\(MarkerShutterBinary.path)" "$@"

            """.write(toFile: wrapper, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wrapper)
        let ran = try Self.run(Self.submit, [ShardCommandTests.session, "--tasks", "4", "--shards", scratch + "/shards",
                                             "--output", scratch + "/timeline.jsonl"], environment: ["MARKER_SHUTTER": wrapper])
        #expect(ran.status == 1)
        #expect(ran.error.contains("submit: some tasks failed"), "\(ran.error)")
        #expect(ran.error.contains("shard 2 (frames 60-89) of 4 is missing: run task 2 again (sbatch --array=2 with MARKER_SHUTTER_SHARDS=4)"),
                "\(ran.error)")
        #expect(!FileManager.default.fileExists(atPath: scratch + "/timeline.jsonl"))

        // Task 2 alone, as the merge says, then the merge again.
        let again = try Self.run("/usr/bin/sbatch", ["--wait", "--array=2", "--output=\(scratch)/shards/slurm-%A_%a.out", Self.task,
                                                    ShardCommandTests.session, "--output", scratch + "/shards"],
                                 environment: Self.environment.merging(["MARKER_SHUTTER_SHARDS": "4"]) { $1 })
        #expect(again.status == 0, "\(again.error)")
        let merged = try MarkerShutterBinary.run(["merge", scratch + "/shards", "--output", scratch + "/timeline.jsonl"])
        #expect(merged.status == 0, "\(merged.standardError)")
        let single = try ShardCommandTests.oneMachine(ShardCommandTests.session)
        #expect(ShardCommandTests.rows(try String(contentsOfFile: scratch + "/timeline.jsonl", encoding: .utf8)) == single.rows)
        #expect(ShardCommandTests.summary(merged.standardError) == single.summary)
    }
}
