import MarkerDetection
@testable import MarkerShutter
import Pixels
import Testing

/// The session's decisions for a rig of several cameras, driven by hand as ``LiveSessionMachineTests``
/// drives one camera: no thread, task, lock or clock. Camera `c`'s frame `i` is stamped `i/30 s +
/// c x 5 ms` and arrives on the session clock 1 s later; the clock is ticked by hand.
@Suite struct LiveSessionMachineRigTests {
    static let names = ["left", "right", "top", "bottom"]

    /// Camera `camera`'s frame `index`'s timestamp.
    static func time(_ camera: Int, _ index: Int) -> FrameTime { FrameTime(.seconds(index) / 30 + .milliseconds(5 * camera)) }
    /// When that frame arrives, on the session clock.
    static func arrival(_ camera: Int, _ index: Int) -> Duration { .seconds(1) + time(camera, index).offset }

    /// A machine for a rig of `count` cameras at 30 fps, motion off.
    static func machine(cameras count: Int, require: RigRequirement = .all, automatic: Bool = false) throws -> LiveSessionMachine {
        let cameras = try names.prefix(count).map { try RigCamera(name: $0, frameInterval: .seconds(1) / 30) }
        let rig = try RigShutterMachine.Configuration(cameras: cameras, require: require, maxMotion: .off)
        return LiveSessionMachine(configuration: rig, automatic: automatic)
    }

    /// Feeds the machine, ticks its clock and keeps every action as a line.
    struct Script {
        var machine: LiveSessionMachine
        var actions: [LiveSessionMachine.Action] = []
        let pixels: PixelBuffer

        init(_ machine: LiveSessionMachine) throws {
            self.machine = machine
            pixels = try PixelBuffer(width: 4, height: 4, format: .gray8)
        }

        /// Camera `camera`'s frame `index` arrives and is detected, valid or not.
        mutating func frame(_ camera: Int, _ index: Int, valid: Bool = true) {
            let time = LiveSessionMachineRigTests.time(camera, index)
            let arrival = machine.receive(SourceFrame(pixels: pixels, time: time), camera: camera,
                                          at: LiveSessionMachineRigTests.arrival(camera, index))
            actions += arrival.actions
            let detection = valid ? LiveSessionMachineTests.grid(x: 240, y: 180) : LiveSessionMachineTests.nothing
            let observation = FrameObservation(index: arrival.index, time: time, sequence: nil, file: nil, detection: detection,
                                               rule: LiveSessionMachineTests.rule, pixels: pixels)
            actions += machine.detected(observation, camera: camera, pixels: pixels, arrivedAt: LiveSessionMachineRigTests.arrival(camera, index),
                                        latency: .milliseconds(5))
        }

        /// Every camera in `cameras` delivers frames `range`, in time order.
        mutating func frames(_ range: ClosedRange<Int>, cameras: [Int], valid: Bool = true) {
            for index in range {
                for camera in cameras { frame(camera, index, valid: valid) }
            }
        }

        /// Ticks the clock at every deadline the machine gives up to `end` (session clock), as the
        /// session's clock task does.
        mutating func tick(until end: Duration) {
            while let due = machine.clockDeadline, due <= end { actions += machine.tick(at: due) }
        }

        /// The cameras' conditions told, as `camera condition` lines.
        var conditions: [String] {
            actions.compactMap { action in
                guard case .camera(let camera, let condition) = action else { return nil }
                let name = LiveSessionMachineRigTests.names[camera]
                switch condition {
                case .stalled: return "\(name) stalled"
                case .back: return "\(name) back"
                case .lost: return "\(name) lost"
                }
            }
        }

        /// Whether any action stopped the sources.
        var stopped: Bool { actions.contains { if case .stopSources = $0 { true } else { false } } }
    }

    /// One camera of four stalls for 2.5 s while the others go on: the session goes on, the camera
    /// is told stalled once and back once, the rig is disabled naming it meanwhile and enabled
    /// again once its frames return; the rig's lines a terminal prints (one per change of kind) are few.
    @Test func aStallNeverEndsTheSessionAndIsToldOncePerChange() throws {
        var script = try Script(Self.machine(cameras: 4))
        script.frames(0...9, cameras: [0, 1, 2, 3])
        #expect(script.machine.rigState.isEnabled)
        let before = script.actions.count
        // Camera 3 stops; the others deliver frames 10...84 (2.5 s), the clock ticked between frames.
        for index in 10...84 {
            script.frames(index...index, cameras: [0, 1, 2])
            script.tick(until: Self.arrival(0, index))
        }
        #expect(!script.machine.rigState.isEnabled)
        #expect(script.machine.rigState.refusal?.kind == .stalled(camera: "bottom", for: .zero), "\(script.machine.rigState)")
        #expect(script.machine.rigState.cameras[3] == .stalled)
        // Its frames come again.
        script.frames(85...95, cameras: [0, 1, 2, 3])
        #expect(script.machine.rigState.isEnabled, "\(script.machine.rigState)")
        #expect(script.conditions == ["bottom stalled", "bottom back"])
        #expect(!script.stopped, "a stall never ends the session")
        #expect(script.machine.stopReason == nil)
        // The stall's length grows with every frame of the others, but it is one change: three in
        // all, disabled by the stall, not seeing while its first frame back is detected, enabled again.
        var kinds: [String] = []
        for action in script.actions.dropFirst(before) {
            let state: RigState
            switch action {
            case .rigChanged(let changed): state = changed
            case .frame(let report, _, _) where report.rigChanged: state = report.rig!
            default: continue
            }
            let kind = state.refusal.map { "\($0.kind)" } ?? "enabled"
            if kinds.last != kind { kinds.append(kind) }
        }
        #expect(kinds == ["bottom stalled: no frame for 0 ms", "bottom does not see the board", "enabled"], "\(kinds)")
        let changes = script.actions.dropFirst(before).filter { action in
            switch action {
            case .rigChanged: true
            case .frame(let report, _, _): report.rigChanged
            default: false
            }
        }
        #expect(changes.count == 3, "\(changes)")
    }

    /// A camera that is gone ends a rig that needs every camera, with the reason; a rig that needs
    /// two of three goes on without it.
    @Test func aLostCameraEndsOnlyARigThatNeedsIt() throws {
        var all = try Script(Self.machine(cameras: 2))
        all.frames(0...3, cameras: [0, 1])
        all.actions += all.machine.lose(camera: 1, reason: "right: unplugged")
        #expect(all.conditions == ["right lost"])
        #expect(all.stopped)
        #expect(all.machine.stopReason == "right is gone: the rig needs all its cameras, 1 left")

        var two = try Script(Self.machine(cameras: 3, require: .atLeast(2)))
        two.frames(0...3, cameras: [0, 1, 2])
        two.actions += two.machine.lose(camera: 2, reason: "top: unplugged")
        #expect(!two.stopped)
        two.frames(4...6, cameras: [0, 1])
        #expect(two.machine.rigState.isEnabled, "\(two.machine.rigState)")
        #expect(two.machine.lostCameras == ["top"])
    }

    /// A set asked for takes one frame per camera, as close in time as the rig has them; one asked
    /// for while a camera does not see the board is refused in the rig's words.
    @Test func aSetTakesEachCamerasFrameOrIsRefusedInTheRigsWords() throws {
        var script = try Script(Self.machine(cameras: 2))
        script.frames(0...2, cameras: [0, 1])
        let taken = script.machine.capture()
        guard case .save(let picture) = taken.last else {
            Issue.record("no set taken: \(taken)")
            return
        }
        #expect(picture.members.map(\.camera) == [0, 1])
        #expect(picture.members.map(\.observation.index) == [2, 2])
        script.machine.pictureSaved()
        // The right camera loses the board for longer than its hold.
        for index in 3...15 {
            script.frame(0, index)
            script.frame(1, index, valid: false)
        }
        guard case .refuse(let error) = script.machine.capture().last else {
            Issue.record("a set was taken while right does not see the board")
            return
        }
        #expect(error == .rigDisabled(.notSeeing(["right"])))
        #expect("\(error)" == "right does not see the board")
        #expect(script.machine.pictures == LiveSummary.Pictures(saved: 1, refused: 1))
    }

    /// `--auto` takes a set when the frame that completes it shows a new view, and not the same view again.
    @Test func autoTakesASetOfANewView() throws {
        var script = try Script(Self.machine(cameras: 2, automatic: true))
        script.frames(0...4, cameras: [0, 1])
        let saves = script.actions.compactMap { action -> [Int]? in
            guard case .save(let picture) = action else { return nil }
            return picture.members.map(\.observation.index)
        }
        #expect(saves == [[0, 0]])
    }
}
