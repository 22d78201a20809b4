import Foundation
import MarkerDetection
@testable import MarkerShutter
import Pixels
import Testing

/// The live session's decisions, driven by hand: no thread, task, lock or clock. Frames come at
/// 30 fps; frame `i` is stamped `i/30 s` and arrives on the session clock at `1 s + i/30 s`.
@Suite struct LiveSessionMachineTests {
    static let hold: Duration = .milliseconds(300)
    static let rule = ValidityRule(minimumMarkers: 0, minimumBoardCorners: 16, minimumSharpness: 50)

    /// Frame `i`'s timestamp.
    static func time(_ index: Int) -> FrameTime { FrameTime(.seconds(index) / 30) }
    /// Frame `i`'s arrival on the session clock.
    static func arrival(_ index: Int) -> Duration { .seconds(1) + .seconds(index) / 30 }

    /// A 4x4 grid of board corners spanning `width` x `height` pixels from (`x`, `y`) in a 640x480
    /// image: a valid detection.
    static func grid(x: Double, y: Double, width: Double = 160, height: Double = 120) -> Detection {
        var corners: [BoardCorner] = []
        for row in 0..<4 {
            for column in 0..<4 {
                let point = ImagePoint(x: x + Double(column) / 3 * width, y: y + Double(row) / 3 * height)
                corners.append(BoardCorner(id: row * 4 + column, point: point))
            }
        }
        return Detection(imageSize: ImageSize(width: 640, height: 480), markers: [], boardCorners: corners,
                         sharpness: 500, duration: .milliseconds(5))
    }

    /// Nothing found: an invalid detection.
    static let nothing = Detection(imageSize: ImageSize(width: 640, height: 480), markers: [], boardCorners: [],
                                   sharpness: 500, duration: .milliseconds(5))

    /// Runs a machine by hand and writes what it does as one line per action.
    struct Script {
        var machine: LiveSessionMachine
        var lines: [String] = []
        let pixels: PixelBuffer

        init(_ machine: LiveSessionMachine) throws {
            self.machine = machine
            pixels = try PixelBuffer(width: 4, height: 4, format: .gray8)
        }

        /// A frame stamped `t/30 s` arrives; its arrival's actions are logged.
        ///
        /// - Returns: The index the machine gave it.
        mutating func arrive(_ t: Int, droppedBefore: Int = 0) -> Int {
            let arrival = machine.receive(SourceFrame(pixels: pixels, time: LiveSessionMachineTests.time(t),
                                                      droppedBefore: droppedBefore),
                                          camera: 0, at: LiveSessionMachineTests.arrival(t))
            log(arrival.actions)
            return arrival.index
        }

        /// A frame stamped `t/30 s` arrives and is detected showing `detection`.
        mutating func frame(_ t: Int, _ detection: Detection) {
            detect(arrive(t), detection, t: t)
        }

        /// Detection finished with frame `index`, stamped `t/30 s` (`index/30 s` by default) or
        /// `time`, which arrived at `1 s + t/30 s`.
        mutating func detect(_ index: Int, _ detection: Detection, t: Int? = nil, time: FrameTime? = nil) {
            let t = t ?? index
            let observation = FrameObservation(index: index, time: time ?? LiveSessionMachineTests.time(t), sequence: nil,
                                               file: nil, detection: detection, rule: LiveSessionMachineTests.rule, pixels: pixels)
            log(machine.detected(observation, pixels: pixels, arrivedAt: LiveSessionMachineTests.arrival(t),
                                 latency: .milliseconds(5)))
        }

        /// A run of frames from a pattern: "V" valid (a grid in the middle), "." nothing found.
        mutating func frames(_ pattern: String, from first: Int = 0) {
            for (offset, mark) in pattern.enumerated() {
                frame(first + offset, mark == "V" ? LiveSessionMachineTests.grid(x: 240, y: 180) : LiveSessionMachineTests.nothing)
            }
        }

        mutating func capture(at now: Duration? = nil) { log(machine.capture(at: now)) }
        mutating func tick(at now: Duration) { log(machine.tick(at: now)) }

        mutating func log(_ actions: [LiveSessionMachine.Action]) {
            lines += actions.map(Self.describe)
        }

        static func describe(_ action: LiveSessionMachine.Action) -> String {
            switch action {
            case .frame(let report, let changed, let guidance):
                let state = report.step.state
                return "frame \(report.observation.index): \(state.phase)"
                    + (state.heldIndex.map { " \($0)" } ?? "") + (changed ? " (changed)" : "")
                    + (guidance.pictures > 0 ? " [\(guidance.pictures) pictures]" : "")
            case .expired(let expiry):
                return "expired at \(expiry.time) after frame \(expiry.lastFrame): \(expiry.state.phase)"
            case .save(let picture):
                return "save frame \(picture.members[0].observation.index) (\(picture.trigger.rawValue), \(picture.members[0].state.phase)"
                    + (picture.holdAge.map { String(format: ", held %.1f ms", $0.inSeconds * 1000) } ?? "") + ")"
            case .refuse(let error):
                switch error {
                case .busy(let pending): return "refuse: busy, \(pending) pending"
                default: return "refuse: \(error == .shutterDisabled ? "disabled" : "\(error)")"
                }
            case .notTaken:
                return "not taken"
            case .stopSources(let reason):
                return "stop: \(reason)"
            case .rigChanged(let state):
                return "rig: \(state)"
            case .camera(_, let condition):
                switch condition {
                case .stalled(let limit): return "camera stalled after \(Int((limit.inSeconds * 1000).rounded())) ms"
                case .back(let after): return "camera back" + (after.map { " after \(Int(($0.inSeconds * 1000).rounded())) ms" } ?? "")
                case .lost(let reason): return "camera lost: \(reason)"
                }
            case .journal:
                return "journal"
            }
        }
    }

    static func script(automatic: Bool = false, backlog: Int = 8, stopAfter: Int? = nil) throws -> Script {
        try Script(LiveSessionMachine(hold: hold, automatic: automatic, pictureBacklog: backlog, stopAfter: stopAfter))
    }

    /// The events carry the counts the views show, so that no view asks the session back.
    @Test func framesAndExpiriesCarryTheCountsAsTheyStand() throws {
        var machine = try Self.script().machine
        let pixels = try PixelBuffer(width: 4, height: 4, format: .gray8)
        func frame(_ t: Int, _ detection: Detection, skipped: Int) -> LiveShutter.Report? {
            let index = machine.receive(SourceFrame(pixels: pixels, time: Self.time(t)), camera: 0, at: Self.arrival(t)).index
            let observation = FrameObservation(index: index, time: Self.time(t), sequence: nil, file: nil,
                                               detection: detection, rule: Self.rule, pixels: pixels)
            let actions = machine.detected(observation, pixels: pixels, arrivedAt: Self.arrival(t), latency: .milliseconds(5),
                                           skipped: skipped)
            guard case .frame(let report, _, _) = actions.first else { return nil }
            return report
        }
        let first = try #require(frame(0, Self.grid(x: 240, y: 180), skipped: 0))
        #expect(first.status.statistics.framesReceived == 1 && first.status.statistics.framesDetected == 1)
        #expect(first.status.picturesSaved == 0)
        guard case .save = machine.capture().first else {
            Issue.record("a picture of the enabled shutter's frame was not taken")
            return
        }
        machine.pictureSaved()
        let second = try #require(frame(3, Self.nothing, skipped: 2))
        #expect(second.status.statistics.framesReceived == 2 && second.status.statistics.framesDetected == 2)
        #expect(second.status.statistics.framesSkipped == 2)
        #expect(second.status.statistics.lastCounts.corners == 0)
        #expect(second.status.picturesSaved == 1)
        guard case .expired(let expiry) = machine.tick(at: Self.arrival(30)).first else {
            Issue.record("no expiry a second after the last frame")
            return
        }
        #expect(expiry.status.picturesSaved == 1 && expiry.status.statistics.framesDetected == 2)
    }

    @Test func aValidFrameEnablesAndALostOneIsHeldForThreeTenths() throws {
        var script = try Self.script()
        // Frames 2...10 invalid: the hold from 2/30 s ends at 11/30 s, frame 11's time, whatever it shows.
        script.frames("VV" + String(repeating: ".", count: 9) + "V.")
        #expect(script.lines == [
            "frame 0: enabled 0 (changed)",
            "frame 1: enabled 1",
            "frame 2: held 1 (changed)",
            "frame 3: held 1", "frame 4: held 1", "frame 5: held 1", "frame 6: held 1", "frame 7: held 1",
            "frame 8: held 1", "frame 9: held 1", "frame 10: held 1",
            "frame 11: enabled 11 (changed)",
            "frame 12: held 11 (changed)",
        ])
        #expect(script.machine.stretches.map(\.description) == ["frames 0...10", "frames 11...12"])
        #expect(script.machine.stretches.first?.end == Self.time(2) + Self.hold)
    }

    @Test func tenInvalidFramesInARowDisableTheShutter() throws {
        var script = try Self.script()
        script.frames("V" + String(repeating: ".", count: 10))
        #expect(script.lines == ["frame 0: enabled 0 (changed)", "frame 1: held 0 (changed)"]
            + (2...9).map { "frame \($0): held 0" } + ["frame 10: disabled (changed)"])
        #expect(script.machine.state.phase == .disabled)
        #expect(script.machine.stretches.first?.end == Self.time(1) + Self.hold)
    }

    @Test func aPictureIsTakenWhileEnabledOrHeldAndRefusedWhileDisabled() throws {
        var script = try Self.script()
        script.frames("VV")
        script.capture()
        script.frames("..", from: 2)
        script.capture()
        script.frames(String(repeating: ".", count: 8), from: 4)
        script.capture()
        #expect(Array(script.lines[2...3]) == ["save frame 1 (request, enabled)", "frame 2: held 1 (changed) [1 pictures]"])
        #expect(script.lines[5] == "save frame 1 (request, held, held 33.3 ms)")
        #expect(script.lines.suffix(2) == ["frame 11: disabled (changed) [2 pictures]", "refuse: disabled"])
        #expect(script.machine.pendingSaves == 2)
        script.machine.pictureSaved()
        script.machine.pictureFailed()
        #expect(script.machine.pictures == LiveSummary.Pictures(saved: 1, refused: 1, busy: 0, failed: 1))
        #expect(script.machine.pendingSaves == 0)
    }

    @Test func aPictureAskedForOnceTheHoldRanOutByTheClockIsRefused() throws {
        var script = try Self.script()
        script.frames("VV")
        // No frame since frame 1: the shutter may fire until 1/30 s + 0.3 s on the frames' clock,
        // which is 1 s + 1/30 s + 0.3 s on the session clock; asked for then, the hold runs out first.
        let end = Self.arrival(1) + Self.hold
        script.capture(at: end - .nanoseconds(1))
        script.capture(at: end)
        #expect(Array(script.lines.dropFirst(2)) == [
            "save frame 1 (request, enabled)", "expired at \(Self.time(1) + Self.hold) after frame 1: disabled", "refuse: disabled",
        ])
        // Judged by the frames alone (a replay), the hold lasts until a frame ends it.
        var replayed = try Self.script()
        replayed.frames("VV")
        replayed.capture()
        #expect(replayed.lines.last == "save frame 1 (request, enabled)")
    }

    @Test func requestsBeyondTheBacklogAreRefusedBusyUntilOneIsWritten() throws {
        var script = try Self.script(backlog: 2)
        script.frames("V")
        script.capture()
        script.capture()
        script.capture()
        script.machine.pictureSaved()
        script.capture()
        script.capture()
        #expect(Array(script.lines.dropFirst()) == [
            "save frame 0 (request, enabled)", "save frame 0 (request, enabled)", "refuse: busy, 2 pending",
            "save frame 0 (request, enabled)", "refuse: busy, 2 pending",
        ])
        #expect(script.machine.pictures == LiveSummary.Pictures(saved: 1, refused: 0, busy: 2, failed: 0))
        // Ending: nothing more is taken, whatever the backlog.
        script.machine.close()
        script.capture()
        #expect(script.lines.last == "not taken")
        #expect(script.machine.pendingSaves == 2)
    }

    @Test func autoCaptureTakesViewsThatRaiseTheCoverage() throws {
        var script = try Self.script(automatic: true)
        let left = Self.grid(x: 40, y: 180), right = Self.grid(x: 440, y: 180)
        script.frame(0, left)
        script.frame(1, left)  // the same view again: too similar
        script.frame(2, Self.nothing)
        script.frame(3, right)  // across the image from the first: taken
        script.frame(4, right)
        #expect(script.lines == [
            "frame 0: enabled 0 (changed) [1 pictures]", "save frame 0 (auto, enabled)",
            "frame 1: enabled 1 [1 pictures]",
            "frame 2: held 1 (changed) [1 pictures]",
            "frame 3: enabled 3 (changed) [2 pictures]", "save frame 3 (auto, enabled)",
            "frame 4: enabled 4 [2 pictures]",
        ])
        let views = try [#require(BoardView(left)), #require(BoardView(right))]
        #expect(script.machine.coverage(of: 0).views == views)
        // 40...600 px of the 640 across: the two centres span 400 px, 0.625 of the width, of the 0.7 wanted.
        #expect(abs(script.machine.coverage(of: 0).progress.x - (400.0 / 640) / 0.7) < 1e-12)
    }

    @Test func aPictureAskedForCountsInTheCoverage() throws {
        var plain = try Self.script()
        let view = Self.grid(x: 240, y: 180)
        plain.frame(0, view)
        plain.capture()
        plain.frame(1, view)
        #expect(plain.lines == ["frame 0: enabled 0 (changed)", "save frame 0 (request, enabled)", "frame 1: enabled 1 [1 pictures]"])
        #expect(plain.machine.coverage(of: 0).views == [try #require(BoardView(view))])
        // With --auto, a request counts too, and auto-capture does not take the same view again.
        var automatic = try Self.script(automatic: true)
        automatic.frame(0, Self.nothing)
        automatic.capture()
        automatic.frame(1, view)
        automatic.capture()
        automatic.frame(2, view)
        #expect(automatic.lines == [
            "frame 0: disabled (changed)", "refuse: disabled",
            "frame 1: enabled 1 (changed) [1 pictures]", "save frame 1 (auto, enabled)",
            "save frame 1 (request, enabled)",
            "frame 2: enabled 2 [2 pictures]",
        ])
        #expect(automatic.machine.pictures == LiveSummary.Pictures(refused: 1))
    }

    @Test func aStallDisablesTheShutterAtTheFirstTickAfterTheHoldsDeadline() throws {
        var script = try Self.script()
        script.frames("VV.")
        // Held since frame 2 (2/30 s): disabled at 2/30 + 0.3 s on the frames' clock, looked at
        // 0.1 s later so that a frame on time decides first.
        let deadline = Self.arrival(2) + Self.hold + LiveSessionMachine.stallGrace
        #expect(script.machine.clockDeadline == deadline)
        script.tick(at: Self.arrival(2) + Self.hold - .nanoseconds(1))
        #expect(script.lines.count == 3, "nothing happens before the hold's end")
        script.tick(at: deadline)
        #expect(script.lines.last == "expired at \(Self.time(2) + Self.hold) after frame 2: disabled")
        #expect(script.machine.state.phase == .disabled)
        // A camera alone stalls once its hold and the grace passed with no frame: just after.
        #expect(script.machine.clockDeadline == deadline + .nanoseconds(1))
        #expect(script.machine.stretches.map(\.end) == [Self.time(2) + Self.hold])
        script.tick(at: deadline + .seconds(5))
        script.tick(at: deadline + .seconds(6))
        #expect(Array(script.lines.dropFirst(3)) == [
            "expired at \(Self.time(2) + Self.hold) after frame 2: disabled", "camera stalled after 400 ms",
        ], "a disabled shutter expires once, a camera stalls once")
        #expect(script.machine.clockDeadline == nil)
        // Its next frame (stamped after the clock's time) brings it back, and its phase is told as
        // changed from the expiry's.
        script.frames(".", from: 200)
        #expect(Array(script.lines.suffix(2)) == ["camera back after 6600 ms", "frame 3: disabled"])
    }

    @Test func aFrameWaitingForDetectionDecidesInsteadOfTheClock() throws {
        var script = try Self.script()
        script.frames("V")
        #expect(script.machine.clockDeadline == Self.arrival(0) + Self.hold + LiveSessionMachine.stallGrace)
        _ = script.arrive(1)
        // Frame 1 decides the hold; only the camera's stall is the clock's.
        let stall = Self.arrival(1) + Self.hold + LiveSessionMachine.stallGrace + .nanoseconds(1)
        #expect(script.machine.clockDeadline == stall)
        script.tick(at: .seconds(60))
        #expect(script.lines == ["frame 0: enabled 0 (changed)", "camera stalled after 400 ms"])
        script.detect(1, Self.nothing)
        #expect(script.lines.last == "frame 1: held 0 (changed)")
        #expect(script.machine.clockDeadline == Self.arrival(1) + Self.hold + LiveSessionMachine.stallGrace)
    }

    @Test func missingFramesPassTheirTimeAndEndTheHold() throws {
        var script = try Self.script()
        script.frames("V")
        for index in 1...9 {
            script.machine.receiveMissing()
            script.log(script.machine.passMissing(at: Self.time(index)))
        }
        // Enabled at 0 s with no frame after: disabled at 0.3 s, the ninth missing frame's time.
        #expect(script.lines == ["frame 0: enabled 0 (changed)", "expired at \(Self.time(9)) after frame 0: disabled"])
        script.capture()
        #expect(script.lines.last == "refuse: disabled")
        #expect(script.machine.statistics.framesMissing == 9)
        // The next frame takes index 1: missing frames take none.
        #expect(script.arrive(10) == 1)
    }

    @Test func theFrameLimitStopsTheSourceOnceWithItsReason() throws {
        var script = try Self.script(stopAfter: 3)
        script.frames("V..")
        #expect(script.lines == ["frame 0: enabled 0 (changed)", "frame 1: held 0 (changed)", "stop: 3 frames", "frame 2: held 0"])
        #expect(script.machine.stop(reason: "quit").isEmpty, "the first reason is kept")
        #expect(script.machine.stopReason == "3 frames")
    }

    @Test func theFirstStopIsKept() throws {
        var script = try Self.script(stopAfter: 2)
        script.log(script.machine.stop(reason: "quit"))
        script.log(script.machine.stop(reason: "Ctrl-C"))
        script.frames("VV")
        #expect(script.lines == ["stop: quit", "frame 0: enabled 0 (changed)", "stop: quit", "frame 1: enabled 1"])
        #expect(script.machine.summary(skipped: 0).stopReason == "quit")
    }

    @Test func theSummaryCountsEveryFrameAndPicture() throws {
        var script = try Self.script()
        script.frames("VV")
        _ = script.arrive(2, droppedBefore: 2)
        script.machine.detectionFailed(index: 2)
        _ = script.arrive(3)
        script.detect(3, Self.grid(x: 240, y: 180), time: Self.time(0))  // a timestamp going back: dropped
        script.machine.receiveMissing()
        #expect(script.machine.passMissing(at: Self.time(4)).isEmpty)
        #expect(script.arrive(5) == 4, "the missing frame took no index")  // replaced while detection was busy
        script.frame(6, Self.nothing)
        script.capture()
        script.machine.pictureSaved()
        script.machine.close()
        script.capture()
        #expect(script.lines == [
            "frame 0: enabled 0 (changed)", "frame 1: enabled 1", "frame 5: held 1 (changed)",
            "save frame 1 (request, held, held 0.0 ms)", "not taken",
        ])
        let summary = script.machine.summary(skipped: 1)
        #expect(summary.stopReason == nil)
        #expect(summary.statistics.framesReceived == 6)
        #expect(summary.statistics.framesDetected == 3)
        #expect(summary.statistics.framesSkipped == 1)
        #expect(summary.statistics.framesLostByCamera == 2)
        #expect(summary.statistics.detectionFailures == 1)
        #expect(summary.statistics.framesOutOfOrder == 1)
        #expect(summary.statistics.framesMissing == 1)
        #expect(summary.pictures == LiveSummary.Pictures(saved: 1))
        #expect(summary.description == """
            stopped (end of frames): 6 frames received, 3 detected, 1 skipped while detection was busy, 2 lost by the camera, 1 missing or unreadable
              shutter enabled 0.20 s in 1 stretch
              pictures: 1 saved
              pictures cover x 0% y 0% size 0% skew 0%
              latency from frame to shutter state: median 5.0 ms, 99th percentile 5.0 ms
            """)
    }
}
