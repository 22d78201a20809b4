import Dispatch
import Synchronization

/// Hands one camera's processed frames, in that camera's order, from the thread that processes its
/// folder to the thread that takes the rig's steps, holding at most `capacity` of them: a camera
/// whose frames the rig needs later waits instead of piling its results up.
final class OutcomeChannel: Sendable {
    typealias Item = (frame: FrameFolder.Frame, outcome: FolderProcessor.Outcome)

    private struct State {
        var items: [Item] = []
        var head = 0
        var closed = false
        var finished = false
    }

    private let state = Mutex(State())
    /// Permits for items not yet sent.
    private let slots: DispatchSemaphore
    /// Signalled for each item sent, and once when the sender finishes.
    private let arrived = DispatchSemaphore(value: 0)
    private let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        // Made at 0 and raised: libdispatch refuses to free a semaphore whose count is below the
        // value it was made with, which is where a closed channel may leave this one.
        slots = DispatchSemaphore(value: 0)
        for _ in 0..<capacity { slots.signal() }
    }

    /// Whether the receiver has stopped taking items.
    var isClosed: Bool { state.withLock { $0.closed } }

    /// Sends an item, waiting while `capacity` items are not yet taken; drops it once closed.
    func send(_ item: Item) {
        slots.wait()
        let sent = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.items.append(item)
            return true
        }
        if sent { arrived.signal() } else { slots.signal() }
    }

    /// Says no more items come.
    func finish() {
        state.withLock { $0.finished = true }
        arrived.signal()
    }

    /// The next item, waiting for it; `nil` when the sender finished without sending it.
    func receive() -> Item? {
        while true {
            let next = state.withLock { state -> (item: Item?, done: Bool) in
                if state.head < state.items.count {
                    let item = state.items[state.head]
                    state.head += 1
                    if state.head > 64, state.head * 2 > state.items.count {
                        state.items.removeFirst(state.head)
                        state.head = 0
                    }
                    return (item, false)
                }
                return (nil, state.finished)
            }
            if let item = next.item {
                slots.signal()
                return item
            }
            if next.done { return nil }
            arrived.wait()
        }
    }

    /// Stops taking items: a sender waiting, or sending later, goes on at once.
    func close() {
        state.withLock {
            $0.closed = true
            $0.items.removeAll()
            $0.head = 0
        }
        for _ in 0..<capacity { slots.signal() }
    }
}
