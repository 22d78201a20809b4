import MarkerDetection
@testable import MarkerShutter
import Testing

/// The rig shutter's decisions on literal timelines: frames stamped to the microsecond, the state
/// after each one written as a line and compared whole.
@Suite struct RigShutterMachineTests {
    /// Frame `index` of a camera at `fps`, `phase` after the clock's origin.
    static func time(_ index: Int, fps: Int, phase: Duration = .zero) -> FrameTime {
        FrameTime(.seconds(index) / fps + phase)
    }

    static func camera(_ name: String, fps: Int) throws -> RigCamera {
        try RigCamera(name: name, frameInterval: .seconds(1) / fps)
    }

    /// Four board corners from (`x`, 100), 50 px apart.
    static func corners(x: Double) -> [BoardCorner] {
        (0..<4).map { BoardCorner(id: $0, point: ImagePoint(x: x + Double($0) * 50, y: 100)) }
    }

    /// Drives a machine and writes each state as a line:
    /// `enabled left#1@33.3 right#1@43.3 (10 ms)` or `disabled: <reason>`.
    struct Script {
        var machine: RigShutterMachine
        var lines: [String] = []

        init(_ configuration: RigShutterMachine.Configuration) { machine = RigShutterMachine(configuration: configuration) }

        mutating func frame(_ camera: Int, _ index: Int, at time: FrameTime, valid: Bool = true,
                            motion: RigFrame.Motion = .pixelsPerFrame(0)) {
            let step = machine.observe(RigFrame(camera: camera, index: index, time: time, isValid: valid, motion: motion))
            lines.append(describe(step.state))
        }

        mutating func advance(to time: FrameTime) { lines.append(describe(machine.advance(to: time).state)) }

        /// A frame's arrival before detection, with `dropped` frames lost before it.
        mutating func arrive(_ camera: Int, at time: FrameTime, dropped: Int = 0) {
            lines.append(describe(machine.arrived(camera: camera, at: time, dropped: dropped).state))
        }

        mutating func lose(_ camera: Int) { lines.append(describe(machine.lose(camera: camera).state)) }

        func describe(_ state: RigState) -> String {
            guard let set = state.set else { return "disabled: \(state.refusal.map { "\($0)" } ?? "?")" }
            let members = set.members.map { member in
                "\(machine.configuration.cameras[member.camera].name)#\(member.index)@\(Self.milliseconds(member.time.offset))"
            }
            return "enabled " + members.joined(separator: " ") + " (\(Self.milliseconds(set.largestDifference)) ms)"
        }

        /// Milliseconds with at most one decimal.
        static func milliseconds(_ duration: Duration) -> String {
            let tenths = (duration.inSeconds * 10_000).rounded() / 10
            return tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)
        }
    }

    // MARK: - Sets in time

    /// Two cameras at 30 fps, the right one 10 ms later: each set is a left frame and the right frame
    /// 10 ms after it; the first frames, with no frame before them, have no known motion.
    @Test func twoCamerasAtOneRateWithAPhaseOffset() throws {
        let configuration = try RigShutterMachine.Configuration(cameras: [Self.camera("left", fps: 30), Self.camera("right", fps: 30)])
        #expect(configuration.syncTolerance == .seconds(1) / 60)
        #expect(abs(configuration.maxMotion! - 0.5) < 1e-12)
        var script = Script(configuration)
        let offset = Duration.milliseconds(10)
        let still = RigFrame.Motion.corners(Self.corners(x: 100))
        script.frame(0, 0, at: Self.time(0, fps: 30), motion: still)
        script.frame(1, 0, at: Self.time(0, fps: 30, phase: offset), motion: still)
        script.frame(0, 1, at: Self.time(1, fps: 30), motion: still)
        script.frame(1, 1, at: Self.time(1, fps: 30, phase: offset), motion: still)
        script.frame(0, 2, at: Self.time(2, fps: 30), motion: still)
        script.frame(1, 2, at: Self.time(2, fps: 30, phase: offset), motion: still)
        #expect(script.lines == [
            "disabled: no frame from right yet",
            "disabled: board motion unknown in left",
            "disabled: board motion unknown in left",
            "enabled left#1@33.3 right#1@43.3 (10 ms)",
            "enabled left#1@33.3 right#1@43.3 (10 ms)",
            "enabled left#2@66.7 right#2@76.7 (10 ms)",
        ])
    }

    /// 30 and 25 fps, the 25 fps camera 5 ms late: the tolerance is half the longer interval (20 ms),
    /// and the set is always the newest pair of frames within it.
    @Test func twoCamerasAtDifferentRates() throws {
        let configuration = try RigShutterMachine.Configuration(cameras: [Self.camera("left", fps: 30), Self.camera("right", fps: 25)])
        #expect(configuration.syncTolerance == .milliseconds(20))
        var script = Script(configuration)
        let phase = Duration.milliseconds(5)
        // In time order: L0 R0 L1 R1 L2 R2 L3 R3 L4 R4 L5 L6 R5.
        let order: [(Int, Int)] = [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (1, 2), (0, 3), (1, 3), (0, 4), (1, 4), (0, 5), (0, 6), (1, 5)]
        for (camera, index) in order {
            script.frame(camera, index, at: camera == 0 ? Self.time(index, fps: 30) : Self.time(index, fps: 25, phase: phase))
        }
        #expect(script.lines == [
            "disabled: no frame from right yet",
            "enabled left#0@0 right#0@5 (5 ms)",
            "enabled left#0@0 right#0@5 (5 ms)",          // R0 to L1 is 28.3 ms
            "enabled left#1@33.3 right#1@45 (11.7 ms)",
            "enabled left#1@33.3 right#1@45 (11.7 ms)",   // R1 to L2 is 21.7 ms
            "enabled left#2@66.7 right#2@85 (18.3 ms)",
            "enabled left#3@100 right#2@85 (15 ms)",
            "enabled left#3@100 right#2@85 (15 ms)",      // L3 to R3 is 25 ms
            "enabled left#4@133.3 right#3@125 (8.3 ms)",
            "enabled left#4@133.3 right#3@125 (8.3 ms)",  // L4 to R4 is 31.7 ms
            "enabled left#5@166.7 right#4@165 (1.7 ms)",
            "enabled left#5@166.7 right#4@165 (1.7 ms)",
            "enabled left#6@200 right#5@205 (5 ms)",
        ])
    }

    /// Three cameras at 30, 25 and 20 fps with phases 0, 7 and 3 ms: the tolerance is 25 ms (half
    /// of 50 ms); a set needs a frame of each.
    @Test func threeCamerasAtThreeRates() throws {
        let configuration = try RigShutterMachine.Configuration(cameras: [
            Self.camera("a", fps: 30), Self.camera("b", fps: 25), Self.camera("c", fps: 20),
        ])
        #expect(configuration.syncTolerance == .milliseconds(25))
        var script = Script(configuration)
        // a: 0, 33.3, 66.7, 100; b: 7, 47, 87; c: 3, 53, 103.
        script.frame(0, 0, at: Self.time(0, fps: 30))
        script.frame(2, 0, at: Self.time(0, fps: 20, phase: .milliseconds(3)))
        script.frame(1, 0, at: Self.time(0, fps: 25, phase: .milliseconds(7)))
        script.frame(0, 1, at: Self.time(1, fps: 30))
        script.frame(1, 1, at: Self.time(1, fps: 25, phase: .milliseconds(7)))
        script.frame(2, 1, at: Self.time(1, fps: 20, phase: .milliseconds(3)))
        script.frame(0, 2, at: Self.time(2, fps: 30))
        script.frame(1, 2, at: Self.time(2, fps: 25, phase: .milliseconds(7)))
        script.frame(0, 3, at: Self.time(3, fps: 30))
        script.frame(2, 2, at: Self.time(2, fps: 20, phase: .milliseconds(3)))
        #expect(script.lines == [
            "disabled: no frame from b yet",
            "disabled: no frame from b yet",
            "enabled a#0@0 b#0@7 c#0@3 (7 ms)",
            "enabled a#0@0 b#0@7 c#0@3 (7 ms)",               // a1 is 30.3 ms after c0
            "enabled a#0@0 b#0@7 c#0@3 (7 ms)",               // no frame of c after a1 yet
            "enabled a#1@33.3 b#1@47 c#1@53 (19.7 ms)",
            "enabled a#2@66.7 b#1@47 c#1@53 (19.7 ms)",
            "enabled a#2@66.7 b#1@47 c#1@53 (19.7 ms)",       // b2 is 34 ms after c1
            "enabled a#2@66.7 b#1@47 c#1@53 (19.7 ms)",
            "enabled a#3@100 b#2@87 c#2@103 (16 ms)",
        ])
    }
}

extension RigShutterMachineTests {
    // MARK: - The tolerance

    /// Two cameras at 25 fps (tolerance 20 ms), the right one 21 ms late: its first frame is 21 ms
    /// after the left one, just over; the next left frame comes 19 ms after it, just under.
    @Test func aTimeDifferenceJustOverAndJustUnderTheTolerance() throws {
        let configuration = try RigShutterMachine.Configuration(cameras: [Self.camera("left", fps: 25), Self.camera("right", fps: 25)])
        var script = Script(configuration)
        script.frame(0, 0, at: Self.time(0, fps: 25))
        script.frame(1, 0, at: Self.time(0, fps: 25, phase: .milliseconds(21)))
        script.frame(0, 1, at: Self.time(1, fps: 25))
        #expect(script.lines == [
            "disabled: no frame from right yet",
            "disabled: frames 21 ms apart",
            "enabled left#1@40 right#0@21 (19 ms)",
        ])
    }

    /// A tolerance given: a difference equal to it passes, one a microsecond more does not.
    @Test func aTimeDifferenceEqualToTheTolerancePasses() throws {
        let cameras = [try Self.camera("left", fps: 30), try Self.camera("right", fps: 30)]
        for (difference, expected) in [(Duration.milliseconds(5), "enabled left#0@0 right#0@5 (5 ms)"),
                                       (.microseconds(5001), "disabled: frames 5 ms apart")] {
            var script = Script(try RigShutterMachine.Configuration(cameras: cameras, syncTolerance: .milliseconds(5)))
            script.frame(0, 0, at: FrameTime(.zero))
            script.frame(1, 0, at: FrameTime(difference))
            #expect(script.lines == ["disabled: no frame from right yet", expected])
        }
    }

    // MARK: - Holds

    /// Both at 25 fps in phase: the left camera loses the board for two frames (the rig keeps the
    /// set of its last valid frame), finds it, then loses it for good: the rig is disabled at the
    /// first frame after its 0.3 s hold ran out (500 ms, 300 ms after its first invalid frame).
    @Test func oneCameraFlickeringWithinTheHold() throws {
        let configuration = try RigShutterMachine.Configuration(cameras: [Self.camera("left", fps: 25), Self.camera("right", fps: 25)])
        var script = Script(configuration)
        let left = "VV..V........."  // frames 0 to 13, 40 ms apart: lost from frame 5 (200 ms)
        for (index, mark) in left.enumerated() {
            script.frame(0, index, at: Self.time(index, fps: 25), valid: mark == "V")
            script.frame(1, index, at: Self.time(index, fps: 25))
        }
        let first = "enabled left#1@40 right#1@40 (0 ms)"
        let second = "enabled left#4@160 right#4@160 (0 ms)"
        #expect(script.lines == [
            "disabled: no frame from right yet", "enabled left#0@0 right#0@0 (0 ms)",
            "enabled left#0@0 right#0@0 (0 ms)", first,
            first, first, first, first,   // frames 2 and 3: left held from 80 ms
            first,                        // left's frame 4 is 40 ms after right's frame 3: the older set stays
            second,
        ] + Array(repeating: second, count: 16)  // frames 5 to 12: left held from 200 ms
          + ["disabled: left does not see the board", "disabled: left does not see the board"])  // 520 ms
    }

    /// The hold runs out by time alone: with no frame at all, `advance` disables the rig at the
    /// held camera's deadline, not a nanosecond before.
    @Test func aHoldRunsOutWithoutFrames() throws {
        let cameras = [try Self.camera("left", fps: 25), try Self.camera("right", fps: 25)]
        var script = Script(try RigShutterMachine.Configuration(cameras: cameras, stallIntervals: 100))
        script.frame(0, 0, at: FrameTime(.zero))
        script.frame(1, 0, at: FrameTime(.zero))
        script.frame(0, 1, at: FrameTime(.milliseconds(40)), valid: false)
        script.frame(1, 1, at: FrameTime(.milliseconds(40)))
        #expect(script.machine.nextDeadline == FrameTime(.milliseconds(340)))
        script.advance(to: FrameTime(.milliseconds(340) - .nanoseconds(1)))
        script.advance(to: FrameTime(.milliseconds(340)))
        // The right camera's frames stopped at 40 ms too: its hold ends at 340 ms as well.
        #expect(Array(script.lines.suffix(2)) == ["enabled left#0@0 right#0@0 (0 ms)", "disabled: left and right do not see the board"])
    }

    // MARK: - Motion

    /// The right camera's board moves 3.4 px a frame, then stops: refused while it moves (the limit
    /// is 0.5 px/frame), enabled from the first frame after it stopped.
    @Test func aMovingBoard() throws {
        let configuration = try RigShutterMachine.Configuration(cameras: [Self.camera("left", fps: 30), Self.camera("right", fps: 30)])
        var script = Script(configuration)
        let rightX: [Double] = [100, 103.4, 106.8, 110.2, 110.2, 110.3]
        for (index, x) in rightX.enumerated() {
            script.frame(0, index, at: Self.time(index, fps: 30), motion: .corners(Self.corners(x: 50)))
            script.frame(1, index, at: Self.time(index, fps: 30, phase: .milliseconds(2)), motion: .corners(Self.corners(x: x)))
        }
        #expect(script.lines == [
            "disabled: no frame from right yet", "disabled: board motion unknown in left",
            "disabled: board motion unknown in left", "disabled: board moving 3.4 px/frame in right",
            "disabled: board moving 3.4 px/frame in right", "disabled: board moving 3.4 px/frame in right",
            "disabled: board moving 3.4 px/frame in right", "disabled: board moving 3.4 px/frame in right",
            "disabled: board moving 3.4 px/frame in right", "enabled left#4@133.3 right#4@135.3 (2 ms)",
            "enabled left#4@133.3 right#4@135.3 (2 ms)", "enabled left#5@166.7 right#5@168.7 (2 ms)",
        ])
    }

    /// Motion is in pixels per frame interval: a corner that moved 2 px over two intervals (a frame
    /// dropped between) moved 1 px/frame; only the corners both frames share count.
    @Test func motionIsMeasuredPerFrameIntervalOnSharedCorners() throws {
        let cameras = [try Self.camera("left", fps: 25), try Self.camera("right", fps: 25)]
        var script = Script(try RigShutterMachine.Configuration(cameras: cameras, maxMotion: .pixelsPerFrame(0.9)))
        let first = [BoardCorner(id: 0, point: ImagePoint(x: 10, y: 10)), BoardCorner(id: 1, point: ImagePoint(x: 60, y: 10))]
        let second = [BoardCorner(id: 1, point: ImagePoint(x: 60, y: 12)), BoardCorner(id: 2, point: ImagePoint(x: 500, y: 500))]
        script.frame(0, 0, at: FrameTime(.zero))
        script.frame(1, 0, at: FrameTime(.zero), motion: .corners(first))
        script.frame(0, 2, at: FrameTime(.milliseconds(80)))
        script.frame(1, 2, at: FrameTime(.milliseconds(80)), motion: .corners(second))
        #expect(script.lines.last == "disabled: board moving 1.0 px/frame in right")
        script.frame(1, 3, at: FrameTime(.milliseconds(120)), motion: .corners(second))
        script.frame(0, 3, at: FrameTime(.milliseconds(120)))
        #expect(script.lines.last == "enabled left#3@120 right#3@120 (0 ms)")
    }

    /// `--max-motion off`: a moving board does not matter (a rig triggered in hardware).
    @Test func motionOff() throws {
        let cameras = [try Self.camera("left", fps: 30), try Self.camera("right", fps: 30)]
        var script = Script(try RigShutterMachine.Configuration(cameras: cameras, maxMotion: .off))
        #expect(script.machine.configuration.maxMotion == nil)
        script.frame(0, 0, at: FrameTime(.zero), motion: .unknown)
        script.frame(1, 0, at: FrameTime(.zero), motion: .pixelsPerFrame(40))
        #expect(script.lines == ["disabled: no frame from right yet", "enabled left#0@0 right#0@0 (0 ms)"])
    }

    // MARK: - Faults

    /// The right camera stops after 120 ms (stall: 3 intervals here, 120 ms at 25 fps): the rig is
    /// disabled as soon as more than 120 ms passed without its frame, though its hold would last
    /// until 420 ms, and its frames bring it back.
    @Test func aStalledCamera() throws {
        let configuration = try RigShutterMachine.Configuration(cameras: [Self.camera("left", fps: 25), Self.camera("right", fps: 25)],
                                                                stallIntervals: 3)
        var script = Script(configuration)
        for index in 0...3 {
            script.frame(0, index, at: Self.time(index, fps: 25))
            script.frame(1, index, at: Self.time(index, fps: 25))
        }
        script.frame(0, 4, at: Self.time(4, fps: 25))
        script.frame(0, 5, at: Self.time(5, fps: 25))
        script.frame(0, 6, at: Self.time(6, fps: 25))  // 240 ms: 120 ms since right's last frame, not more
        #expect(script.machine.nextDeadline == FrameTime(.milliseconds(240)))
        script.advance(to: FrameTime(.milliseconds(250)))
        #expect(script.machine.state.cameras == [.enabled, .stalled])
        script.frame(0, 7, at: Self.time(7, fps: 25))
        script.frame(1, 7, at: Self.time(7, fps: 25))
        #expect(Array(script.lines.suffix(6)) == [
            "enabled left#3@120 right#3@120 (0 ms)", "enabled left#3@120 right#3@120 (0 ms)",
            "enabled left#3@120 right#3@120 (0 ms)",
            "disabled: right stalled: no frame for 130 ms",
            "disabled: right stalled: no frame for 160 ms",
            "enabled left#7@280 right#7@280 (0 ms)",
        ])
    }

    /// A frame of the right camera arrives saying two frames were lost before it: the rig is
    /// disabled at that arrival, whatever the right camera's hold, and stays so while its frames
    /// still come with frames lost before them; the next that comes with none lost brings it back.
    /// With two of three cameras required, the other two go on.
    @Test func aCameraDroppingFrames() throws {
        let configuration = try RigShutterMachine.Configuration(cameras: [Self.camera("left", fps: 30), Self.camera("right", fps: 30)])
        var script = Script(configuration)
        for index in 0...1 {
            script.arrive(0, at: Self.time(index, fps: 30))
            script.arrive(1, at: Self.time(index, fps: 30))
            script.frame(0, index, at: Self.time(index, fps: 30))
            script.frame(1, index, at: Self.time(index, fps: 30))
        }
        script.arrive(0, at: Self.time(4, fps: 30))
        script.arrive(1, at: Self.time(4, fps: 30), dropped: 2)
        script.frame(0, 2, at: Self.time(4, fps: 30))
        script.frame(1, 2, at: Self.time(4, fps: 30))
        script.arrive(0, at: Self.time(5, fps: 30))
        script.arrive(1, at: Self.time(5, fps: 30), dropped: 1)
        script.frame(0, 3, at: Self.time(5, fps: 30))
        script.frame(1, 3, at: Self.time(5, fps: 30))
        #expect(script.machine.state.cameras == [.enabled, .enabled], "a camera dropping frames is neither stalled nor blind")
        script.arrive(0, at: Self.time(6, fps: 30))
        script.arrive(1, at: Self.time(6, fps: 30))
        script.frame(0, 4, at: Self.time(6, fps: 30))
        script.frame(1, 4, at: Self.time(6, fps: 30))
        // From left's arrival at 133.3 ms: each arrival and frame of both cameras, in that order.
        #expect(Array(script.lines.suffix(12)) == [
            "enabled left#1@33.3 right#1@33.3 (0 ms)",
            "disabled: right dropped 2 frames", "disabled: right dropped 2 frames", "disabled: right dropped 2 frames",
            "disabled: right dropped 2 frames",
            "disabled: right dropped a frame", "disabled: right dropped a frame", "disabled: right dropped a frame",
            "disabled: right dropped a frame",
            "enabled left#3@166.7 right#3@166.7 (0 ms)", "enabled left#3@166.7 right#3@166.7 (0 ms)",
            "enabled left#4@200 right#4@200 (0 ms)",
        ])

        let cameras = [try Self.camera("a", fps: 30), try Self.camera("b", fps: 30), try Self.camera("c", fps: 30)]
        var two = Script(try RigShutterMachine.Configuration(cameras: cameras, require: .atLeast(2)))
        for camera in 0...2 { two.frame(camera, 0, at: FrameTime(.zero)) }
        for camera in 0...2 { two.arrive(camera, at: Self.time(1, fps: 30), dropped: camera == 2 ? 3 : 0) }
        for camera in 0...2 { two.frame(camera, 1, at: Self.time(1, fps: 30)) }
        #expect(two.lines.last == "enabled a#1@33.3 b#1@33.3 (0 ms)")
    }

    /// Three cameras, two required: one that stalls or is lost leaves the other two, and the rig
    /// goes on; all required, a lost camera disables it for good.
    @Test func aStalledOrLostCameraUnderARequirement() throws {
        let cameras = [try Self.camera("a", fps: 30), try Self.camera("b", fps: 30), try Self.camera("c", fps: 30)]
        var two = Script(try RigShutterMachine.Configuration(cameras: cameras, require: .atLeast(2), stallIntervals: 3))
        var all = Script(try RigShutterMachine.Configuration(cameras: cameras))
        for index in 0...1 {
            for camera in 0...2 {
                two.frame(camera, index, at: Self.time(index, fps: 30))
                all.frame(camera, index, at: Self.time(index, fps: 30))
            }
        }
        for index in 2...5 {
            two.frame(0, index, at: Self.time(index, fps: 30))
            two.frame(1, index, at: Self.time(index, fps: 30))
        }
        #expect(two.lines.last == "enabled a#5@166.7 b#5@166.7 (0 ms)")
        #expect(two.machine.state.cameras == [.enabled, .enabled, .stalled])
        two.lose(1)
        #expect(two.lines.last == "disabled: b is gone")
        #expect(two.machine.canMeetRequirement)  // a and c are left: c stalled, but it may come back
        two.lose(0)
        #expect(!two.machine.canMeetRequirement)
        all.lose(2)
        #expect(all.lines.last == "disabled: c is gone")
        #expect(!all.machine.canMeetRequirement)
        #expect(all.machine.lostCameras == ["c"])
    }

    /// Three cameras, one that never sees the board: refused under `all`, a set of two under `2`.
    @Test func aRequirementOfTwoCameras() throws {
        let cameras = [try Self.camera("left", fps: 30), try Self.camera("right", fps: 30), try Self.camera("top", fps: 30)]
        var all = Script(try RigShutterMachine.Configuration(cameras: cameras))
        var two = Script(try RigShutterMachine.Configuration(cameras: cameras, require: .atLeast(2), stallIntervals: 3))
        for camera in 0...2 {
            all.frame(camera, 0, at: FrameTime(.zero), valid: camera != 2)
            two.frame(camera, 0, at: FrameTime(.zero), valid: camera != 2)
        }
        #expect(all.lines.last == "disabled: top does not see the board")
        #expect(two.lines.last == "enabled left#0@0 right#0@0 (0 ms)")
        var none = Script(try RigShutterMachine.Configuration(cameras: cameras))
        for camera in 0...2 { none.frame(camera, 0, at: FrameTime(.zero), valid: false) }
        #expect(none.lines.last == "disabled: left, right and top do not see the board")
    }

    /// A frame whose timestamp goes back on its camera's clock is counted and changes nothing.
    @Test func aFrameGoingBackIsDropped() throws {
        var script = Script(try RigShutterMachine.Configuration(cameras: [Self.camera("l", fps: 30), Self.camera("r", fps: 30)]))
        script.frame(0, 0, at: FrameTime(.milliseconds(10)))
        script.frame(1, 0, at: FrameTime(.milliseconds(10)))
        script.frame(0, 1, at: FrameTime(.milliseconds(5)))
        #expect(script.machine.framesOutOfOrder == [1, 0])
        #expect(script.lines.last == "enabled l#0@10 r#0@10 (0 ms)")
    }

    // MARK: - Configuration

    /// A stall takes 5 frame intervals unless told: 200 ms at 25 fps.
    @Test func theDefaultStall() throws {
        let configuration = try RigShutterMachine.Configuration(cameras: [Self.camera("l", fps: 25), Self.camera("r", fps: 25)])
        #expect(configuration.stallLimit(of: 1) == .milliseconds(200))
        var script = Script(configuration)
        script.frame(0, 0, at: FrameTime(.zero))
        script.frame(1, 0, at: FrameTime(.zero))
        script.advance(to: FrameTime(.milliseconds(200)))
        _ = script.machine.arrived(camera: 0, at: FrameTime(.milliseconds(201)))
        script.lines.append(script.describe(script.machine.state))
        #expect(Array(script.lines.suffix(2)) == ["enabled l#0@0 r#0@0 (0 ms)", "disabled: r stalled: no frame for 201 ms"])
    }

    @Test func camerasAndRulesOutOfRangeAreRefused() throws {
        let left = try Self.camera("left", fps: 30)
        let right = try Self.camera("right", fps: 25)
        #expect(throws: RigConfigurationError("a rig has 2 to 8 cameras, not 1")) { try RigShutterMachine.Configuration(cameras: [left]) }
        #expect(throws: RigConfigurationError("two cameras are named \"left\": each camera needs its own name")) {
            try RigShutterMachine.Configuration(cameras: [left, left])
        }
        #expect(throws: RigConfigurationError("--require takes all or a number from 2 to 2 (the cameras given), not 3")) {
            try RigShutterMachine.Configuration(cameras: [left, right], require: .atLeast(3))
        }
        #expect(throws: RigConfigurationError("--max-motion takes a number of pixels per frame more than 0, or off")) {
            try RigShutterMachine.Configuration(cameras: [left, right], maxMotion: .pixelsPerFrame(0))
        }
        // 30 and 25 fps: tolerance 20 ms; limit 0.25 x 33.3 ms / 20 ms.
        let configuration = try RigShutterMachine.Configuration(cameras: [left, right])
        #expect(abs(configuration.maxMotion! - 0.25 / 30 / 0.02) < 1e-12)
    }

    @Test(arguments: ["left", "cam-0", "A_1", String(repeating: "x", count: 32)])
    func cameraNamesThatAreAllowed(name: String) throws {
        #expect(try RigCamera(name: name, frameInterval: .milliseconds(33)).name == name)
    }

    @Test(arguments: [
        ("", "camera name \"\" is empty: a camera's name has 1 to 32 characters"),
        (String(repeating: "x", count: 33), "camera name \"\(String(repeating: "x", count: 33))\" has 33 characters, more than the 32 a camera's name may have"),
        ("left/right", "camera name \"left/right\" may hold only letters, digits, \"-\" and \"_\""),
        ("..", "camera name \"..\" may hold only letters, digits, \"-\" and \"_\""),
        ("gauche é", "camera name \"gauche é\" may hold only letters, digits, \"-\" and \"_\""),
    ])
    func cameraNamesThatAreRefused(name: String, message: String) {
        #expect(throws: RigCameraNameError.self) { try RigCamera(name: name, frameInterval: .milliseconds(33)) }
        do {
            _ = try RigCamera(name: name, frameInterval: .milliseconds(33))
        } catch {
            #expect("\(error)" == message)
        }
    }
}

extension RigShutterMachineTests {
    /// A lost camera stays lost: its last frames, detected after the loss, change nothing.
    @Test func aLostCameraStaysLost() throws {
        var script = Script(try RigShutterMachine.Configuration(cameras: [Self.camera("l", fps: 25), Self.camera("r", fps: 25)]))
        script.frame(0, 0, at: FrameTime(.zero))
        script.frame(1, 0, at: FrameTime(.zero))
        script.lose(1)
        script.frame(1, 1, at: FrameTime(.milliseconds(40)))
        script.frame(0, 1, at: FrameTime(.milliseconds(40)))
        #expect(script.lines == ["disabled: no frame from r yet", "enabled l#0@0 r#0@0 (0 ms)", "disabled: r is gone",
                                 "disabled: r is gone", "disabled: r is gone"])
        #expect(script.machine.lostCameras == ["r"])
    }

    /// Detection running behind the cameras is no stall and ends no hold: `advanceArrivals` judges
    /// stalls alone, `advance` holds too.
    @Test func arrivalsAheadOfDetection() throws {
        var script = Script(try RigShutterMachine.Configuration(cameras: [Self.camera("l", fps: 25), Self.camera("r", fps: 25)]))
        script.frame(0, 0, at: FrameTime(.zero))
        script.frame(1, 0, at: FrameTime(.zero))
        for index in 1...10 {  // frames arrive up to 400 ms; detection is still at 0 ms
            _ = script.machine.arrived(camera: 0, at: Self.time(index, fps: 25))
            _ = script.machine.arrived(camera: 1, at: Self.time(index, fps: 25))
        }
        #expect(script.machine.state.isEnabled)
        script.lines.append(script.describe(script.machine.advanceArrivals(to: FrameTime(.milliseconds(500))).state))
        script.advance(to: FrameTime(.milliseconds(500)))
        #expect(Array(script.lines.suffix(2)) == ["enabled l#0@0 r#0@0 (0 ms)", "disabled: l and r do not see the board"])
    }
}
