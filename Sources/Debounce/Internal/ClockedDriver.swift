public import Synchronization

/// A pure machine that decides what to deliver and when, with time passed in.
///
/// The machines behind the public types (``ConditionalDebounceMachine``, ``DebounceMachine``,
/// ``ThrottleMachine`` and the last-out queue's) all have this shape, so one driver runs each of
/// them against a real or a manual clock.
@usableFromInline
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
@usableFromInline
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
@usableFromInline
final class ClockedDriver<Machine: ClockedMachine & Sendable, C: Clock>: Sendable
where Machine.Instant == DriverInstant, Machine.Output: Sendable, C.Duration == Duration {
    @usableFromInline typealias Output = Machine.Output

    @usableFromInline
    enum DelivererState: Sendable {
        case none
        case busy
        case parked(UnsafeContinuation<Delivery<Output>?, Never>)
    }

    @usableFromInline
    struct State: Sendable {
        @usableFromInline var machine: Machine
        @usableFromInline var outbox = Outbox<Delivery<Output>>()
        /// The armed timer task, if any, and the instant it sleeps until. Kept apart so that the
        /// send path compares instants without copying (and retaining) the task handle.
        @usableFromInline var timerTask: Task<Void, Never>?
        @usableFromInline var timerTarget: DriverInstant?
        @usableFromInline var timerGeneration: UInt64 = 0
        @usableFromInline var timerTasksStarted = 0
        @usableFromInline var timerWakeups = 0
        @usableFromInline var deliverer = DelivererState.none
        @usableFromInline var isShutDown = false

        init(machine: sending Machine) { self.machine = machine }
    }

    /// A parked deliverer to resume, with the item it should deliver.
    @usableFromInline
    struct Wake: Sendable {
        @usableFromInline let continuation: UnsafeContinuation<Delivery<Output>?, Never>
        @usableFromInline let delivery: Delivery<Output>

        @inlinable
        init(continuation: UnsafeContinuation<Delivery<Output>?, Never>, delivery: Delivery<Output>) {
            self.continuation = continuation
            self.delivery = delivery
        }

        @inlinable
        func resume() { continuation.resume(returning: delivery) }
    }

    @usableFromInline let state: Locked<State>
    @usableFromInline let time: TimeBase<C>
    private let output: @Sendable (Output) async -> Void

    init(machine: sending Machine, clock: C, output: @escaping @Sendable (Output) async -> Void) {
        self.state = Locked(State(machine: machine))
        self.time = TimeBase(clock: clock)
        self.output = output
    }

    // MARK: Updates from the owner

    /// Delivers whatever is due, then lets `body` change the machine at the current instant. A value
    /// `body` returns is delivered after the ones that were due.
    @inlinable
    func update(_ body: (inout Machine, DriverInstant) -> Output?) {
        let wake = state.withLock { s -> Wake? in
            let now = time.now
            Self.collectDue(&s, now: now)
            if let value = body(&s.machine, now) { s.outbox.append(.value(value)) }
            return schedule(&s)
        }
        wake?.resume()
    }

    /// Like ``update(_:)`` for a change that releases several values at once.
    func updateReleasingMany(_ body: (inout Machine, DriverInstant) -> [Output]) {
        let wake = state.withLock { s -> Wake? in
            let now = time.now
            Self.collectDue(&s, now: now)
            for value in body(&s.machine, now) { s.outbox.append(.value(value)) }
            return schedule(&s)
        }
        wake?.resume()
    }

    /// Reads the machine under the lock.
    @inlinable
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
            let timer = s.timerTask
            s.timerTask = nil
            s.timerTarget = nil
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

    @inlinable
    static func collectDue(_ s: inout State, now: DriverInstant) {
        while let due = s.machine.advance(to: now) { s.outbox.append(.value(due)) }
    }

    @inlinable
    func schedule(_ s: inout State) -> Wake? {
        if let deadline = s.machine.deadline, !s.isShutDown {
            // A later deadline is handled by re-arming when the timer wakes; an earlier one cannot
            // wait for the current sleep.
            if let target = s.timerTarget {
                if deadline < target { replaceTimer(&s, target: deadline) }
            } else {
                replaceTimer(&s, target: deadline)
            }
        }
        return wakeDeliverer(&s)
    }

    /// Starts a timer task for `target`, cancelling the one armed for a later instant, if any.
    @usableFromInline
    func replaceTimer(_ s: inout State, target: DriverInstant) {
        s.timerTask?.cancel()
        s.timerGeneration &+= 1
        s.timerTasksStarted += 1
        let generation = s.timerGeneration
        s.timerTask = Task { await self.runTimer(generation: generation) }
        s.timerTarget = target
    }

    @inlinable
    func wakeDeliverer(_ s: inout State) -> Wake? {
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

    /// The timer task: sleeps until the machine's deadline as it stands when the sleep begins, then
    /// releases what is due, and goes on while something is pending. A deadline that moved later
    /// while it slept costs one more sleep of the same task (re-armed), never a new task.
    private func runTimer(generation: UInt64) async {
        while true {
            let target = state.withLock { s -> DriverInstant? in
                guard s.timerGeneration == generation else { return nil }  // superseded
                guard !s.isShutDown, let deadline = s.machine.deadline else {
                    s.timerTask = nil
                    s.timerTarget = nil
                    return nil
                }
                s.timerTarget = deadline
                return deadline
            }
            guard let target else { return }
            do {
                try await time.clock.sleep(until: time.clockInstant(target), tolerance: nil)
            } catch {
                return  // cancelled: whoever cancelled has already replaced or cleared the timer
            }
            let wake = state.withLock { s -> Wake? in
                guard s.timerGeneration == generation else { return nil }
                s.timerWakeups += 1
                Self.collectDue(&s, now: time.now)
                return wakeDeliverer(&s)
            }
            wake?.resume()
        }
    }

    @usableFromInline
    func runDeliverer(first: Delivery<Output>) async {
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
