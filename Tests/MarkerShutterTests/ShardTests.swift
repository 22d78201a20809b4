@testable import MarkerShutter
@testable import Sharding
import Testing

/// ``Shard``: `--shard K/N`, `slurm` and `kubernetes`.
@Suite struct ShardTests {
    @Test func kOfNIsReadAsGiven() throws {
        let shard = try Shard(parsing: "2/4", environment: [:])
        #expect(shard.index == 2 && shard.count == 4)
        #expect(shard.description == "2/4")
    }

    @Test func slurmGivesTheArrayTaskAndCount() throws {
        let shard = try Shard(parsing: "slurm", environment: ["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "4"])
        #expect(shard == (try Shard(index: 3, count: 4)))
    }

    @Test func theCountVariableKeepsATaskRunAgainAloneInItsPlace() throws {
        // `sbatch --array=2` runs task 2 in an array of 1.
        let environment = ["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "1"]
        #expect(throws: ShardError.environmentOutOfRange(index: 2, count: 1)) { try Shard(parsing: "slurm", environment: environment) }
        let shard = try Shard(parsing: "slurm", environment: environment.merging(["MARKER_SHUTTER_SHARDS": "4"]) { $1 })
        #expect(shard == (try Shard(index: 2, count: 4)))
    }

    @Test func kubernetesGivesTheCompletionIndexAndTheCountVariable() throws {
        let shard = try Shard(parsing: "kubernetes", environment: ["JOB_COMPLETION_INDEX": "0", "MARKER_SHUTTER_SHARDS": "5"])
        #expect(shard == (try Shard(index: 0, count: 5)))
        #expect(throws: ShardError.unset("MARKER_SHUTTER_SHARDS", hint: "set it to the Job's completions in the pod template")) {
            try Shard(parsing: "kubernetes", environment: ["JOB_COMPLETION_INDEX": "0"])
        }
    }

    @Test func badValuesSayWhatIsWrong() {
        #expect(throws: ShardError.malformed("2of4")) { try Shard(parsing: "2of4", environment: [:]) }
        #expect(throws: ShardError.indexOutOfRange(index: 4, count: 4)) { try Shard(parsing: "4/4", environment: [:]) }
        #expect(throws: ShardError.indexOutOfRange(index: -1, count: 4)) { try Shard(parsing: "-1/4", environment: [:]) }
        #expect(throws: ShardError.badCount("0")) { try Shard(parsing: "0/0", environment: [:]) }
        #expect(throws: ShardError.notANumber("SLURM_ARRAY_TASK_ID", "x")) {
            try Shard(parsing: "slurm", environment: ["SLURM_ARRAY_TASK_ID": "x", "SLURM_ARRAY_TASK_COUNT": "4"])
        }
        #expect((try? Shard(parsing: "slurm", environment: [:])) == nil)
        #expect("\(ShardError.unset("SLURM_ARRAY_TASK_ID", hint: "run it as a task of an array job (sbatch --array=0-N)"))"
            == "SLURM_ARRAY_TASK_ID is not set: run it as a task of an array job (sbatch --array=0-N)")
    }
}
