import Glibc

/// Decides what to do with each dequeued buffer and each failed `VIDIOC_DQBUF`: deliver with a
/// count of frames lost before it, re-queue and drop, restart streaming, or fail. No I/O, no clock.
struct CaptureStateMachine: Sendable {
    enum DropReason: Sendable, Equatable {
        case errorFlagged
        case nonMonotonicTimestamp
        case shortFrame
        /// Delivered by the driver, but its data could not be converted (a corrupt JPEG).
        case unconvertible
    }

    enum BufferAction: Sendable, Equatable {
        /// Copy the pixels out, re-queue, deliver. `sequenceGap` of `droppedBefore` were gaps.
        case deliver(droppedBefore: Int, sequenceGap: Int)
        /// Re-queue without delivering.
        case drop(DropReason, sequenceGap: Int)
    }

    enum FailureAction: Sendable, Equatable {
        /// Restart streaming: STREAMOFF, queue every buffer again, STREAMON.
        case restart
        /// End the stream with this errno.
        case fail(errno: Int32)
    }

    let maximumConsecutiveRestarts: Int
    let expectedBytes: Int
    private var lastSequence: UInt32?
    private var lastTimestamp: Int64?
    private var pendingDrops = 0
    private var consecutiveRestarts = 0

    init(maximumConsecutiveRestarts: Int, expectedBytes: Int) {
        self.maximumConsecutiveRestarts = maximumConsecutiveRestarts
        self.expectedBytes = expectedBytes
    }

    mutating func dequeued(_ buffer: DequeuedBuffer) -> BufferAction {
        let gap = sequenceGap(to: buffer.sequence)
        lastSequence = buffer.sequence
        pendingDrops += gap
        let reason: DropReason? =
            if buffer.isErrorFlagged { .errorFlagged }
            else if let last = lastTimestamp, buffer.timestampNanoseconds <= last { .nonMonotonicTimestamp }
            else if buffer.bytesUsed < expectedBytes { .shortFrame }
            else { nil }
        if let reason {
            pendingDrops += 1
            return .drop(reason, sequenceGap: gap)
        }
        lastTimestamp = buffer.timestampNanoseconds
        consecutiveRestarts = 0
        defer { pendingDrops = 0 }
        return .deliver(droppedBefore: pendingDrops, sequenceGap: gap)
    }

    /// The frame `dequeued(_:)` said to deliver could not be converted: it is dropped after all,
    /// and counted among the frames lost before the next one delivered.
    mutating func conversionFailed(_ action: BufferAction) -> BufferAction {
        guard case .deliver(let droppedBefore, let gap) = action else { return action }
        pendingDrops = droppedBefore + 1
        return .drop(.unconvertible, sequenceGap: gap)
    }

    /// `VIDIOC_DQBUF` failed with `errno` (never EAGAIN or EINTR: those are retried before).
    mutating func dequeueFailed(errno: Int32) -> FailureAction {
        guard errno == EIO, consecutiveRestarts < maximumConsecutiveRestarts else { return .fail(errno: errno) }
        consecutiveRestarts += 1
        return .restart
    }

    /// Frames missing between the last seen sequence number and `sequence`. A number that goes
    /// backwards (a driver that restarts counting at STREAMON) starts counting afresh.
    private func sequenceGap(to sequence: UInt32) -> Int {
        guard let last = lastSequence else { return 0 }
        let step = sequence &- last
        return step == 0 || step > UInt32(Int32.max) ? 0 : Int(step - 1)
    }
}
