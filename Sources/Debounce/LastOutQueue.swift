/// Runs only the last task enqueued under each key, a delay after it was enqueued.
///
/// Enqueueing under a key that already has a pending task replaces that task and restarts the delay,
/// so a burst of saves for one document ends in one save. Tasks of different keys wait independently.
///
/// ```swift
/// let saves = LastOutQueue<DocumentID>(delay: .seconds(1))
/// saves.enqueue(key: document.id, onStart: { await status.show("Saving…") }) {
///     await store.save(document)
/// }
/// // The app is going to the background: save everything now and wait for it.
/// saves.flushAll()
/// await saves.waitForDeliveries()
/// ```
///
/// Tasks run one at a time, in the order they fall due, `onStart` right before its task. A task's
/// entry is removed before it runs, so a task that enqueues again under its own key while it runs
/// schedules a new run instead of being lost.
public final class LastOutQueue<Key: Hashable & Sendable>: Sendable {
    private let storage: any LastOutQueueStorage<Key>

    /// Creates a queue that measures the delay on `clock`.
    ///
    /// - Parameters:
    ///   - delay: How long a task waits after it was (last) enqueued; zero or more.
    ///   - clock: The clock the delay is measured on (a `ManualClock` in tests).
    public init<C: Clock>(delay: Duration, clock: C) where C.Duration == Duration {
        storage = ClockedLastOutQueue<Key, C>(delay: delay, clock: clock)
    }

    /// Creates a queue on the `ContinuousClock`.
    ///
    /// - Parameter delay: How long a task waits after it was (last) enqueued; zero or more.
    public convenience init(delay: Duration) {
        self.init(delay: delay, clock: ContinuousClock())
    }

    deinit { storage.shutdown() }

    /// Schedules `task` under `key`, replacing the task pending there and restarting its delay.
    ///
    /// - Parameters:
    ///   - key: Which slot the task takes.
    ///   - onStart: Runs right before `task`, when it is its turn (for example to show progress).
    ///   - task: The work.
    public func enqueue(
        key: Key,
        onStart: (@Sendable () async -> Void)? = nil,
        task: @escaping @Sendable () async -> Void
    ) {
        storage.enqueue(LastOutJob(onStart: onStart, task: task), key: key)
    }

    /// Drops the task pending under `key`, if any. A task already running is not interrupted.
    public func cancel(key: Key) {
        storage.cancel(key: key)
    }

    /// Drops every pending task.
    public func cancelAll() {
        storage.cancelAll()
    }

    /// Runs every pending task now, earliest deadline first, without waiting for the delays. Follow it
    /// with ``waitForDeliveries()`` to know when they have run.
    public func flushAll() {
        storage.flushAll()
    }

    /// The keys with a task waiting for its delay.
    public var pendingKeys: Set<Key> {
        storage.pendingKeys
    }

    /// Returns once every task released so far (by its delay or by ``flushAll()``) has run.
    public func waitForDeliveries() async {
        await storage.waitForDeliveries()
    }
}

/// The queue's storage with the clock type erased, so the public type has one generic parameter.
private protocol LastOutQueueStorage<Key>: Sendable {
    associatedtype Key: Hashable & Sendable
    func enqueue(_ job: LastOutJob, key: Key)
    func cancel(key: Key)
    func cancelAll()
    func flushAll()
    var pendingKeys: Set<Key> { get }
    func waitForDeliveries() async
    func shutdown()
}

private final class ClockedLastOutQueue<Key: Hashable & Sendable, C: Clock>: LastOutQueueStorage, Sendable
where C.Duration == Duration {
    private let driver: ClockedDriver<LastOutMachine<Key, DriverInstant>, C>

    init(delay: Duration, clock: C) {
        driver = ClockedDriver(machine: LastOutMachine(delay: delay), clock: clock) { job in await job.run() }
    }

    func enqueue(_ job: LastOutJob, key: Key) {
        driver.update { machine, now in
            machine.enqueue(job, key: key, at: now)
            return nil
        }
    }

    func cancel(key: Key) {
        driver.update { machine, _ in
            machine.cancel(key: key)
            return nil
        }
    }

    func cancelAll() { driver.cancelPending() }

    func flushAll() {
        driver.updateReleasingMany { machine, _ in machine.takeAll() }
    }

    var pendingKeys: Set<Key> { driver.read(\.keys) }

    func waitForDeliveries() async { await driver.waitForDeliveries() }

    func shutdown() { driver.shutdown() }
}
