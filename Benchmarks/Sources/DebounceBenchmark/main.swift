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
import Glibc
import MallocInterposerSwift
import Synchronization

struct Options {
    var sends = 1_000_000
    var interval = Duration.milliseconds(50)
    var bursts = 50
    var instructionsSubject: String?

    init(arguments: [String]) {
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst() {
            switch argument {
            case "--sends": sends = Int(rest.popFirst() ?? "") ?? sends
            case "--interval-ms": interval = .milliseconds(Int(rest.popFirst() ?? "") ?? 50)
            case "--bursts": bursts = Int(rest.popFirst() ?? "") ?? bursts
            case "--instructions": instructionsSubject = rest.popFirst()
            case "--help", "-h":
                print("usage: DebounceBenchmark [--sends N] [--interval-ms MS] [--bursts B] [--instructions SUBJECT]")
                print("subjects: \(allSubjects.map { $0.name }.joined(separator: ", "))")
                exit(0)
            default:
                print("unknown argument \(argument); try --help")
                exit(2)
            }
        }
    }
}

/// Collects the outputs of a subject.
final class Sink: Sendable {
    private let state = Mutex((count: 0, last: -1))
    func record(_ value: Int) { state.withLock { $0 = ($0.count + 1, value) } }
    var snapshot: (count: Int, last: Int) { state.withLock { $0 } }
}

struct BurstResult {
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

/// Resets the kernel's peak-RSS mark for this process (Linux 4.0+: write "5" to clear_refs).
func resetPeakRSS() {
    if let file = fopen("/proc/self/clear_refs", "w") {
        fputs("5", file)
        fclose(file)
    }
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

func waitForOutput(_ sink: Sink, last: Int, timeout: Duration = .seconds(10)) async -> Bool {
    let deadline = clock.now + timeout
    while sink.snapshot.last != last, clock.now < deadline {
        try? await Task.sleep(for: .milliseconds(1))
    }
    return sink.snapshot.last == last
}

/// Generic over the subject so that each subject's `send` is called directly in the loop, not
/// through an existential: the loop itself then costs the same for every subject.
func runBurst<Subject: BenchmarkSubject>(_ type: Subject.Type, options: Options, countAllocations: Bool) async -> BurstResult {
    let sink = Sink()
    resetPeakRSS()
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

    let countAllocations = allocationCountingWorks()
    print("Scenario 1: \(options.sends) values sent back to back from one task, interval \(options.interval)")
    if !countAllocations {
        print("(allocation counts need the malloc interposer preloaded: use Benchmarks/run-debounce-benchmark.sh)")
    }
    let header = [pad("subject", 26, left: true), pad("median send", 12), pad("p99 send", 10), pad("wall/value", 11),
                  pad("CPU/value", 10), pad("allocs/value", 13), pad("peak RSS", 10), "  output"]
    print(header.joined(separator: " "))
    print("", pad("ns", 38), pad("ns", 10), pad("ns", 11), pad("ns", 10), pad("", 13), pad("MiB", 10))
    var results: [BurstResult] = []
    for runner in allSubjects {
        let result = await runner.runBurst(options, countAllocations)
        results.append(result)
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
    return 0
}
