import HTTPTestSupport
import MarkerDetection
@testable import MarkerShutter
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

@Suite struct ViewStateFromShutterTests {
    /// The report `LiveShutter` gives for a frame becomes the view's state unchanged: phase, frame,
    /// counts and detection time from the frame, the rate from the statistics.
    @Test func stateFromTheShuttersReport() throws {
        let rule = ValidityRule(minimumMarkers: 1, minimumBoardCorners: 0, minimumSharpness: 0)
        let found = Detection(imageSize: ImageSize(width: 64, height: 48),
                              markers: [Marker(id: 3, corners: [ImagePoint(x: 1, y: 1), ImagePoint(x: 9, y: 1),
                                                                ImagePoint(x: 9, y: 9), ImagePoint(x: 1, y: 9)])],
                              boardCorners: [], sharpness: nil, duration: .milliseconds(3))
        let lost = Detection(imageSize: ImageSize(width: 64, height: 48), markers: [], boardCorners: [], sharpness: nil,
                             duration: .milliseconds(2))
        var timeline = ShutterTimeline<FrameObservation>(hold: .milliseconds(300))
        var statistics = LiveStatistics()
        var reports: [LiveShutter.Report] = []
        for (index, detection) in [found, lost].enumerated() {
            let time = FrameTime(seconds: Double(index) * 0.1)
            let pixels = try flatFrame(0)
            statistics.noteReceived(SourceFrame(pixels: pixels, time: time))
            let observation = FrameObservation(index: index, time: time, sequence: nil, file: nil, detection: detection,
                                               rule: rule, pixels: nil)
            let step = timeline.observe(index: index, snapshot: observation, isValid: observation.isValid, at: time)
            reports.append(LiveShutter.Report(observation: observation, step: step, latency: .zero, pixels: pixels))
        }
        let enabled = ViewState(report: reports[0], statistics: statistics, hold: .milliseconds(300))
        #expect(enabled.phase == .enabled)
        #expect(enabled.markers == 1 && enabled.corners == 0)
        #expect(enabled.detectionTime == .milliseconds(3))
        let held = ViewState(report: reports[1], statistics: statistics, hold: .milliseconds(300))
        #expect(held.phase == .held(since: FrameTime(seconds: 0.1)))
        #expect(held.frameIndex == 1 && held.markers == 0)
        #expect(held.shutterText == "HELD 0.00s")
        #expect(held.holdRemaining == .milliseconds(300))
        #expect(held.framesPerSecond == 10)
    }
}
