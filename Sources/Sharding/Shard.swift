import FileFormats
import MarkerShutter
/// One task of a job split `count` ways: task `index`, from 0 to `count - 1`.
///
/// Written `K/N` on the command line, or taken from the environment a scheduler gives each task
/// of an array job:
/// - `slurm`: `SLURM_ARRAY_TASK_ID` and `SLURM_ARRAY_TASK_COUNT` (an array `--array=0-(N-1)`);
/// - `kubernetes`: `JOB_COMPLETION_INDEX` (an Indexed Job) and ``countVariable``, which the Job's
///   pod template sets to its `completions`.
///
/// In both, ``countVariable`` when set gives the count instead of the scheduler: a task run again
/// alone (`sbatch --array=2`) is still task 2 of the whole array.
public struct Shard: Sendable, Hashable, CustomStringConvertible {
    /// The environment variable that gives the number of tasks: `MARKER_SHUTTER_SHARDS`.
    public static let countVariable = "MARKER_SHUTTER_SHARDS"

    /// This task, from 0.
    public let index: Int
    /// How many tasks share the work.
    public let count: Int

    /// Task `index` of `count`.
    ///
    /// - Throws: ``ShardError`` when `count` is below 1 or `index` is not in `0..<count`.
    public init(index: Int, count: Int) throws(ShardError) {
        guard count >= 1, count <= Self.maximumCount else { throw .badCount("\(count)") }
        guard index >= 0, index < count else { throw .indexOutOfRange(index: index, count: count) }
        self.index = index
        self.count = count
    }

    /// The most tasks one job may have: 1,000,000.
    static let maximumCount = ShardLine.maximumShards

    /// Reads `--shard`'s value: `K/N`, `slurm` or `kubernetes` (the last two from `environment`).
    ///
    /// - Throws: ``ShardError`` naming what is wrong and what to give instead.
    public init(parsing text: String, environment: [String: String]) throws(ShardError) {
        switch text {
        case "slurm":
            let index = try Self.number(in: environment, "SLURM_ARRAY_TASK_ID", hint: "run it as a task of an array job (sbatch --array=0-N)")
            let count = try environment[Self.countVariable] != nil
                ? Self.number(in: environment, Self.countVariable, hint: "")
                : Self.number(in: environment, "SLURM_ARRAY_TASK_COUNT", hint: "run it as a task of an array job (sbatch --array=0-N)")
            try self.init(index: index, count: count, from: text)
        case "kubernetes":
            let index = try Self.number(in: environment, "JOB_COMPLETION_INDEX", hint: "run it in an Indexed Job (completionMode: Indexed)")
            let count = try Self.number(in: environment, Self.countVariable, hint: "set it to the Job's completions in the pod template")
            try self.init(index: index, count: count, from: text)
        default:
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else { throw .malformed(text) }
            try self.init(index: index, count: count)
        }
    }

    private init(index: Int, count: Int, from source: String) throws(ShardError) {
        do {
            try self.init(index: index, count: count)
        } catch .indexOutOfRange(let index, let count) {
            throw .environmentOutOfRange(index: index, count: count)
        }
    }

    private static func number(in environment: [String: String], _ name: String, hint: String) throws(ShardError) -> Int {
        guard let text = environment[name] else { throw .unset(name, hint: hint) }
        guard let value = Int(text) else { throw .notANumber(name, text) }
        return value
    }

    /// `2/4`.
    public var description: String { "\(index)/\(count)" }
}

/// A `--shard` value that names no task.
public enum ShardError: Error, Equatable, CustomStringConvertible {
    /// Not `K/N`, `slurm` or `kubernetes`.
    case malformed(String)
    /// A count below 1 or above ``Shard/maximumCount``.
    case badCount(String)
    /// `K` is not below `N`.
    case indexOutOfRange(index: Int, count: Int)
    /// The scheduler's task index is not below the count it gives.
    case environmentOutOfRange(index: Int, count: Int)
    /// An environment variable the source needs is not set.
    case unset(String, hint: String)
    /// An environment variable holds something other than a whole number.
    case notANumber(String, String)

    public var description: String {
        switch self {
        case .malformed(let text):
            "--shard takes K/N (task K of N, K from 0), slurm or kubernetes; got '\(text)'"
        case .badCount(let text):
            "the number of shards must be from 1 to \(Shard.maximumCount), got \(text)"
        case .indexOutOfRange(let index, let count):
            "shard \(index)/\(count): K must be from 0 to \(count - 1)"
        case .environmentOutOfRange(let index, let count):
            "task \(index) of \(count): the task index must be from 0 to \(count - 1) (an array --array=0-\(count - 1)); "
                + "a task run again alone needs \(Shard.countVariable) set to the whole array's size"
        case .unset(let name, let hint):
            "\(name) is not set" + (hint.isEmpty ? "" : ": \(hint)")
        case .notANumber(let name, let text):
            "\(name) is '\(text)', not a whole number"
        }
    }
}
