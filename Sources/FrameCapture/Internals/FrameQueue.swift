import Synchronization

/// Hands frames from the capture thread to the one consumer. Holds at most `limit` frames; when a
/// new one arrives to a full queue the oldest is discarded and its count, plus the frames it
/// already stood for, moves to the frame that is now next in line.
final class FrameQueue: Sendable {
    typealias Waiter = CheckedContinuation<Result<Frame?, CaptureError>, Never>

    private enum End: Sendable {
        case finished
        case failed(CaptureError)
    }

    private struct State: Sendable {
        var frames: [Frame] = []
        var waiter: Waiter?
        var end: End?
    }

    let limit: Int
    private let state = Mutex(State())

    init(limit: Int) {
        precondition(limit >= 1, "a frame queue holds at least one frame, not \(limit)")
        self.limit = limit
    }

    /// Queues `frame` (or hands it to a waiting consumer); returns how many frames were discarded.
    /// After `finish` frames are ignored.
    @discardableResult
    func push(_ frame: Frame) -> Int {
        enum Action { case none, resume(Waiter), discarded(Int) }
        let action: Action = state.withLock { state in
            if state.end != nil { return .none }
            if let waiter = state.waiter {
                state.waiter = nil
                return .resume(waiter)
            }
            var carried = 0, discarded = 0
            while state.frames.count >= limit {
                carried += state.frames.removeFirst().droppedBefore + 1
                discarded += 1
            }
            if carried > 0, let head = state.frames.first {
                state.frames[0] = head.adding(droppedBefore: carried)
                state.frames.append(frame)
            } else {
                state.frames.append(frame.adding(droppedBefore: carried))
            }
            return .discarded(discarded)
        }
        switch action {
        case .none: return 0
        case .resume(let waiter):
            waiter.resume(returning: .success(frame))
            return 0
        case .discarded(let count): return count
        }
    }

    /// Ends the queue. After an error, queued frames are still delivered, then the error once, then
    /// nil; after a stop (no error) queued frames are dropped and nil comes next.
    func finish(_ error: CaptureError?) {
        let waiter: Waiter? = state.withLock { state in
            guard state.end == nil else { return nil }
            if error == nil { state.frames.removeAll() }
            if let waiter = state.waiter {
                // Someone waits only while no frame is queued: the end goes straight to them.
                state.waiter = nil
                state.end = .finished
                return waiter
            }
            state.end = error.map { .failed($0) } ?? .finished
            return nil
        }
        waiter?.resume(returning: error.map { .failure($0) } ?? .success(nil))
    }

    /// Whether the consumer is waiting for a frame (none is queued and the queue has not ended).
    var isWaitedOn: Bool { state.withLock { $0.waiter != nil } }

    /// The next frame, waiting for one; nil once the queue is finished and empty.
    func next() async -> Result<Frame?, CaptureError> {
        await withCheckedContinuation { (continuation: Waiter) in
            let ready: Result<Frame?, CaptureError>? = state.withLock { state in
                if !state.frames.isEmpty { return .success(state.frames.removeFirst()) }
                switch state.end {
                case .failed(let error):
                    state.end = .finished
                    return .failure(error)
                case .finished: return .success(nil)
                case nil:
                    precondition(state.waiter == nil, "a frame stream has one consumer at a time")
                    state.waiter = continuation
                    return nil
                }
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}

extension Frame {
    func adding(droppedBefore more: Int) -> Frame {
        more == 0 ? self : Frame(pixels: pixels, sequence: sequence, timestamp: timestamp, droppedBefore: droppedBefore + more)
    }
}
