@testable import MarkerShutter
import Testing

/// Frame `i` at 30 fps.
private func at(_ index: Int) -> FrameTime { FrameTime(.seconds(index) / 30) }

/// Runs a validity pattern ("V" valid, "." invalid) at 30 fps; returns each frame's phase name and
/// held index, and the timeline.
private func run(_ pattern: String, hold: Duration = .milliseconds(300)) -> (shown: [String], held: [Int?], timeline: ShutterTimeline<Int>) {
    var timeline = ShutterTimeline<Int>(hold: hold)
    var shown: [String] = [], held: [Int?] = []
    for (index, mark) in pattern.enumerated() {
        let step = timeline.observe(index: index, snapshot: index, isValid: mark == "V", at: at(index))
        shown.append(step.state.phase.description)
        held.append(step.state.heldIndex)
    }
    return (shown, held, timeline)
}

@Suite struct ShutterTimelineTests {
    @Test func validFramesEnableAtOnceAndAreHeld() {
        let (shown, held, _) = run("..VVV")
        #expect(shown == ["disabled", "disabled", "enabled", "enabled", "enabled"])
        #expect(held == [nil, nil, 2, 3, 4])
    }

    @Test func aShortDropoutHoldsTheLastValidFrame() {
        let (shown, held, timeline) = run("VVV...VV")
        #expect(shown == ["enabled", "enabled", "enabled", "held", "held", "held", "enabled", "enabled"])
        #expect(held == [0, 1, 2, 2, 2, 2, 6, 7])
        #expect(timeline.stretches.count == 1)
        #expect(timeline.stretches[0].description == "frames 0...7")
    }

    @Test func nineInvalidFramesDisableTheShutterWhenTheTenthArrives() {
        // First invalid frame 2 at 2/30 s; deadline 2/30 + 0.3 = 11/30 s, frame 11's arrival.
        let (shown, held, timeline) = run("VV" + String(repeating: ".", count: 9) + "VV")
        #expect(shown == ["enabled", "enabled"] + Array(repeating: "held", count: 9) + ["enabled", "enabled"])
        #expect(held[10] == 1)
        #expect(timeline.stretches.map(\.description) == ["frames 0...10", "frames 11...12"])
        #expect(timeline.stretches[0].end == at(11))
        let (shownLong, _, _) = run("VV" + String(repeating: ".", count: 10))
        #expect(shownLong.suffix(2) == ["held", "disabled"])
    }

    @Test func holdStatesCarryWhenDetectionWasLost() {
        var timeline = ShutterTimeline<Int>()
        _ = timeline.observe(index: 0, snapshot: 0, isValid: true, at: at(0))
        let first = timeline.observe(index: 1, snapshot: 1, isValid: false, at: at(1))
        let second = timeline.observe(index: 2, snapshot: 2, isValid: false, at: at(2))
        #expect(first.state.phase == .held(since: at(1)))
        #expect(second.state.holdAge(at: at(2)) == at(1).duration(to: at(2)))
        #expect(first.changed)
        #expect(!second.changed, "a longer hold is not a new state")
    }

    @Test func statesArePublishedOnlyWhenPhaseOrHeldFrameChange() {
        var timeline = ShutterTimeline<Int>()
        let pattern = "..VV..V" + String(repeating: ".", count: 12)
        let changed = pattern.enumerated().map { index, mark in
            timeline.observe(index: index, snapshot: index, isValid: mark == "V", at: at(index)).changed
        }
        // frame 2 enables, 3 holds a new frame, 4 holds, 6 enables again, 7 holds, 16 disables.
        #expect(changed.enumerated().filter(\.element).map(\.offset) == [2, 3, 4, 6, 7, 16])
    }

    @Test func stretchesMeasureEnabledTimeToTheEndOfTheHold() {
        let (_, _, timeline) = run("VVVV" + String(repeating: ".", count: 20) + "VVV")
        #expect(timeline.stretches.count == 2)
        let first = timeline.stretches[0]
        #expect(first.start == at(0))
        #expect(first.end == at(4) + .milliseconds(300))
        #expect(first.duration == at(0).duration(to: at(4) + .milliseconds(300)))
        #expect(first.lastFrame == 12)  // frame 13 arrives at the deadline (4/30 + 9/30 s)
        let open = timeline.stretches[1]
        #expect(open.end == nil)
        #expect(open.duration == at(24).duration(to: at(26)))
    }

    @Test func advancingWithoutFramesEndsAHoldAtItsDeadline() {
        var timeline = ShutterTimeline<Int>()
        _ = timeline.observe(index: 0, snapshot: 0, isValid: true, at: at(0))
        _ = timeline.observe(index: 1, snapshot: 1, isValid: false, at: at(1))
        let beforeDeadline = timeline.advance(to: at(1) + .milliseconds(299))
        let afterDeadline = timeline.advance(to: at(1) + .seconds(5))
        #expect(!beforeDeadline)
        #expect(afterDeadline)
        #expect(timeline.state.phase == .disabled)
        #expect(timeline.stretches[0].end == at(1) + .milliseconds(300))
    }

    @Test func aZeroHoldDisablesWithTheFirstInvalidFrame() {
        let (shown, _, _) = run("VV.V", hold: .zero)
        #expect(shown == ["enabled", "enabled", "disabled", "enabled"])
    }

    @Test func framesThatStopWhileEnabledDisableTheShutterAHoldAfterTheLastOne() {
        var (_, _, timeline) = run("VVVV")
        #expect(timeline.expiry == at(3) + .milliseconds(300))
        let changed1 = timeline.advance(to: at(3) + .milliseconds(299))
        #expect(!changed1)
        #expect(timeline.state.phase == .enabled)
        let changed2 = timeline.advance(to: at(3) + .milliseconds(300))
        #expect(changed2)
        #expect(timeline.state.phase == .disabled)
        #expect(timeline.expiry == nil)
        #expect(timeline.stretches[0].end == at(3) + .milliseconds(300))
        // A later valid frame opens a new stretch.
        let step = timeline.observe(index: 20, snapshot: 20, isValid: true, at: at(20))
        #expect(step.changed && step.state.heldIndex == 20)
        #expect(timeline.stretches.map(\.description) == ["frames 0...3", "frames 20...20"])
    }

    @Test func framesThatStopWhileHeldDisableTheShutterAtTheHoldsDeadline() {
        // Held since frame 2 (the first invalid one): the deadline is 2/30 s + 0.3 s, whenever time moves on.
        var (shown, _, timeline) = run("VV...")
        #expect(shown.last == "held")
        #expect(timeline.expiry == at(2) + .milliseconds(300))
        let changed3 = timeline.advance(to: at(60))
        #expect(changed3)
        #expect(timeline.state.phase == .disabled)
        #expect(timeline.stretches[0].end == at(2) + .milliseconds(300))
        let changed4 = timeline.advance(to: at(90))
        #expect(!changed4)
    }
}
