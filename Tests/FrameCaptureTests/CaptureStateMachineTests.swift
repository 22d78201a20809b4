@testable import FrameCapture
import Glibc
import Testing

@Suite struct CaptureStateMachineTests {
    private func buffer(_ sequence: UInt32, at milliseconds: Int64, error: Bool = false, bytes: Int = 100) -> DequeuedBuffer {
        DequeuedBuffer(index: 0, sequence: sequence, isErrorFlagged: error, isMonotonicClock: true, bytesUsed: bytes,
                       timestampNanoseconds: milliseconds * 1_000_000)
    }

    @Test func contiguousFramesAreDeliveredWithoutDrops() {
        var machine = CaptureStateMachine(maximumConsecutiveRestarts: 3, expectedBytes: 100)
        let actions = (0..<5).map { machine.dequeued(buffer(UInt32($0), at: Int64($0) * 33)) }
        #expect(actions == Array(repeating: .deliver(droppedBefore: 0, sequenceGap: 0), count: 5))
    }

    @Test func sequenceGapsCountAsDroppedBeforeTheNextFrame() {
        var machine = CaptureStateMachine(maximumConsecutiveRestarts: 3, expectedBytes: 100)
        _ = machine.dequeued(buffer(7, at: 0))
        #expect(machine.dequeued(buffer(11, at: 10)) == .deliver(droppedBefore: 3, sequenceGap: 3))
        #expect(machine.dequeued(buffer(12, at: 20)) == .deliver(droppedBefore: 0, sequenceGap: 0))
    }

    @Test func theFirstFrameCountsNoGapWhateverItsNumber() {
        var machine = CaptureStateMachine(maximumConsecutiveRestarts: 3, expectedBytes: 100)
        #expect(machine.dequeued(buffer(500, at: 0)) == .deliver(droppedBefore: 0, sequenceGap: 0))
    }

    @Test func errorFlagsShortFramesAndBackwardsTimestampsAreDroppedAndCounted() {
        var machine = CaptureStateMachine(maximumConsecutiveRestarts: 3, expectedBytes: 100)
        _ = machine.dequeued(buffer(0, at: 100))
        #expect(machine.dequeued(buffer(1, at: 133, error: true)) == .drop(.errorFlagged, sequenceGap: 0))
        #expect(machine.dequeued(buffer(2, at: 99)) == .drop(.nonMonotonicTimestamp, sequenceGap: 0))
        #expect(machine.dequeued(buffer(3, at: 100)) == .drop(.nonMonotonicTimestamp, sequenceGap: 0))
        #expect(machine.dequeued(buffer(5, at: 200, bytes: 99)) == .drop(.shortFrame, sequenceGap: 1))
        #expect(machine.dequeued(buffer(6, at: 233)) == .deliver(droppedBefore: 5, sequenceGap: 0))
    }

    /// A frame the machine said to deliver whose data could not be converted (a corrupt JPEG) is
    /// dropped after all, with the losses before it, and counted before the next frame delivered.
    @Test func aFrameThatCannotBeConvertedIsDroppedAndCountedBeforeTheNext() {
        var machine = CaptureStateMachine(maximumConsecutiveRestarts: 3, expectedBytes: 1)
        _ = machine.dequeued(buffer(0, at: 0))
        let action = machine.dequeued(buffer(3, at: 100))
        #expect(action == .deliver(droppedBefore: 2, sequenceGap: 2))
        #expect(machine.conversionFailed(action) == .drop(.unconvertible, sequenceGap: 2))
        #expect(machine.dequeued(buffer(4, at: 133)) == .deliver(droppedBefore: 3, sequenceGap: 0))
        #expect(machine.conversionFailed(.drop(.shortFrame, sequenceGap: 0)) == .drop(.shortFrame, sequenceGap: 0))
    }

    @Test func aSequenceThatStartsOverIsNotAGap() {
        var machine = CaptureStateMachine(maximumConsecutiveRestarts: 3, expectedBytes: 100)
        _ = machine.dequeued(buffer(40, at: 0))
        #expect(machine.dequeued(buffer(0, at: 50)) == .deliver(droppedBefore: 0, sequenceGap: 0))
    }

    @Test func sequenceNumbersWrapAround() {
        var machine = CaptureStateMachine(maximumConsecutiveRestarts: 3, expectedBytes: 100)
        _ = machine.dequeued(buffer(UInt32.max - 1, at: 0))
        #expect(machine.dequeued(buffer(1, at: 10)) == .deliver(droppedBefore: 2, sequenceGap: 2))
    }

    @Test func eioRestartsUntilTheLimitThenFails() {
        var machine = CaptureStateMachine(maximumConsecutiveRestarts: 2, expectedBytes: 100)
        #expect(machine.dequeueFailed(errno: EIO) == .restart)
        #expect(machine.dequeueFailed(errno: EIO) == .restart)
        #expect(machine.dequeueFailed(errno: EIO) == .fail(errno: EIO))
    }

    @Test func aDeliveredFrameResetsTheRestartCount() {
        var machine = CaptureStateMachine(maximumConsecutiveRestarts: 1, expectedBytes: 100)
        #expect(machine.dequeueFailed(errno: EIO) == .restart)
        _ = machine.dequeued(buffer(0, at: 0))
        #expect(machine.dequeueFailed(errno: EIO) == .restart)
    }

    @Test func otherErrorsFailAtOnce() {
        var machine = CaptureStateMachine(maximumConsecutiveRestarts: 3, expectedBytes: 100)
        #expect(machine.dequeueFailed(errno: ENODEV) == .fail(errno: ENODEV))
        #expect(machine.dequeueFailed(errno: EINVAL) == .fail(errno: EINVAL))
    }
}
