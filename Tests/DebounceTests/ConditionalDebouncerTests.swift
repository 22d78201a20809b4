import Debounce
import DebounceTesting

import Testing

private func makeDebouncer(
    clock: ManualClock, recorder: Recorder<String>
) -> ConditionalDebouncer<String, ManualClock> {
    ConditionalDebouncer(
        clock: clock,
        decide: { value in
            switch value.first {
            case "d": .debounce(.seconds(1))
            case "h": .hold(.seconds(1))
            case "x": .drop
            default: .now
            }
        },
        output: recorder.output
    )
}

@Suite(.timeLimit(.minutes(10))) struct ConditionalDebouncerTests {
    @Test func nowValuesAreDeliveredInOrderWithoutAnyTimer() async {
        let clock = ManualClock()
        let recorder = Recorder<String>(clock: clock)
        let debouncer = makeDebouncer(clock: clock, recorder: recorder)
        for value in ["a", "b", "c"] { debouncer.send(value) }
        await debouncer.waitForDeliveries()
        #expect(recorder.all == ["a", "b", "c"].map { .init(value: $0, at: .zero) })
        #expect(debouncer.timerStatistics == TimerStatistics(tasksStarted: 0, wakeups: 0))
        #expect(clock.sleeperDeadlines.isEmpty)
    }

    @Test func aDebouncedValueIsDeliveredByTheTimerAtItsDeadline() async {
        let clock = ManualClock()
        let recorder = Recorder<String>(clock: clock)
        let debouncer = makeDebouncer(clock: clock, recorder: recorder)
        debouncer.send("d1")
        await clock.waitForSleepers(count: 1)
        #expect(clock.sleeperDeadlines == [.at(.seconds(1))])
        clock.advance(to: .at(.milliseconds(999)))
        #expect(debouncer.isPending)
        clock.advance(to: .at(.seconds(1)))
        #expect(await recorder.next() == [.init(value: "d1", at: .seconds(1))])
        #expect(!debouncer.isPending)
    }

    @Test func aMovedDeadlineReArmsTheSameTimerTask() async {
        let clock = ManualClock()
        let recorder = Recorder<String>(clock: clock)
        let debouncer = makeDebouncer(clock: clock, recorder: recorder)
        debouncer.send("d1")
        await clock.waitForSleepers(count: 1)
        clock.advance(to: .at(.milliseconds(600)))
        debouncer.send("d2")  // deadline moves to 1.6 s; the timer still sleeps until 1 s
        #expect(clock.sleeperDeadlines == [.at(.seconds(1))])
        clock.advance(to: .at(.seconds(1)))
        // The same task wakes, finds the deadline moved, and sleeps again until 1.6 s.
        await clock.waitForSleepers(count: 1)
        #expect(clock.sleeperDeadlines == [.at(.milliseconds(1_600))])
        clock.advance(to: .at(.milliseconds(1_600)))
        #expect(await recorder.next() == [.init(value: "d2", at: .milliseconds(1_600))])
        #expect(debouncer.timerStatistics == TimerStatistics(tasksStarted: 1, wakeups: 2))
    }

    @Test func anEarlierDeadlineReplacesTheSleepingTimer() async {
        let clock = ManualClock()
        let recorder = Recorder<String>(clock: clock)
        let debouncer = ConditionalDebouncer<String, ManualClock>(
            clock: clock,
            decide: { $0 == "long" ? .debounce(.seconds(10)) : $0 == "short" ? .hold(.seconds(1)) : .now },
            output: recorder.output
        )
        debouncer.send("long")
        await clock.waitForSleepers(count: 1)
        debouncer.send("now")     // ends the 10 s run; the timer keeps sleeping until 10 s
        debouncer.send("short")   // a new run due at 1 s cannot wait for that sleep
        await clock.waitForSleepers(count: 1)
        #expect(clock.sleeperDeadlines == [.at(.seconds(1))])
        clock.advance(to: .at(.seconds(1)))
        #expect(await recorder.next(2) == [.init(value: "now", at: .zero), .init(value: "short", at: .seconds(1))])
        #expect(debouncer.timerStatistics.tasksStarted == 2)
    }

    @Test func flushDeliversThePendingValueNow() async {
        let clock = ManualClock()
        let recorder = Recorder<String>(clock: clock)
        let debouncer = makeDebouncer(clock: clock, recorder: recorder)
        debouncer.send("h1")
        debouncer.send("h2")
        #expect(debouncer.isPending)
        clock.advance(to: .at(.milliseconds(300)))
        debouncer.flush()
        #expect(!debouncer.isPending)
        #expect(await recorder.next() == [.init(value: "h2", at: .milliseconds(300))])
        debouncer.flush()  // nothing pending: nothing delivered
        debouncer.send("end")
        #expect(await recorder.next() == [.init(value: "end", at: .milliseconds(300))])
    }

    @Test func cancelDropsThePendingValue() async {
        let clock = ManualClock()
        let recorder = Recorder<String>(clock: clock)
        let debouncer = makeDebouncer(clock: clock, recorder: recorder)
        debouncer.send("d1")
        debouncer.cancel()
        #expect(!debouncer.isPending)
        clock.advance(by: .seconds(5))
        debouncer.send("end")
        #expect(await recorder.next() == [.init(value: "end", at: .seconds(5))])
        #expect(recorder.values == ["end"])
    }

    @Test func cancelDropsValuesReleasedButNotYetDelivered() async {
        let clock = ManualClock()
        let recorder = Recorder<String>(clock: clock)
        let started = AsyncStream.makeStream(of: Void.self)
        let gate = AsyncStream.makeStream(of: Void.self)
        let debouncer = ConditionalDebouncer<String, ManualClock>(
            clock: clock,
            decide: { _ in .now },
            output: { value in
                if value == "blocker" {
                    started.continuation.yield()
                    for await _ in gate.stream { break }
                }
                recorder.record(value)
            }
        )
        debouncer.send("blocker")
        var startedIterator = started.stream.makeAsyncIterator()
        _ = await startedIterator.next()  // "blocker" is inside the output closure
        for i in 0..<100 { debouncer.send("queued \(i)") }
        debouncer.cancel()
        gate.continuation.yield()
        debouncer.send("end")
        await debouncer.waitForDeliveries()
        #expect(recorder.values == ["blocker", "end"])
    }

    @Test func dropLeavesThePendingRunAlone() async {
        let clock = ManualClock()
        let recorder = Recorder<String>(clock: clock)
        let debouncer = makeDebouncer(clock: clock, recorder: recorder)
        debouncer.send("h1")
        clock.advance(to: .at(.milliseconds(500)))
        debouncer.send("x1")
        await clock.waitForSleepers(count: 1)
        #expect(clock.sleeperDeadlines == [.at(.seconds(1))])
        clock.advance(to: .at(.seconds(1)))
        #expect(await recorder.next() == [.init(value: "h1", at: .seconds(1))])
    }

    @Test func releasingTheDebouncerCancelsItsTimerAndDropsThePendingValue() async {
        let clock = ManualClock()
        let recorder = Recorder<String>(clock: clock)
        let released = AsyncStream.makeStream(of: Void.self)
        /// Finishes the stream when the output closure that holds it is freed.
        final class Token: Sendable {
            let continuation: AsyncStream<Void>.Continuation
            init(_ continuation: AsyncStream<Void>.Continuation) { self.continuation = continuation }
            deinit { continuation.finish() }
        }
        var debouncer: ConditionalDebouncer<String, ManualClock>? = ConditionalDebouncer(
            clock: clock,
            decide: { _ in .debounce(.seconds(1)) },
            output: { [token = Token(released.continuation)] value in
                _ = token
                recorder.record(value)
            }
        )
        debouncer?.send("pending")
        await clock.waitForSleepers(count: 1)
        debouncer = nil
        await clock.waitForSleepers(count: 0)  // the timer task was cancelled
        for await _ in released.stream {}     // every task let go of the debouncer's storage
        clock.advance(by: .seconds(5))
        #expect(recorder.values.isEmpty)
    }

    @Test func valuesReleasedBeforeTheDebouncerGoesAwayAreStillDelivered() async {
        let clock = ManualClock()
        let recorder = Recorder<String>(clock: clock)
        var debouncer: ConditionalDebouncer<String, ManualClock>? = makeDebouncer(clock: clock, recorder: recorder)
        for value in ["a", "b", "c"] { debouncer?.send(value) }
        debouncer = nil
        #expect(await recorder.next(3).map(\.value) == ["a", "b", "c"])
    }

    @Test func outputsNeverOverlap() async {
        let clock = ManualClock()
        let inside = Locked((now: 0, most: 0, count: 0))
        let done = AsyncStream.makeStream(of: Void.self)
        let debouncer = ConditionalDebouncer<Int, ManualClock>(
            clock: clock,
            decide: { _ in .now },
            output: { value in
                inside.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
                await Task.yield()
                inside.withLock { $0.now -= 1; $0.count += 1 }
                if value == 999 { done.continuation.finish() }
            }
        )
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask { for i in 0..<250 where (task * 250 + i) != 999 { debouncer.send(task * 250 + i) } }
            }
        }
        debouncer.send(999)
        for await _ in done.stream {}
        await debouncer.waitForDeliveries()
        let result = inside.withLock { $0 }
        #expect(result.most == 1)
        #expect(result.count == 1_000)
    }
}
