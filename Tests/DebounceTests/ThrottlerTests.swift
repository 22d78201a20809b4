import Debounce
import DebounceTesting
import Testing

private func ms(_ value: Int) -> ManualClock.Instant { .at(.milliseconds(value)) }

private func run(_ inputs: [(Int, Int)], interval: Duration, options: ThrottleOptions, until end: Int) -> [TimedValue] {
    replay(inputs, through: ThrottleMachine<Int, ManualClock.Instant>(interval: interval, options: options), until: end)
}

@Suite struct ThrottleMachineTests {
    let values = [(0, 0), (1, 100), (2, 200), (3, 300), (4, 2_500)]

    @Test func leadingAndTrailingLatest() {
        let out = run(values, interval: .seconds(1), options: ThrottleOptions(), until: 10_000)
        // 0 at once; 3 (latest of the window) when the window ends; the window opened at 1 s
        // ends at 2 s with nothing in it; 4 opens a new window and goes at once.
        #expect(out == [TimedValue(0, ms: 0), TimedValue(3, ms: 1_000), TimedValue(4, ms: 2_500)])
    }

    @Test func leadingAndTrailingFirst() {
        let out = run(values, interval: .seconds(1), options: ThrottleOptions(latest: false), until: 10_000)
        #expect(out == [TimedValue(0, ms: 0), TimedValue(1, ms: 1_000), TimedValue(4, ms: 2_500)])
    }

    @Test func trailingOnlyDeliversAtTheEndOfEachWindow() {
        let out = run(values, interval: .seconds(1), options: ThrottleOptions(leading: false), until: 10_000)
        #expect(out == [TimedValue(3, ms: 1_000), TimedValue(4, ms: 3_500)])
    }

    @Test func leadingOnlyDropsTheRestOfTheWindow() {
        let inputs = [(0, 0), (1, 500), (2, 1_000), (3, 1_500)]
        let out = run(inputs, interval: .seconds(1), options: ThrottleOptions(trailing: false), until: 10_000)
        #expect(out == [TimedValue(0, ms: 0), TimedValue(2, ms: 1_000)])
    }

    @Test func aSteadyStreamIsDeliveredOncePerInterval() {
        // A value every 100 ms for 3 s, throttled to 1 s: the first at once, then one per second.
        let inputs = (0..<30).map { ($0, $0 * 100) }
        let out = run(inputs, interval: .seconds(1), options: ThrottleOptions(), until: 10_000)
        #expect(out == [TimedValue(0, ms: 0), TimedValue(9, ms: 1_000), TimedValue(19, ms: 2_000), TimedValue(29, ms: 3_000)])
    }
}

@Suite(.timeLimit(.minutes(10))) struct ThrottlerTests {
    @Test func theTrailingValueIsDeliveredByTheTimerNotByTheNextValue() async {
        let clock = ManualClock()
        let recorder = Recorder<Int>(clock: clock)
        let throttler = Throttler<Int, ManualClock>(interval: .seconds(1), clock: clock, output: recorder.output)
        throttler.send(0)
        #expect(await recorder.next() == [.init(value: 0, at: .zero)])
        clock.advance(to: ms(100))
        throttler.send(1)
        clock.advance(to: ms(200))
        throttler.send(2)
        await clock.waitForSleepers(count: 1)
        #expect(clock.sleeperDeadlines == [ms(1_000)])
        clock.advance(to: ms(1_000))  // no further value is sent
        #expect(await recorder.next() == [.init(value: 2, at: .seconds(1))])
        #expect(!throttler.isPending)
    }

    @Test func flushAndCancel() async {
        let clock = ManualClock()
        let recorder = Recorder<Int>(clock: clock)
        let throttler = Throttler<Int, ManualClock>(interval: .seconds(1), clock: clock, output: recorder.output)
        throttler.send(0)
        throttler.send(1)
        throttler.flush()
        #expect(await recorder.next(2) == [.init(value: 0, at: .zero), .init(value: 1, at: .zero)])
        throttler.send(2)
        throttler.cancel()   // drops 2 and closes the window
        throttler.send(3)    // opens a new window: leading edge
        await throttler.waitForDeliveries()
        #expect(recorder.values == [0, 1, 3])
    }
}
