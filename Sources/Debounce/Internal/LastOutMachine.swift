/// One task waiting in a ``LastOutQueue``.
struct LastOutJob: Sendable {
    let onStart: (@Sendable () async -> Void)?
    let task: @Sendable () async -> Void

    func run() async {
        await onStart?()
        await task()
    }
}

/// The pure state machine behind ``LastOutQueue``: one pending job per key, each due `delay` after it
/// was (last) enqueued. Due jobs come out earliest deadline first, ties in enqueue order.
struct LastOutMachine<Key: Hashable & Sendable, Instant: InstantProtocol>: ClockedMachine, Sendable {
    private struct Entry: Sendable {
        let job: LastOutJob
        let deadline: Instant
        let order: UInt64

        func precedes(_ other: Entry) -> Bool { (deadline, order) < (other.deadline, other.order) }
    }

    let delay: Instant.Duration
    private var entries: [Key: Entry] = [:]
    private var enqueued: UInt64 = 0

    init(delay: Instant.Duration) {
        precondition(delay >= .zero, "the queue's delay cannot be negative, got \(delay)")
        self.delay = delay
    }

    var keys: Set<Key> { Set(entries.keys) }

    var deadline: Instant? { next?.value.deadline }

    private var next: (key: Key, value: Entry)? {
        entries.min { $0.value.precedes($1.value) }
    }

    /// Replaces the job for `key`; its delay starts again at `now`.
    mutating func enqueue(_ job: LastOutJob, key: Key, at now: Instant) {
        enqueued += 1
        entries[key] = Entry(job: job, deadline: now.advanced(by: delay), order: enqueued)
    }

    /// Removes the earliest due job and returns it. The entry is gone before the job runs, so the job
    /// may enqueue under its own key again without losing that new job.
    mutating func advance(to now: Instant) -> LastOutJob? {
        guard let (key, entry) = next, entry.deadline <= now else { return nil }
        entries[key] = nil
        return entry.job
    }

    /// Removes every job, earliest deadline first.
    mutating func takeAll() -> [LastOutJob] {
        defer { entries.removeAll() }
        return entries.values.sorted { $0.precedes($1) }.map(\.job)
    }

    mutating func cancel(key: Key) {
        entries[key] = nil
    }

    mutating func cancel() {
        entries.removeAll()
    }
}
