import DebounceTesting

import Testing

@Suite(.timeLimit(.minutes(10))) struct ManualClockTests {
    @Test func sleepersWakeInDeadlineOrderWhenTimeReachesThem() async {
        let clock = ManualClock()
        let recorder = Recorder<String>(clock: clock)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await clock.sleep(until: .at(.seconds(3))); recorder.record("3 s") }
            group.addTask { try? await clock.sleep(until: .at(.seconds(1))); recorder.record("1 s") }
            await clock.waitForSleepers(count: 2)
            #expect(clock.sleeperDeadlines == [.at(.seconds(1)), .at(.seconds(3))])
            clock.advance(by: .seconds(2))
            #expect(await recorder.next() == [.init(value: "1 s", at: .seconds(2))])
            #expect(clock.sleeperDeadlines == [.at(.seconds(3))])
            #expect(clock.advanceToNextDeadline() == .at(.seconds(3)))
            #expect(await recorder.next() == [.init(value: "3 s", at: .seconds(3))])
        }
        #expect(clock.advanceToNextDeadline() == nil)
    }

    @Test func sleepingUntilThePastReturnsAtOnce() async throws {
        let clock = ManualClock(now: .at(.seconds(5)))
        try await clock.sleep(until: .at(.seconds(4)))
        try await clock.sleep(for: .zero)
        #expect(clock.now == .at(.seconds(5)))
    }

    @Test func cancellingASleeperThrowsAndRemovesIt() async {
        let clock = ManualClock()
        let task = Task { try await clock.sleep(until: .at(.seconds(1))) }
        await clock.waitForSleepers(count: 1)
        task.cancel()
        await clock.waitForSleepers(count: 0)
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test func aTaskCancelledBeforeItSleepsDoesNotSleep() async {
        let clock = ManualClock()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(until: .at(.seconds(1)))
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(clock.sleeperDeadlines.isEmpty)
    }
}
