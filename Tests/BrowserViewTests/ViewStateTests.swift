import MarkerShutter
import Testing
@testable import BrowserView

@Suite struct ViewStateTests {
    private func state(_ phase: ShutterState<FrameObservation>.Phase, at seconds: Double) -> ViewState {
        ViewState(frameIndex: 7, time: FrameTime(seconds: seconds), phase: phase, hold: .milliseconds(300))
    }

    @Test func shutterTextIsTheStatusLines() {
        #expect(state(.enabled, at: 1).shutterText == "ENABLED")
        #expect(state(.disabled, at: 1).shutterText == "disabled")
        #expect(state(.held(since: FrameTime(seconds: 1.0)), at: 1.12).shutterText == "HELD 0.12s")
        #expect(state(.held(since: FrameTime(seconds: 1.0)), at: 1.05).shutterText == "HELD 0.05s")
    }

    @Test func holdCountsDown() {
        let held = state(.held(since: FrameTime(seconds: 2.0)), at: 2.1)
        #expect(held.holdAge == .milliseconds(100))
        #expect(held.holdRemaining == .milliseconds(200))
        #expect(state(.held(since: FrameTime(seconds: 2.0)), at: 2.5).holdRemaining == .zero)
        #expect(state(.enabled, at: 2).holdRemaining == nil)
    }
}

@Suite struct ChangeSignalTests {
    @Test func waitReturnsAtOnceWhenBehind() async {
        let signal = ChangeSignal()
        signal.change()
        signal.change()
        #expect(await signal.wait(after: 0) == 2)
    }

    @Test func closeEndsWaits() async {
        let signal = ChangeSignal()
        async let waited = signal.wait(after: 0)
        signal.close()
        #expect(await waited == nil)
        #expect(await signal.wait(after: 0) == nil)
    }

    @Test func cancellationEndsAWait() async {
        let signal = ChangeSignal()
        let task = Task { await signal.wait(after: 0) }
        task.cancel()
        #expect(await task.value == nil)
    }

    @Test func changeWakesAWaiter() async {
        let signal = ChangeSignal()
        let task = Task { await signal.wait(after: 0) }
        signal.change()
        #expect(await task.value == 1)
    }
}
