@testable import Debounce
import DebounceTesting
import Testing

@Suite struct TimeBaseTests {
    @Test func continuousClockIsReadFromBootTimeAndMapsBackOntoTheClock() throws {
        let clock = ContinuousClock()
        let base = TimeBase(clock: clock)
        #expect(base.rawOrigin != nil, "ContinuousClock should take the CLOCK_BOOTTIME path on Linux")
        var previous = base.now
        for _ in 0..<1_000 {
            let reading = base.now
            #expect(previous <= reading)
            previous = reading
        }
        // A reading maps back onto the clock within a millisecond of the clock's own now, and never
        // before it was taken (the mapping errs late, so a timer cannot wake early).
        let before = clock.now
        let reading = base.now
        let after = clock.now
        let mapped = base.clockInstant(reading)
        #expect(mapped >= before)
        #expect(mapped <= after + .milliseconds(1))
    }

    @Test func otherClocksAreReadThroughNowFromTheirCreation() {
        let clock = ManualClock(now: .at(.seconds(100)))
        let base = TimeBase(clock: clock)
        #expect(base.rawOrigin == nil)
        #expect(base.now == DriverInstant(attoseconds: 0))
        clock.advance(by: .milliseconds(1_500))
        #expect(base.now.duration(to: DriverInstant(attoseconds: 0)) == .milliseconds(-1_500))
        #expect(base.clockInstant(base.now) == .at(.milliseconds(101_500)))
    }
}
