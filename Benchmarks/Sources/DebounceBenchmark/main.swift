// Debounce benchmark: the cost of sending values into a debouncer, side by side with peers.
//
//   Benchmarks/run-debounce-benchmark.sh [--sends N] [--interval-ms MS] [--bursts B]
//   Benchmarks/debounce-instructions.sh          (instructions per send, under callgrind)
//
// Scenario 1 (one long burst): N values sent back to back from one task into a debouncer with a
// 50 ms interval. Per subject: median and 99th percentile cost of one send() (timed over batches of
// 1000), end-to-end wall and CPU time per value until every value was processed, heap allocations
// per value (needs the malloc interposer preloaded; the run script does that), peak resident memory,
// and a check that the debounced output is the last value sent.
//
// Scenario 2 (short bursts): B bursts of 1000 values, each followed by a quiet period longer than
// the interval: timer tasks and wake-ups per burst for the debouncers that report them.

import Debounce
import Dispatch
import Foundation
import Glibc
import MallocInterposerSwift
import Synchronization

struct Options {
    var sends = 1_000_000
    var interval = Duration.milliseconds(50)
    var bursts = 50
    var rounds = 3
    var instructionsSubject: String?
    /// Set in the child processes the table is made from: run this subject once and print a result line.
    var subject: String?

    init(arguments: [String]) {
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst() {
            switch argument {
            case "--sends": sends = Int(rest.popFirst() ?? "") ?? sends
            case "--interval-ms": interval = .milliseconds(Int(rest.popFirst() ?? "") ?? 50)
            case "--bursts": bursts = Int(rest.popFirst() ?? "") ?? bursts
            case "--rounds": rounds = max(1, Int(rest.popFirst() ?? "") ?? rounds)
            case "--instructions": instructionsSubject = rest.popFirst()
            case "--subject": subject = rest.popFirst()
            case "--help", "-h":
                print("usage: DebounceBenchmark [--sends N] [--interval-ms MS] [--bursts B] [--rounds R] [--instructions SUBJECT]")
                print("subjects: \(allSubjects.map { $0.name }.joined(separator: ", "))")
                exit(0)
            default:
                print("unknown argument \(argument); try --help")
                exit(2)
            }
        }
    }
}

/// Collects the outputs of a subject, and lets the benchmark wait for a given output without
/// polling (polling would add work in proportion to elapsed time, which callgrind would count).
final class Sink: Sendable {
    private struct State {
        var count = 0
        var last = -1
        var waiter: (value: Int, continuation: CheckedContinuation<Void, Never>)?
    }

    private let state = Mutex(State())

    func record(_ value: Int) {
        let resume = state.withLock { s -> CheckedContinuation<Void, Never>? in
            s.count += 1
            s.last = value
            guard let waiter = s.waiter, waiter.value == value else { return nil }
            s.waiter = nil
            return waiter.continuation
        }
        resume?.resume()
    }

    var snapshot: (count: Int, last: Int) { state.withLock { ($0.count, $0.last) } }

    /// Returns once `value` has been output.
    func wait(for value: Int) async {
        await withCheckedContinuation { continuation in
            let done = state.withLock { s -> Bool in
                if s.last == value { return true }
                s.waiter = (value, continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }
}

struct BurstResult {
    /// The result as one tab-separated line, for the parent process.
    var line: String {
        ["RESULT", name, "\(medianSend)", "\(p99Send)", "\(wallPerValue)", "\(cpuPerValue)",
         allocationsPerValue.map { "\($0)" } ?? "-", "\(peakRSS)", outputCorrect ? "1" : "0",
         timer.map { "\($0.tasksStarted)" } ?? "-", timer.map { "\($0.wakeups)" } ?? "-"].joined(separator: "\t")
    }

    init?(line: Substring) {
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 11, fields[0] == "RESULT",
              let median = Double(fields[2]), let p99 = Double(fields[3]), let wall = Double(fields[4]),
              let cpu = Double(fields[5]), let rss = Double(fields[7]) else { return nil }
        self.init(
            name: fields[1], medianSend: median, p99Send: p99, wallPerValue: wall, cpuPerValue: cpu,
            allocationsPerValue: Double(fields[6]), peakRSS: rss, outputCorrect: fields[8] == "1",
            timer: Int(fields[9]).flatMap { tasks in Int(fields[10]).map { TimerStatistics(tasksStarted: tasks, wakeups: $0) } }
        )
    }

    init(name: String, medianSend: Double, p99Send: Double, wallPerValue: Double, cpuPerValue: Double,
         allocationsPerValue: Double?, peakRSS: Double, outputCorrect: Bool, timer: TimerStatistics?) {
        self.name = name
        self.medianSend = medianSend
        self.p99Send = p99Send
        self.wallPerValue = wallPerValue
        self.cpuPerValue = cpuPerValue
        self.allocationsPerValue = allocationsPerValue
        self.peakRSS = peakRSS
        self.outputCorrect = outputCorrect
        self.timer = timer
    }

    let name: String
    let medianSend: Double
    let p99Send: Double
    let wallPerValue: Double
    let cpuPerValue: Double
    let allocationsPerValue: Double?
    let peakRSS: Double
    let outputCorrect: Bool
    let timer: TimerStatistics?
}

let clock = ContinuousClock()

func nanoseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
}

func cpuTime() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let user = Double(usage.ru_utime.tv_sec) * 1e9 + Double(usage.ru_utime.tv_usec) * 1e3
    let system = Double(usage.ru_stime.tv_sec) * 1e9 + Double(usage.ru_stime.tv_usec) * 1e3
    return user + system
}

/// Peak resident set size in MiB (VmHWM).
func peakRSS() -> Double {
    guard let file = fopen("/proc/self/status", "r") else { return .nan }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, Int32(line.count), file) != nil {
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if text.hasPrefix("VmHWM:") {
            let kilobytes = Double(text.split(separator: " ").dropFirst().first ?? "") ?? .nan
            return kilobytes / 1024
        }
    }
    return .nan
}

/// Whether allocations are being counted: the interposer only sees mallocs when it was preloaded.
func allocationCountingWorks() -> Bool {
    MallocInterposerSwift.reset()
    MallocInterposerSwift.hook()
    let probe = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 8)
    MallocInterposerSwift.unhook()
    probe.deallocate()
    return MallocInterposerSwift.getStatistics().mallocCount > 0
}

func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
    sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
}

/// Waits for the debounced output; `false` if it is not `last` within the timeout.
func waitForOutput(_ sink: Sink, last: Int, timeout: Duration = .seconds(30)) async -> Bool {
    await withTaskGroup(of: Bool.self) { group in
        group.addTask {
            await sink.wait(for: last)
            return true
        }
        group.addTask {
            try? await Task.sleep(for: timeout)
            return false
        }
        let first = await group.next()!
        group.cancelAll()
        if !first { sink.record(-2) }  // releases the waiter so the group can end
        return first && sink.snapshot.last == last
    }
}

/// Generic over the subject so that each subject's `send` is called directly in the loop, not
/// through an existential: the loop itself then costs the same for every subject.
func runBurst<Subject: BenchmarkSubject>(_ type: Subject.Type, options: Options, countAllocations: Bool) async -> BurstResult {
    let sink = Sink()
    let subject = Subject(interval: options.interval, output: sink.record)
    var batchCosts: [Double] = []
    batchCosts.reserveCapacity(options.sends / 1000 + 1)
    let cpuStart = cpuTime()
    if countAllocations {
        MallocInterposerSwift.reset()
        MallocInterposerSwift.hook()
    }
    let start = clock.now
    var sent = 0
    while sent < options.sends {
        let batchStart = clock.now
        let batchEnd = min(sent + 1000, options.sends)
        let first = sent
        while sent < batchEnd {
            subject.send(sent)
            sent += 1
        }
        batchCosts.append(nanoseconds(clock.now - batchStart) / Double(batchEnd - first))
    }
    await subject.processAll()
    let elapsed = clock.now - start
    if countAllocations { MallocInterposerSwift.unhook() }
    let cpu = cpuTime() - cpuStart
    let allocations = countAllocations ? Double(MallocInterposerSwift.getStatistics().mallocCount) : nil
    let correct = await waitForOutput(sink, last: options.sends - 1)
    batchCosts.sort()
    let result = BurstResult(
        name: type.name,
        medianSend: percentile(batchCosts, 0.5),
        p99Send: percentile(batchCosts, 0.99),
        wallPerValue: nanoseconds(elapsed) / Double(options.sends),
        cpuPerValue: cpu / Double(options.sends),
        allocationsPerValue: allocations.map { $0 / Double(options.sends) },
        peakRSS: peakRSS(),
        outputCorrect: correct,
        timer: subject.timerStatistics
    )
    withExtendedLifetime(subject) {}
    return result
}

/// Runs one subject in a fresh process (this program with `--subject`), so that no thread, task or
/// memory of another subject can affect it, and its peak RSS is its own.
func runInChildProcess(_ name: String, options: Options) -> BurstResult? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    let (seconds, attoseconds) = options.interval.components
    let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
    process.arguments = ["--subject", name, "--sends", "\(options.sends)", "--interval-ms", "\(milliseconds)"]
    let pipe = Pipe()
    process.standardOutput = pipe
    do { try process.run() } catch { return nil }
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    let text = String(decoding: output, as: UTF8.self)
    return text.split(separator: "\n").lazy.compactMap(BurstResult.init(line:)).first
}

func format(_ value: Double, _ decimals: Int = 0) -> String {
    guard value.isFinite else { return "n/a" }
    var text = String(Int((value * pow(10, Double(decimals))).rounded()))
    if decimals > 0 {
        while text.count <= decimals { text = "0" + text }
        text.insert(".", at: text.index(text.endIndex, offsetBy: -decimals))
    }
    return text
}

func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
    let padding = String(repeating: " ", count: max(0, width - text.count))
    return left ? text + padding : padding + text
}

// MARK: - Main

// The benchmark runs in a task while the main thread waits on a semaphore. An `async` top-level
// main parks the main thread in dispatch_main(), whose sigsuspend valgrind 3.19 (Debian bookworm)
// cannot follow: it aborts with an internal SIGSEGV, and callgrind could not count instructions.
let options = Options(arguments: CommandLine.arguments)
let finished = DispatchSemaphore(value: 0)
let exitStatus = Mutex<Int32>(0)
Task.detached {
    let status = await runBenchmark(options)
    exitStatus.withLock { $0 = status }
    finished.signal()
}
finished.wait()
exit(exitStatus.withLock { $0 })

func runBenchmark(_ options: Options) async -> Int32 {
    if let name = options.instructionsSubject {
        // One burst only, for callgrind: run twice with different --sends and divide the difference.
        guard let runner = (allSubjects + [baseline]).first(where: { $0.name == name }) else {
            print("no subject named \(name); subjects: \(allSubjects.map { $0.name })")
            exit(2)
        }
        let result = await runner.runBurst(options, false)
        print("\(runner.name): \(options.sends) sends, output \(result.outputCorrect ? "correct" : "WRONG")")
        return result.outputCorrect ? 0 : 1
    }

    if let name = options.subject {
        guard let runner = allSubjects.first(where: { $0.name == name }) else { return 2 }
        let result = await runner.runBurst(options, allocationCountingWorks())
        print(result.line)
        return 0
    }

    print("Scenario 1: \(options.sends) values sent back to back from one task, interval \(options.interval);")
    print("each subject runs \(options.rounds) times in a process of its own, interleaved with the others;")
    print("the round with the median wall time is shown")
    if !allocationCountingWorks() {
        print("(allocation counts need the malloc interposer preloaded: use Benchmarks/run-debounce-benchmark.sh)")
    }
    let header = [pad("subject", 26, left: true), pad("median send", 12), pad("p99 send", 10), pad("wall/value", 11),
                  pad("CPU/value", 10), pad("allocs/value", 13), pad("peak RSS", 10), "  output"]
    print(header.joined(separator: " "))
    print("", pad("ns", 38), pad("ns", 10), pad("ns", 11), pad("ns", 10), pad("", 13), pad("MiB", 10))
    var rounds: [[BurstResult]] = Array(repeating: [], count: allSubjects.count)
    for _ in 0..<options.rounds {
        for (index, runner) in allSubjects.enumerated() {
            guard let result = runInChildProcess(runner.name, options: options) else {
                print("\(runner.name): the child process failed")
                return 1
            }
            rounds[index].append(result)
        }
    }
    var results: [BurstResult] = []
    var failures: [String] = []
    for subjectRounds in rounds {
        let sorted = subjectRounds.sorted { $0.wallPerValue < $1.wallPerValue }
        let result = sorted[sorted.count / 2]
        results.append(result)
        if !subjectRounds.allSatisfy(\.outputCorrect) { failures.append(result.name) }
        let row = [
            pad(result.name, 26, left: true), pad(format(result.medianSend, 1), 12), pad(format(result.p99Send, 1), 10),
            pad(format(result.wallPerValue, 1), 11), pad(format(result.cpuPerValue, 1), 10),
            pad(result.allocationsPerValue.map { format($0, 4) } ?? "n/a", 13), pad(format(result.peakRSS, 1), 10),
            "  " + (result.outputCorrect ? "last value" : "WRONG") + (result.timer.map { ", \($0)" } ?? ""),
        ]
        print(row.joined(separator: " "))
    }

    let ours = results[0]
    print("")
    for peer in results.dropFirst(2) {
        print("\(ours.name) is \(format(peer.wallPerValue / ours.wallPerValue, 1))x faster per value (wall) and "
            + "\(format(peer.cpuPerValue / ours.cpuPerValue, 1))x cheaper per value (CPU) than \(peer.name)")
    }

    print("")
    print("Scenario 2: \(options.bursts) bursts of 1000 values, each followed by \(options.interval + .milliseconds(30)) of quiet")
    for type in [ConditionalDebouncerSubject.self, DebouncerSubject.self] as [any BenchmarkSubject.Type] {
        let sink = Sink()
        let subject = type.init(interval: options.interval, output: sink.record)
        var value = 0
        for _ in 0..<options.bursts {
            for _ in 0..<1000 {
                subject.send(value)
                value += 1
            }
            try? await Task.sleep(for: options.interval + .milliseconds(30))
        }
        let delivered = sink.snapshot.count
        let timer = subject.timerStatistics!
        print("\(pad(type.name, 22, left: true)) \(delivered) deliveries for \(options.bursts) bursts; "
            + "\(format(Double(timer.tasksStarted) / Double(options.bursts), 2)) timer tasks and "
            + "\(format(Double(timer.wakeups) / Double(options.bursts), 2)) wake-ups per burst")
    }
    if !failures.isEmpty {
        print("WRONG OUTPUT in some round: \(failures.joined(separator: ", "))")
        return 1
    }
    return 0
}
