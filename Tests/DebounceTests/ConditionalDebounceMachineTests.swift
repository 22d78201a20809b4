import Debounce
import DebounceTesting
import Testing

private typealias Machine = ConditionalDebounceMachine<String, ManualClock.Instant>

private func t(_ milliseconds: Int) -> ManualClock.Instant { .at(.milliseconds(milliseconds)) }

@Suite struct ConditionalDebounceMachineTests {
    @Test func nowDeliversAtOnceAndDropsThePendingValue() {
        var machine = Machine()
        #expect(machine.send("a", .debounce(.seconds(1)), at: t(0)) == nil)
        #expect(machine.pending == "a")
        #expect(machine.send("b", .now, at: t(100)) == "b")
        #expect(machine.pending == nil)
        #expect(machine.deadline == nil)
        #expect(machine.advance(to: t(5_000)) == nil)
    }

    @Test func debounceRestartsTheWaitWithEveryValue() {
        var machine = Machine()
        #expect(machine.send("a", .debounce(.seconds(1)), at: t(0)) == nil)
        #expect(machine.deadline == t(1_000))
        #expect(machine.send("b", .debounce(.seconds(1)), at: t(600)) == nil)
        #expect(machine.deadline == t(1_600))
        #expect(machine.advance(to: t(1_599)) == nil)
        #expect(machine.advance(to: t(1_600)) == "b")
        #expect(machine.pending == nil)
    }

    @Test func holdKeepsTheDeadlineOfTheRunsFirstValue() {
        var machine = Machine()
        #expect(machine.send("a", .hold(.seconds(1)), at: t(0)) == nil)
        #expect(machine.send("b", .hold(.seconds(1)), at: t(600)) == nil)
        #expect(machine.send("c", .hold(.seconds(1)), at: t(900)) == nil)
        #expect(machine.deadline == t(1_000))
        #expect(machine.pendingSince == t(0))
        #expect(machine.pending == "c")
        #expect(machine.advance(to: t(1_000)) == "c")
        // The next run starts afresh.
        #expect(machine.send("d", .hold(.seconds(1)), at: t(1_500)) == nil)
        #expect(machine.deadline == t(2_500))
    }

    @Test func holdAfterDebounceIsMeasuredFromTheRunsStart() {
        var machine = Machine()
        _ = machine.send("a", .debounce(.seconds(5)), at: t(0))
        _ = machine.send("b", .hold(.seconds(1)), at: t(400))
        #expect(machine.deadline == t(1_000))
        // A hold whose run started long enough ago is due at once.
        var late = Machine()
        _ = late.send("a", .debounce(.seconds(5)), at: t(0))
        #expect(late.send("b", .hold(.seconds(1)), at: t(2_000)) == "b")
        #expect(late.pending == nil)
    }

    @Test func dropLeavesThePendingValueAndDeadlineAlone() {
        var machine = Machine()
        _ = machine.send("a", .hold(.seconds(1)), at: t(0))
        #expect(machine.send("x", .drop, at: t(500)) == nil)
        #expect(machine.pending == "a")
        #expect(machine.deadline == t(1_000))
        var idle = Machine()
        #expect(idle.send("x", .drop, at: t(0)) == nil)
        #expect(idle.pending == nil)
    }

    @Test func zeroDurationsDeliverAtOnce() {
        var machine = Machine()
        #expect(machine.send("a", .debounce(.zero), at: t(0)) == "a")
        #expect(machine.send("b", .hold(.zero), at: t(0)) == "b")
        #expect(machine.pending == nil)
    }

    @Test func aDeadlineOnANewValuesArrivalDeliversTheOldValueFirst() {
        var machine = Machine()
        _ = machine.send("old", .debounce(.seconds(1)), at: t(0))
        // Both happen at t = 1 s: the old value is due, and a new one arrives.
        #expect(machine.advance(to: t(1_000)) == "old")
        #expect(machine.send("new", .debounce(.seconds(1)), at: t(1_000)) == nil)
        #expect(machine.pending == "new")
        #expect(machine.deadline == t(2_000))
    }

    @Test func flushAndCancel() {
        var machine = Machine()
        #expect(machine.flush() == nil)
        _ = machine.send("a", .debounce(.seconds(1)), at: t(0))
        #expect(machine.flush() == "a")
        #expect(machine.pending == nil)
        _ = machine.send("b", .hold(.seconds(1)), at: t(100))
        machine.cancel()
        #expect(machine.pending == nil)
        #expect(machine.deadline == nil)
        #expect(machine.pendingSince == nil)
        #expect(machine.advance(to: t(10_000)) == nil)
    }
}
