import Foundation
import Testing

/// Runs each test on a thread of its own rather than on the shared pool of two threads that every
/// other test of the run also uses. A test here answers a program running against a real-time
/// camera (waits for a line, then sends a command): on the shared pool, a test that computes for
/// minutes without a pause holds a thread, and the answer comes minutes late, in another phase of
/// the camera's script. On its own thread the test is scheduled by the kernel like the program it
/// talks to, slowed by a busy machine but never parked behind other tests' work.
struct OwnThread: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard testCase != nil else { return try await function() }
        try await withTaskExecutorPreference(SingleThreadExecutor.shared) { try await function() }
    }
}

extension Trait where Self == OwnThread {
    /// Each test on a thread of its own (see ``OwnThread``).
    static var ownThread: OwnThread { OwnThread() }
}

/// An executor that runs every job given to it, in order, on one thread that does nothing else.
final class SingleThreadExecutor: TaskExecutor, @unchecked Sendable {
    /// The live tests run one at a time, so one thread serves them all.
    static let shared = SingleThreadExecutor(name: "live tests")

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []  // guarded by `condition`

    private init(name: String) {
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
