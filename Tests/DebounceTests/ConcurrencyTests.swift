import Debounce
import DebounceTesting
import Testing

@Suite(.timeLimit(.minutes(10))) struct ConcurrencyTests {
    @Test func manySendersThenFlushDeliverExactlyOneSentValue() async {
        let clock = ManualClock()
        let recorder = Recorder<Int>(clock: clock)
        let debouncer = ConditionalDebouncer<Int, ManualClock>(
            clock: clock,
            decide: { $0 < 0 ? .now : .debounce(.seconds(1)) },
            output: recorder.output
        )
        let senders = 8, perSender = 2_000
        await withTaskGroup(of: Void.self) { group in
            for sender in 0..<senders {
                group.addTask {
                    for i in 0..<perSender { debouncer.send(sender * perSender + i) }
                }
            }
        }
        #expect(debouncer.isPending)
        debouncer.flush()
        await debouncer.waitForDeliveries()
        let delivered = recorder.values
        #expect(delivered.count == 1)
        // Every sender's last value is the only candidate: a later value replaced any earlier one.
        let lastValues = Set((0..<senders).map { $0 * perSender + perSender - 1 })
        #expect(delivered.allSatisfy { lastValues.contains($0) })

        // Concurrent sends again, then cancel: nothing from before the cancel is delivered.
        await withTaskGroup(of: Void.self) { group in
            for sender in 0..<senders {
                group.addTask { for i in 0..<perSender { debouncer.send(i + sender) } }
            }
        }
        debouncer.cancel()
        clock.advance(by: .seconds(10))
        debouncer.send(-1)
        await debouncer.waitForDeliveries()
        #expect(recorder.values == delivered + [-1])
    }

    @Test func concurrentNowValuesAreAllDeliveredOnceEach() async {
        let clock = ManualClock()
        let recorder = Recorder<Int>(clock: clock)
        let debouncer = ConditionalDebouncer<Int, ManualClock>(clock: clock, decide: { _ in .now }, output: recorder.output)
        await withTaskGroup(of: Void.self) { group in
            for sender in 0..<4 {
                group.addTask { for i in 0..<500 { debouncer.send(sender * 500 + i) } }
            }
        }
        await debouncer.waitForDeliveries()
        let values = recorder.values
        #expect(values.count == 2_000)
        #expect(Set(values) == Set(0..<2_000))
        // Each sender's values stay in the order that sender sent them.
        for sender in 0..<4 {
            let mine = values.filter { $0 / 500 == sender }
            #expect(mine == Array(sender * 500..<sender * 500 + 500))
        }
    }

    @Test func sendersRacingTheTimerNeverLoseOrDuplicateAValue() async {
        // Real clock, tiny hold: the timer and the senders contend for the lock for real.
        let collected = Recorder<Int>(clock: ManualClock())
        let debouncer = ConditionalDebouncer<Int, ContinuousClock>(
            decide: { $0 % 3 == 0 ? .now : .hold(.microseconds(50)) },
            output: collected.output
        )
        await withTaskGroup(of: Void.self) { group in
            for sender in 0..<4 {
                group.addTask {
                    for i in 0..<2_000 { debouncer.send(sender * 2_000 + i) }
                }
            }
        }
        debouncer.flush()
        await debouncer.waitForDeliveries()
        let values = collected.values
        #expect(Set(values).count == values.count, "a value was delivered twice")
        // Every `.now` value (multiple of 3) is delivered: nothing can drop it.
        #expect(Set(values.filter { $0 % 3 == 0 }) == Set((0..<8_000).filter { $0 % 3 == 0 }))
    }
}
