@testable import FrameCapture
import Pixels
import Testing

@Suite struct FrameQueueTests {
    private func frame(_ sequence: UInt32, dropped: Int = 0) throws -> Frame {
        Frame(pixels: try PixelBuffer(width: 1, height: 1, format: .gray8), sequence: sequence,
              timestamp: .milliseconds(Int64(sequence)), droppedBefore: dropped)
    }

    private func drain(_ queue: FrameQueue) async -> [(UInt32, Int)] {
        var seen: [(UInt32, Int)] = []
        while case .success(let frame?) = await queue.next() { seen.append((frame.sequence, frame.droppedBefore)) }
        return seen
    }

    @Test func aFullQueueDiscardsTheOldestAndCarriesItsCount() async throws {
        let queue = FrameQueue(limit: 2)
        #expect(queue.push(try frame(0)) == 0)
        #expect(queue.push(try frame(1)) == 0)
        #expect(queue.push(try frame(3, dropped: 1)) == 1)   // discards 0
        #expect(queue.push(try frame(4)) == 1)               // discards 1, which carried 0's count
        queue.finish(CaptureError(kind: .timedOut, device: "d", call: "poll"))
        let seen = await drain(queue)
        #expect(seen.map(\.0) == [3, 4])
        #expect(seen.map(\.1) == [1 + 2, 0], "3 stands for 0, 1 and its own gap")
    }

    @Test func withRoomForOneTheNewFrameCarriesTheCount() async throws {
        let queue = FrameQueue(limit: 1)
        queue.push(try frame(0, dropped: 4))
        queue.push(try frame(1))
        queue.finish(CaptureError(kind: .timedOut, device: "d", call: "poll"))
        let seen = await drain(queue)
        #expect(seen.map(\.0) == [1])
        #expect(seen.map(\.1) == [5])
    }

    @Test func afterAnErrorQueuedFramesComeFirstThenTheErrorOnceThenNil() async throws {
        let queue = FrameQueue(limit: 4)
        queue.push(try frame(0))
        queue.push(try frame(1))
        let failure = CaptureError(kind: .disconnected, device: "d", call: "VIDIOC_DQBUF", errno: 19)
        queue.finish(failure)
        queue.push(try frame(2))
        #expect(try await queue.next().get()?.sequence == 0)
        #expect(try await queue.next().get()?.sequence == 1)
        guard case .failure(let error) = await queue.next() else {
            Issue.record("expected the error after the queued frames")
            return
        }
        #expect(error == failure)
        #expect(try await queue.next().get() == nil)
    }

    @Test func afterAStopQueuedFramesAreDropped() async throws {
        let queue = FrameQueue(limit: 4)
        queue.push(try frame(0))
        queue.finish(nil)
        #expect(try await queue.next().get() == nil)
    }

    @Test func aWaitingConsumerGetsTheNextFrame() async throws {
        let queue = FrameQueue(limit: 2)
        async let next = queue.next()
        // Push only once the consumer is known to wait, so the frame takes the hand-over path.
        let deadline = ContinuousClock.now + .seconds(60)
        while !queue.isWaitedOn {
            guard ContinuousClock.now < deadline else {
                queue.finish(nil)
                Issue.record("the consumer never waited")
                return
            }
            await Task.yield()
        }
        #expect(queue.push(try frame(9)) == 0)
        let handedOver = !queue.isWaitedOn
        #expect(handedOver, "the frame was queued while the consumer kept waiting")
        if !handedOver { queue.finish(nil) }  // releases the consumer rather than hanging the test
        #expect(try await next.get()?.sequence == 9)
    }
}
