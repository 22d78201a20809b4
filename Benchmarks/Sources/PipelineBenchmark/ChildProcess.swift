import Foundation
import Synchronization

/// One program run to its end, with what the kernel says it cost (`wait4`).
struct ChildRun {
    /// Exit status, or 128 + the signal that ended it.
    var status: Int32
    /// From just before the program was started to just after it was reaped.
    var wallSeconds: Double
    /// User plus system CPU time of the program (and of children it waited for).
    var cpuSeconds: Double
    /// Peak resident set, in KiB.
    var peakKiB: Int
    /// Standard output and standard error.
    var output: String
    var errors: String
    /// Resident set samples taken while it ran: seconds since the start, KiB.
    var residentSamples: [(seconds: Double, kib: Int)] = []
}

enum ChildProcess {
    /// Runs `executable` with standard input from /dev/null and its output into files in `scratch`,
    /// and returns when it has ended. With `sampleEvery`, reads the program's VmRSS from
    /// /proc/PID/status at that interval while it runs.
    static func run(_ executable: String, _ arguments: [String], scratch: String,
                    sampleEvery interval: Duration? = nil) throws -> ChildRun {
        let outputPath = scratch + "/child.out", errorPath = scratch + "/child.err"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }

        let clock = ContinuousClock()
        let start = clock.now
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else { throw BenchmarkError("cannot start \(executable): \(String(cString: strerror(spawned)))") }

        let samples = Mutex<[(seconds: Double, kib: Int)]>([])
        let finished = Atomic<Bool>(false)
        let sampler = interval.map { interval in
            Thread { [pid] in
                while !finished.load(ordering: .acquiring) {
                    guard let kib = residentKiB(of: pid) else { break }
                    let elapsed = start.duration(to: clock.now)
                    samples.withLock { $0.append((elapsed.inSeconds, kib)) }
                    Thread.sleep(forTimeInterval: interval.inSeconds)
                }
            }
        }
        sampler?.start()

        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw BenchmarkError("wait4 failed: \(String(cString: strerror(errno)))") }
        }
        let elapsed = start.duration(to: clock.now)
        finished.store(true, ordering: .releasing)

        let signalled = status & 0x7F
        let exitStatus = signalled == 0 ? (status >> 8) & 0xFF : 128 + signalled
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return ChildRun(
            status: exitStatus,
            wallSeconds: elapsed.inSeconds,
            cpuSeconds: seconds(usage.ru_utime) + seconds(usage.ru_stime),
            peakKiB: usage.ru_maxrss,
            output: (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "",
            errors: (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "",
            residentSamples: samples.withLock { $0 })
    }

    /// VmRSS of a running process in KiB, or nil once it has gone.
    static func residentKiB(of pid: pid_t) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return nil }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension Duration {
    var inSeconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

/// The load averages over 1, 5 and 15 minutes, as `uptime` shows them.
func loadAverages() -> String {
    let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
    return text.split(separator: " ").prefix(3).joined(separator: ", ")
}
