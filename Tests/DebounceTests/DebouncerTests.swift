import Debounce
import DebounceTesting
import Testing

private func ms(_ value: Int) -> ManualClock.Instant { .at(.milliseconds(value)) }

private func run(
    _ inputs: [(Int, Int)], interval: Duration, options: DebounceOptions<Duration>, until end: Int
) -> [TimedValue] {
    replay(inputs, through: DebounceMachine<Int, ManualClock.Instant>(interval: interval, options: options), until: end)
}

/// A burst: values 0, 1, 2... every 100 ms from 0 ms.
private func burst(_ count: Int, from start: Int = 0, every step: Int = 100) -> [(Int, Int)] {
    (0..<count).map { (start / step + $0, start + $0 * step) }
}

@Suite struct DebounceMachineTests {
    @Test func trailingDeliversTheLastValueOneIntervalAfterIt() {
        let out = run(burst(3), interval: .seconds(1), options: .trailing, until: 5_000)
        #expect(out == [TimedValue(2, ms: 1_200)])
    }

    @Test func leadingDeliversTheFirstValueAtOnceAndNothingElseInTheBurst() {
        let inputs = burst(5) + [(50, 2_000), (51, 2_100)]
        let out = run(inputs, interval: .seconds(1), options: .leading, until: 5_000)
        #expect(out == [TimedValue(0, ms: 0), TimedValue(50, ms: 2_000)])
    }

    @Test func aBurstEndsOneIntervalAfterItsLastValueNotItsFirst() {
        // Values 100 ms apart for 3 s: one burst, one leading delivery.
        let out = run(burst(31), interval: .milliseconds(500), options: .leading, until: 10_000)
        #expect(out == [TimedValue(0, ms: 0)])
    }

    @Test func leadingAndTrailingDeliversBothEdgesButASingleValueOnce() {
        let out = run(burst(3), interval: .seconds(1), options: .leadingAndTrailing, until: 5_000)
        #expect(out == [TimedValue(0, ms: 0), TimedValue(2, ms: 1_200)])
        let single = run([(7, 0)], interval: .seconds(1), options: .leadingAndTrailing, until: 5_000)
        #expect(single == [TimedValue(7, ms: 0)])
    }

    @Test func maxWaitBoundsTheWaitDuringANeverEndingBurst() {
        // Values every 100 ms from 0 to 2.9 s, interval 0.5 s, maxWait 1 s.
        let out = run(burst(30), interval: .milliseconds(500), options: DebounceOptions(maxWait: .seconds(1)), until: 10_000)
        #expect(out == [TimedValue(9, ms: 1_000), TimedValue(19, ms: 2_000), TimedValue(29, ms: 3_000)])
    }

    @Test func maxWaitWithLeadingOnlyDeliversTheFirstValueAfterEachMaxWait() {
        let options = DebounceOptions<Duration>(leading: true, trailing: false, maxWait: .seconds(1))
        let out = run(burst(30), interval: .milliseconds(500), options: options, until: 10_000)
        #expect(out == [TimedValue(0, ms: 0), TimedValue(10, ms: 1_000), TimedValue(20, ms: 2_000)])
    }

    @Test func flushDeliversNowAndCancelForgetsTheBurst() {
        var machine = DebounceMachine<Int, ManualClock.Instant>(interval: .seconds(1), options: .leadingAndTrailing)
        #expect(machine.send(1, at: ms(0)) == 1)
        #expect(machine.send(2, at: ms(100)) == nil)
        #expect(machine.flush() == 2)
        #expect(machine.deadline == nil)
        #expect(machine.send(3, at: ms(200)) == nil)  // still inside the burst: no leading edge
        machine.cancel()
        #expect(machine.pending == nil)
        #expect(machine.send(4, at: ms(300)) == 4)    // a new burst: leading edge again
    }
}

@Suite(.timeLimit(.minutes(10))) struct DebouncerTests {
    @Test func trailingValueIsDeliveredByTheTimer() async {
        let clock = ManualClock()
        let recorder = Recorder<Int>(clock: clock)
        let debouncer = Debouncer<Int, ManualClock>(interval: .seconds(1), clock: clock, output: recorder.output)
        debouncer.send(0)
        await clock.waitForSleepers(count: 1)  // the timer sleeps until 1 s
        #expect(clock.sleeperDeadlines == [ms(1_000)])
        for (value, time) in burst(2, from: 100) {
            clock.advance(to: ms(time))
            debouncer.send(value)
        }
        #expect(debouncer.isPending)
        // The timer wakes at the first deadline (1 s), sleeps again until 1.2 s, then delivers.
        clock.advance(to: ms(1_000))
        await clock.waitForSleepers(count: 1)
        #expect(clock.sleeperDeadlines == [ms(1_200)])
        clock.advance(to: ms(1_200))
        #expect(await recorder.next() == [.init(value: 2, at: .milliseconds(1_200))])
        #expect(debouncer.timerStatistics == TimerStatistics(tasksStarted: 1, wakeups: 2))
    }

    @Test func leadingValueIsDeliveredAtOnceWithoutATimer() async {
        let clock = ManualClock()
        let recorder = Recorder<Int>(clock: clock)
        let debouncer = Debouncer<Int, ManualClock>(interval: .seconds(1), options: .leading, clock: clock, output: recorder.output)
        debouncer.send(1)
        debouncer.send(2)
        await debouncer.waitForDeliveries()
        #expect(recorder.all == [.init(value: 1, at: .zero)])
        #expect(debouncer.timerStatistics.tasksStarted == 0)
        clock.advance(by: .seconds(1))
        debouncer.send(3)
        await debouncer.waitForDeliveries()
        #expect(recorder.values == [1, 3])
    }

    @Test func maxWaitDeliversDuringTheBurst() async {
        let clock = ManualClock()
        let recorder = Recorder<Int>(clock: clock)
        let debouncer = Debouncer<Int, ManualClock>(
            interval: .milliseconds(500), options: DebounceOptions(maxWait: .seconds(1)), clock: clock, output: recorder.output
        )
        for (value, time) in burst(11) {
            clock.advance(to: ms(time))
            debouncer.send(value)  // at 1 s, value 9 is due and is delivered before 10 arrives
        }
        #expect(await recorder.next() == [.init(value: 9, at: .seconds(1))])
        for (value, time) in burst(4, from: 1_100) {
            clock.advance(to: ms(time))
            debouncer.send(value)
        }
        // Value 14 (1.4 s) is due when the burst ends at 1.9 s, before its maxWait (2 s).
        clock.advance(to: ms(1_899))
        #expect(debouncer.isPending)
        clock.advance(to: ms(1_900))
        #expect(await recorder.next() == [.init(value: 14, at: .milliseconds(1_900))])
    }

    @Test func flushAndCancel() async {
        let clock = ManualClock()
        let recorder = Recorder<Int>(clock: clock)
        let debouncer = Debouncer<Int, ManualClock>(interval: .seconds(1), clock: clock, output: recorder.output)
        debouncer.send(1)
        debouncer.flush()
        #expect(await recorder.next() == [.init(value: 1, at: .zero)])
        debouncer.send(2)
        debouncer.cancel()
        #expect(!debouncer.isPending)
        clock.advance(by: .seconds(3))
        debouncer.send(3)
        debouncer.flush()
        #expect(await recorder.next() == [.init(value: 3, at: .seconds(3))])
        #expect(recorder.values == [1, 3])
    }
}
