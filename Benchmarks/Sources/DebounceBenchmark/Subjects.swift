import AsyncAlgorithms
import Debounce
import Dispatch
import OpenCombine
import OpenCombineDispatch
import Synchronization

/// One debouncer under test: values go in with `send`, the debounced value comes out through the
/// output closure given at creation.
protocol BenchmarkSubject: AnyObject {
    static var name: String { get }
    init(interval: Duration, output: @escaping @Sendable (Int) -> Void)
    /// Sends one value.
    func send(_ value: Int)
    /// Returns once every value sent so far has been processed. A synchronous `send` has done all
    /// its work when it returns; an asynchronous pipeline still has to consume its buffer.
    func processAll() async
    /// Timer work so far, where the subject can tell.
    var timerStatistics: TimerStatistics? { get }
}

extension BenchmarkSubject {
    func processAll() async {}
    var timerStatistics: TimerStatistics? { nil }
}

/// A send that does nothing but take its value: the benchmark loop's own cost, subtracted from the
/// others when counting instructions.
final class BaselineSubject: BenchmarkSubject {
    static let name = "baseline (empty send)"
    private var last = 0
    private let output: @Sendable (Int) -> Void

    init(interval: Duration, output: @escaping @Sendable (Int) -> Void) { self.output = output }

    @inline(never)
    func send(_ value: Int) { last = value }

    func processAll() async { output(last) }
}

/// `ConditionalDebouncer` with every value debounced.
final class ConditionalDebouncerSubject: BenchmarkSubject {
    static let name = "ConditionalDebouncer"
    private let debouncer: ConditionalDebouncer<Int, ContinuousClock>

    init(interval: Duration, output: @escaping @Sendable (Int) -> Void) {
        debouncer = ConditionalDebouncer(decide: { _ in .debounce(interval) }, output: { output($0) })
    }

    func send(_ value: Int) { debouncer.send(value) }
    var timerStatistics: TimerStatistics? { debouncer.timerStatistics }
}

/// `Debouncer`, trailing edge.
final class DebouncerSubject: BenchmarkSubject {
    static let name = "Debouncer"
    private let debouncer: Debouncer<Int, ContinuousClock>

    init(interval: Duration, output: @escaping @Sendable (Int) -> Void) {
        debouncer = Debouncer(interval: interval, output: { output($0) })
    }

    func send(_ value: Int) { debouncer.send(value) }
    var timerStatistics: TimerStatistics? { debouncer.timerStatistics }
}

/// swift-async-algorithms: an `AsyncStream` fed by `yield`, consumed through `.debounce(for:)`.
final class AsyncAlgorithmsSubject: BenchmarkSubject {
    static let name = "async-algorithms debounce"
    private let continuation: AsyncStream<Int>.Continuation
    private let consumer: Task<Void, Never>

    init(interval: Duration, output: @escaping @Sendable (Int) -> Void) {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .unbounded)
        self.continuation = continuation
        consumer = Task {
            for await value in stream.debounce(for: interval) { output(value) }
        }
    }

    func send(_ value: Int) { continuation.yield(value) }

    func processAll() async {
        // Finishing the input makes the debounce emit its pending value and end once it has
        // consumed everything buffered.
        continuation.finish()
        await consumer.value
    }
}

/// OpenCombine: a `PassthroughSubject` through `.debounce(for:scheduler:)` on a dispatch queue.
final class OpenCombineSubject: BenchmarkSubject {
    static let name = "OpenCombine debounce"
    private let subject = PassthroughSubject<Int, Never>()
    private var subscription: AnyCancellable?

    init(interval: Duration, output: @escaping @Sendable (Int) -> Void) {
        let queue = DispatchQueue(label: "OpenCombine debounce")
        let (seconds, attoseconds) = interval.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        subscription = subject
            .debounce(for: .nanoseconds(nanoseconds), scheduler: queue.ocombine)
            .sink { output($0) }
    }

    func send(_ value: Int) { subject.send(value) }
}

/// The naive design: cancel the previous task and start a new sleeping one for every value.
final class NaiveTaskSubject: BenchmarkSubject {
    static let name = "naive Task per value"
    /// Counts tasks that have ended, shared with the tasks themselves, and wakes whoever waits for
    /// a count to be reached.
    final class Counter: Sendable {
        private let state = Mutex((count: 0, target: Int.max, waiter: CheckedContinuation<Void, Never>?.none))

        func increment() {
            let resume = state.withLock { s -> CheckedContinuation<Void, Never>? in
                s.count += 1
                guard s.count >= s.target, let waiter = s.waiter else { return nil }
                s.waiter = nil
                return waiter
            }
            resume?.resume()
        }

        func wait(until target: Int) async {
            await withCheckedContinuation { continuation in
                let done = state.withLock { s -> Bool in
                    if s.count >= target { return true }
                    s.target = target
                    s.waiter = continuation
                    return false
                }
                if done { continuation.resume() }
            }
        }
    }

    private let current = Mutex<Task<Void, Never>?>(nil)
    private let finished = Counter()
    private let started = Mutex(0)
    private let interval: Duration
    private let output: @Sendable (Int) -> Void

    init(interval: Duration, output: @escaping @Sendable (Int) -> Void) {
        self.interval = interval
        self.output = output
    }

    func send(_ value: Int) {
        let interval = interval, output = output, finished = finished
        current.withLock { task in
            task?.cancel()
            task = Task {
                defer { finished.increment() }
                do { try await Task.sleep(for: interval) } catch { return }
                output(value)
            }
        }
        started.withLock { $0 += 1 }
    }

    func processAll() async {
        // Cancelled tasks still have to wake, throw and end: that is part of their cost.
        let expected = started.withLock { $0 } - 1
        await finished.wait(until: expected)
    }
}

/// Runs one burst for a subject, with the subject's type known at compile time.
struct SubjectRunner: Sendable {
    let name: String
    let runBurst: @Sendable (Options, Bool) async -> BurstResult

    init<Subject: BenchmarkSubject>(_ type: Subject.Type) {
        name = Subject.name
        runBurst = { options, countAllocations in
            await DebounceBenchmark.runBurst(Subject.self, options: options, countAllocations: countAllocations)
        }
    }
}

/// Only for counting instructions (`--instructions`); not part of the table.
let baseline = SubjectRunner(BaselineSubject.self)

let allSubjects: [SubjectRunner] = [
    SubjectRunner(ConditionalDebouncerSubject.self),
    SubjectRunner(DebouncerSubject.self),
    SubjectRunner(AsyncAlgorithmsSubject.self),
    SubjectRunner(OpenCombineSubject.self),
    SubjectRunner(NaiveTaskSubject.self),
]
