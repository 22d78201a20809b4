
/// A pure machine that decides what to deliver and when, with time passed in.
///
/// The machines behind the public types (``ConditionalDebounceMachine``, ``DebounceMachine``,
/// ``ThrottleMachine`` and the last-out queue's) all have this shape, so one driver runs each of
/// them against a real or a manual clock.
protocol ClockedMachine {
    associatedtype Output
    associatedtype Instant: InstantProtocol

    /// When the next output falls due; `nil` when nothing waits for time.
    var deadline: Instant? { get }

    /// Removes and returns one output that is due at `now`, if any.
    mutating func advance(to now: Instant) -> Output?

    /// Drops everything pending.
    mutating func cancel()
}

/// One item in the driver's delivery queue.
enum Delivery<Output: Sendable>: Sendable {
    /// A value for the output closure.
    case value(Output)
    /// Someone waiting until everything queued before this point was delivered.
    case barrier(UnsafeContinuation<Void, Never>)
}

/// Runs a ``ClockedMachine`` live: the storage behind every public debouncer type.
///
/// - The machine and all bookkeeping sit in one `Mutex`. An update reads the clock inside the lock,
///   so instants reach the machine in order even when many tasks send at once.
/// - One timer task sleeps until the machine's deadline. When it wakes and the deadline has moved
///   later, the same task sleeps again (re-armed); a new task is started only when nothing is armed
///   or the deadline moved *earlier* than the armed sleep, which needs a new sleep.
/// - One deliverer task calls the output closure for each value in order, never two at once. It
///   parks on a continuation when the queue is empty and is woken by the next value, so steady
///   traffic allocates nothing. It ends when the owner shuts the driver down.
final class ClockedDriver<Machine: ClockedMachine & Sendable, C: Clock>: Sendable
where Machine.Instant == C.Instant, Machine.Output: Sendable {
    typealias Output = Machine.Output

    private enum TimerState {
        case idle
        case armed(Task<Void, Never>, target: C.Instant, generation: UInt64)
    }

    private enum DelivererState {
        case none
        case busy
        case parked(UnsafeContinuation<Delivery<Output>?, Never>)
    }

    private struct State {
        var machine: Machine
        var outbox = Outbox<Delivery<Output>>()
        var timer = TimerState.idle
        var timerGeneration: UInt64 = 0
        var timerTasksStarted = 0
        var timerWakeups = 0
        var deliverer = DelivererState.none
        var isShutDown = false
    }

    /// A parked deliverer to resume, with the item it should deliver.
    private struct Wake {
        let continuation: UnsafeContinuation<Delivery<Output>?, Never>
        let delivery: Delivery<Output>

        func resume() { continuation.resume(returning: delivery) }
    }

    private let state: Locked<State>
    private let clock: C
    private let output: @Sendable (Output) async -> Void

    init(machine: sending Machine, clock: C, output: @escaping @Sendable (Output) async -> Void) {
        self.state = Locked(State(machine: machine))
        self.clock = clock
        self.output = output
    }

    // MARK: Updates from the owner

    /// Delivers whatever is due, then lets `body` change the machine at the current instant. A value
    /// `body` returns is delivered after the ones that were due.
    func update(_ body: (inout Machine, C.Instant) -> Output?) {
        let wake = state.withLock { s -> Wake? in
            let now = clock.now
            Self.collectDue(&s, now: now)
            if let value = body(&s.machine, now) { s.outbox.append(.value(value)) }
            return schedule(&s)
        }
        wake?.resume()
    }

    /// Like ``update(_:)`` for a change that releases several values at once.
    func updateReleasingMany(_ body: (inout Machine, C.Instant) -> [Output]) {
        let wake = state.withLock { s -> Wake? in
            let now = clock.now
            Self.collectDue(&s, now: now)
            for value in body(&s.machine, now) { s.outbox.append(.value(value)) }
            return schedule(&s)
        }
        wake?.resume()
    }

    /// Reads the machine under the lock.
    func read<R: Sendable>(_ body: (Machine) -> R) -> R {
        state.withLock { body($0.machine) }
    }

    /// Drops everything pending and everything queued but not yet handed to the output closure.
    func cancelPending() {
        let waiting = state.withLock { s -> [UnsafeContinuation<Void, Never>] in
            s.machine.cancel()
            return s.outbox.removeAll().compactMap { item in
                if case .barrier(let continuation) = item { continuation } else { nil }
            }
        }
        for continuation in waiting { continuation.resume() }
    }

    /// Returns once every value released before the call has been delivered (its output call returned).
    func waitForDeliveries() async {
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
            let idle = state.withLock { s -> Bool in
                guard case .busy = s.deliverer else { return true }
                s.outbox.append(.barrier(continuation))
                return false
            }
            if idle { continuation.resume() }
        }
    }

    /// Called once, by the owner's `deinit`: drops what is pending, cancels the timer task, and lets
    /// the deliverer finish what was already released before it ends.
    func shutdown() {
        let (timer, parked) = state.withLock { s -> (Task<Void, Never>?, UnsafeContinuation<Delivery<Output>?, Never>?) in
            s.isShutDown = true
            s.machine.cancel()
            var timer: Task<Void, Never>?
            if case .armed(let task, _, _) = s.timer { timer = task }
            s.timer = .idle
            var parked: UnsafeContinuation<Delivery<Output>?, Never>?
            if case .parked(let continuation) = s.deliverer {
                parked = continuation
                s.deliverer = .none
            }
            return (timer, parked)
        }
        timer?.cancel()
        parked?.resume(returning: nil)
    }

    /// How many timer tasks were started and how often they woke up (for benchmarks and tests).
    var timerStatistics: TimerStatistics {
        state.withLock { TimerStatistics(tasksStarted: $0.timerTasksStarted, wakeups: $0.timerWakeups) }
    }

    // MARK: Scheduling (called with the lock held)

    private static func collectDue(_ s: inout State, now: C.Instant) {
        while let due = s.machine.advance(to: now) { s.outbox.append(.value(due)) }
    }

    private func schedule(_ s: inout State) -> Wake? {
        if let deadline = s.machine.deadline, !s.isShutDown {
            switch s.timer {
            case .idle:
                startTimer(&s, target: deadline)
            case .armed(let task, let target, _):
                // A later deadline is handled by re-arming when the timer wakes; an earlier one
                // cannot wait for the current sleep.
                if deadline < target {
                    task.cancel()
                    startTimer(&s, target: deadline)
                }
            }
        }
        return wakeDeliverer(&s)
    }

    private func startTimer(_ s: inout State, target: C.Instant) {
        s.timerGeneration &+= 1
        s.timerTasksStarted += 1
        let generation = s.timerGeneration
        let task = Task { await self.runTimer(generation: generation, target: target) }
        s.timer = .armed(task, target: target, generation: generation)
    }

    private func wakeDeliverer(_ s: inout State) -> Wake? {
        guard !s.outbox.isEmpty else { return nil }
        switch s.deliverer {
        case .busy:
            return nil
        case .parked(let continuation):
            s.deliverer = .busy
            return Wake(continuation: continuation, delivery: s.outbox.popFirst()!)
        case .none:
            s.deliverer = .busy
            let first = s.outbox.popFirst()!
            Task { await self.runDeliverer(first: first) }
            return nil
        }
    }

    // MARK: The two tasks

    private func runTimer(generation: UInt64, target: C.Instant) async {
        var target = target
        while true {
            do {
                try await clock.sleep(until: target, tolerance: nil)
            } catch {
                return  // cancelled: whoever cancelled has already replaced or cleared the timer
            }
            let (next, wake) = state.withLock { s -> (C.Instant?, Wake?) in
                guard case .armed(let task, _, let current) = s.timer, current == generation else {
                    return (nil, nil)  // superseded by a newer timer task
                }
                s.timerWakeups += 1
                Self.collectDue(&s, now: clock.now)
                let wake = wakeDeliverer(&s)
                if let deadline = s.machine.deadline, !s.isShutDown {
                    s.timer = .armed(task, target: deadline, generation: generation)
                    return (deadline, wake)
                }
                s.timer = .idle
                return (nil, wake)
            }
            wake?.resume()
            guard let next else { return }
            target = next
        }
    }

    private func runDeliverer(first: Delivery<Output>) async {
        var next: Delivery<Output>? = first
        while let item = next {
            switch item {
            case .value(let value): await output(value)
            case .barrier(let continuation): continuation.resume()
            }
            next = await nextDelivery()
        }
    }

    private func nextDelivery() async -> Delivery<Output>? {
        if let item = state.withLock({ $0.outbox.popFirst() }) { return item }
        return await withUnsafeContinuation { (continuation: UnsafeContinuation<Delivery<Output>?, Never>) in
            let immediate = state.withLock { s -> Delivery<Output>?? in
                if let item = s.outbox.popFirst() { return .some(item) }
                if s.isShutDown {
                    s.deliverer = .none
                    return .some(nil)
                }
                s.deliverer = .parked(continuation)
                return .none
            }
            if let immediate { continuation.resume(returning: immediate) }
        }
    }
}
