import Debounce
import DebounceTesting
import Testing

private func ms(_ value: Int) -> ManualClock.Instant { .at(.milliseconds(value)) }

@Suite(.timeLimit(.minutes(10))) struct LastOutQueueTests {
    @Test func onlyTheLastTaskForAKeyRunsAndEnqueueingRestartsTheDelay() async {
        let clock = ManualClock()
        let log = Recorder<String>(clock: clock)
        let queue = LastOutQueue<String>(delay: .seconds(1), clock: clock)
        queue.enqueue(key: "doc") { log.record("save v1") }
        clock.advance(to: ms(500))
        queue.enqueue(key: "doc") { log.record("save v2") }
        await clock.waitForSleepers(count: 1)
        clock.advance(to: ms(1_000))  // v1's old deadline: nothing runs, the timer re-arms
        await clock.waitForSleepers(count: 1)
        #expect(clock.sleeperDeadlines == [ms(1_500)])
        #expect(queue.pendingKeys == ["doc"])
        clock.advance(to: ms(1_500))
        #expect(await log.next() == [.init(value: "save v2", at: .milliseconds(1_500))])
        #expect(queue.pendingKeys.isEmpty)
    }

    @Test func keysWaitIndependentlyAndRunInDeadlineOrder() async {
        let clock = ManualClock()
        let log = Recorder<String>(clock: clock)
        let queue = LastOutQueue<String>(delay: .seconds(1), clock: clock)
        queue.enqueue(key: "a") { log.record("a") }
        clock.advance(to: ms(200))
        queue.enqueue(key: "b") { log.record("b") }
        clock.advance(to: ms(2_000))  // both due: a (1.0 s) before b (1.2 s)
        #expect(await log.next(2).map(\.value) == ["a", "b"])
    }

    @Test func onStartRunsRightBeforeItsTask() async {
        let clock = ManualClock()
        let log = Recorder<String>(clock: clock)
        let queue = LastOutQueue<Int>(delay: .seconds(1), clock: clock)
        queue.enqueue(key: 1, onStart: { log.record("start 1") }) { log.record("run 1") }
        queue.enqueue(key: 2, onStart: { log.record("start 2") }) { log.record("run 2") }
        queue.enqueue(key: 1, onStart: { log.record("start 1 again") }) { log.record("run 1 again") }
        clock.advance(to: ms(1_000))
        #expect(await log.next(4).map(\.value) == ["start 2", "run 2", "start 1 again", "run 1 again"])
    }

    @Test func flushAllRunsEveryPendingTaskNowInDeadlineOrder() async {
        let clock = ManualClock()
        let log = Recorder<String>(clock: clock)
        let queue = LastOutQueue<String>(delay: .seconds(10), clock: clock)
        queue.enqueue(key: "c") { log.record("c") }
        clock.advance(to: ms(100))
        queue.enqueue(key: "a") { log.record("a") }
        clock.advance(to: ms(200))
        queue.enqueue(key: "b") { log.record("b") }
        queue.flushAll()
        #expect(queue.pendingKeys.isEmpty)
        await queue.waitForDeliveries()
        #expect(log.all == ["c", "a", "b"].map { .init(value: $0, at: .milliseconds(200)) })
        clock.advance(by: .seconds(60))
        queue.enqueue(key: "end", task: { log.record("end") })
        queue.flushAll()
        await queue.waitForDeliveries()
        #expect(log.values == ["c", "a", "b", "end"])
    }

    @Test func cancelKeyDropsOnlyThatKey() async {
        let clock = ManualClock()
        let log = Recorder<String>(clock: clock)
        let queue = LastOutQueue<String>(delay: .seconds(1), clock: clock)
        queue.enqueue(key: "keep") { log.record("keep") }
        queue.enqueue(key: "drop") { log.record("drop") }
        queue.cancel(key: "drop")
        #expect(queue.pendingKeys == ["keep"])
        clock.advance(to: ms(1_000))
        #expect(await log.next() == [.init(value: "keep", at: .seconds(1))])
        queue.enqueue(key: "x") { log.record("x") }
        queue.cancelAll()
        #expect(queue.pendingKeys.isEmpty)
        clock.advance(by: .seconds(5))
        queue.enqueue(key: "end", task: { log.record("end") })
        queue.flushAll()
        await queue.waitForDeliveries()
        #expect(log.values == ["keep", "end"])
    }

    @Test func aTaskThatEnqueuesUnderItsOwnKeyWhileRunningKeepsTheNewTask() async {
        let clock = ManualClock()
        let log = Recorder<String>(clock: clock)
        let queue = LastOutQueue<String>(delay: .seconds(1), clock: clock)
        queue.enqueue(key: "poll") {
            log.record("first run")
            queue.enqueue(key: "poll") { log.record("second run") }
        }
        clock.advance(to: ms(1_000))
        #expect(await log.next() == [.init(value: "first run", at: .seconds(1))])
        await queue.waitForDeliveries()
        #expect(queue.pendingKeys == ["poll"])
        await clock.waitForSleepers(count: 1)
        #expect(clock.sleeperDeadlines == [ms(2_000)])
        clock.advance(to: ms(2_000))
        #expect(await log.next() == [.init(value: "second run", at: .seconds(2))])
    }
}
