import Debounce
import DebounceTesting
import Testing

/// The shutter case: frames at 30 fps, valid detections pass at once, lost detections are held.
private enum Frame: Equatable, CustomStringConvertible {
    case valid(Int)
    case invalid(Int)

    var isValid: Bool { if case .valid = self { true } else { false } }
    var description: String {
        switch self {
        case .valid(let i): "valid#\(i)"
        case .invalid(let i): "invalid#\(i)"
        }
    }
}

/// Frame `index`'s timestamp at 30 fps (exact: 1/30 s in attoseconds, truncated once per frame).
private func frameTime(_ index: Int) -> ManualClock.Instant { .at(.seconds(index) / 30) }

private struct Delivered: Equatable {
    let frame: Frame
    let at: ManualClock.Instant
}

/// Runs frames through the pure machine the way offline replay does: advance, then send, per frame.
private func replay(
    _ frames: [Frame], invalid decision: DebounceDecision<Duration>, tail: Duration = .zero
) -> [Delivered] {
    var machine = ConditionalDebounceMachine<Frame, ManualClock.Instant>()
    var delivered: [Delivered] = []
    for (index, frame) in frames.enumerated() {
        let now = frameTime(index)
        if let due = machine.advance(to: now) { delivered.append(Delivered(frame: due, at: now)) }
        if let out = machine.send(frame, frame.isValid ? .now : decision, at: now) {
            delivered.append(Delivered(frame: out, at: now))
        }
    }
    let end = frameTime(frames.count - 1) + tail
    if let deadline = machine.deadline, deadline <= end, let due = machine.advance(to: deadline) {
        delivered.append(Delivered(frame: due, at: deadline))
    }
    return delivered
}

private func validThenInvalid(valid: Int, invalid: Int) -> [Frame] {
    (0..<valid).map(Frame.valid) + (valid..<valid + invalid).map(Frame.invalid)
}

@Suite struct CameraTimelineTests {
    @Test func holdClearsExactlyThreeTenthsOfASecondAfterTheFirstInvalidFrame() {
        // 1 s of valid frames (0...29), then invalid frames 30...179 for 5 s.
        let frames = validThenInvalid(valid: 30, invalid: 150)
        let delivered = replay(frames, invalid: .hold(.milliseconds(300)))
        #expect(delivered.prefix(30).map(\.frame) == (0..<30).map(Frame.valid))
        #expect(delivered.prefix(30).map(\.at) == (0..<30).map(frameTime))
        // The first clear: the invalid frame pending at first invalid (1.0 s) + 0.3 s = frame 39's
        // arrival. Frame 39 itself is not in yet (ties deliver the old value first).
        #expect(delivered[30] == Delivered(frame: .invalid(38), at: frameTime(30) + .milliseconds(300)))
        #expect(frameTime(39) == frameTime(30) + .milliseconds(300))
        // Frame 39 starts the next hold run, and so on: while failures continue, the latest is
        // re-delivered every 0.3 s (a consumer that publishes only changes sees one clear).
        let expectedClears = (0..<16).map { j in Delivered(frame: .invalid(38 + 9 * j), at: frameTime(39 + 9 * j)) }
        #expect(Array(delivered.dropFirst(30)) == expectedClears)
    }

    @Test func holdDeadlineIsFixedWhileInvalidFramesKeepComing() {
        var machine = ConditionalDebounceMachine<Frame, ManualClock.Instant>()
        _ = machine.send(.valid(0), .now, at: frameTime(0))
        for index in 1...8 {
            #expect(machine.advance(to: frameTime(index)) == nil)
            #expect(machine.send(.invalid(index), .hold(.milliseconds(300)), at: frameTime(index)) == nil)
            #expect(machine.deadline == frameTime(1) + .milliseconds(300))
            #expect(machine.pendingSince == frameTime(1))
        }
    }

    @Test func debounceNeverClearsWhileInvalidFramesKeepComing() {
        // 1 s valid, then 10 s of failures at 30 fps: every failure restarts the 0.3 s wait.
        let frames = validThenInvalid(valid: 30, invalid: 300)
        let delivered = replay(frames, invalid: .debounce(.milliseconds(300)))
        #expect(delivered.map(\.frame) == (0..<30).map(Frame.valid))
        // It clears only 0.3 s after the failures stop.
        let stopped = replay(frames, invalid: .debounce(.milliseconds(300)), tail: .seconds(1))
        #expect(stopped.last == Delivered(frame: .invalid(329), at: frameTime(329) + .milliseconds(300)))
    }

    @Test(arguments: 1...8)
    func flickerOfUpToEightFramesClearsNothing(gap: Int) {
        let frames = validThenInvalid(valid: 30, invalid: gap) + [.valid(30 + gap), .valid(31 + gap)]
        let delivered = replay(frames, invalid: .hold(.milliseconds(300)))
        #expect(delivered.allSatisfy { $0.frame.isValid }, "cleared during a \(gap)-frame flicker: \(delivered)")
        // The valid frame after the gap is delivered at its own arrival.
        #expect(delivered.suffix(2) == [
            Delivered(frame: .valid(30 + gap), at: frameTime(30 + gap)),
            Delivered(frame: .valid(31 + gap), at: frameTime(31 + gap)),
        ])
    }

    @Test func aGapOfNineFramesEndsExactlyOnTheDeadlineAndClearsFirst() {
        // Nine invalid frames: the next valid frame arrives at first invalid + 9/30 s = + 0.3 s.
        let frames = validThenInvalid(valid: 30, invalid: 9) + [.valid(39)]
        let delivered = replay(frames, invalid: .hold(.milliseconds(300)))
        #expect(delivered.suffix(2) == [
            Delivered(frame: .invalid(38), at: frameTime(39)),
            Delivered(frame: .valid(39), at: frameTime(39)),
        ])
    }

    @Test func liveDebouncerClearsExactlyOnTheHoldDeadline() async {
        let clock = ManualClock()
        let recorder = Recorder<Frame>(clock: clock)
        let shutter = ConditionalDebouncer<Frame, ManualClock>(
            clock: clock,
            decide: { $0.isValid ? .now : .hold(.milliseconds(300)) },
            output: recorder.output
        )
        for index in 0..<30 {
            clock.advance(to: frameTime(index))
            shutter.send(.valid(index))
        }
        #expect(await recorder.next(30).map(\.value) == (0..<30).map(Frame.valid))
        // Invalid frames 30...38 arrive before the deadline (1.3 s).
        for index in 30...38 {
            clock.advance(to: frameTime(index))
            shutter.send(.invalid(index))
        }
        await clock.waitForSleepers(count: 1)
        #expect(clock.sleeperDeadlines == [.at(.milliseconds(1_300))])
        #expect(shutter.isPending)
        clock.advance(to: .at(.milliseconds(1_300)))
        #expect(await recorder.next() == [.init(value: .invalid(38), at: .milliseconds(1_300))])
        #expect(!shutter.isPending)
        // One timer task served the whole run, woken once.
        #expect(shutter.timerStatistics == TimerStatistics(tasksStarted: 1, wakeups: 1))
    }
}
