import EmulatedCameraHarness
import Foundation
import Testing

extension LiveTests {
    /// `live --camera NAME=DEVICE ...`: two and three emulated cameras of different sizes and rates
    /// (each camera starts streaming on its own, so their frames come at their own phases), one
    /// shutter for the set.
    @Suite struct LiveRigTests {
        /// An MJPEG camera of `size` at `fps` showing `shots` over and over.
        static func addCamera(_ harness: EmulatedCameraHarness, named name: String, shots: [ScriptedSession.Shot],
                              size: (width: Int, height: Int) = (640, 480), fps: Int = 30,
                              faults: [EmulatedCameraConfiguration.Fault] = []) throws -> EmulatedCamera {
            let frames = harness.directory + "/" + name + "-frames"
            try FileManager.default.createDirectory(atPath: frames, withIntermediateDirectories: true)
            for (index, shot) in shots.enumerated() {
                try Data(ScriptedSession.jpeg(of: shot)).write(to: URL(fileURLWithPath: frames + "/" + ScriptedSession.fileName(index)))
            }
            let configuration = EmulatedCameraConfiguration(formats: [.mjpeg], sizes: [size], rates: [fps], framesFolder: frames,
                                                            faults: faults)
            return try harness.addCamera(configuration, named: name)
        }

        /// The board standing still in the middle of the picture.
        static let still: [ScriptedSession.Shot] = [.board(pose: 2)]
        /// The board swinging from pose to pose, frame after frame (tens of pixels a frame).
        static let swinging: [ScriptedSession.Shot] = (0..<5).map { .board(pose: $0) }

        /// Asks for a set until one is saved (`set_NNNN.json` on standard output): on a busy machine
        /// the rig may turn disabled for a moment between the line a test waited for and its request.
        static func captureUntilSaved(_ process: HarnessProcess, set: String = "set_0001.json") async throws {
            let deadline = ContinuousClock.now + .seconds(120)
            while true {
                process.sendLine("capture")
                do {
                    try await process.waitForOutput(containing: set, timeout: .seconds(10))
                    return
                } catch where ContinuousClock.now < deadline {
                    continue
                }
            }
        }

        static func live(_ harness: EmulatedCameraHarness, _ cameras: [(String, EmulatedCamera)], _ arguments: [String]) throws -> HarnessProcess {
            try harness.start(harness.markerShutter,
                              ["live", "--pattern", ScriptedSession.patternText, "--size", "640x480", "--fps", "30"]
                                  + cameras.flatMap { ["--camera", "\($0.0)=\($0.1.path)"] } + arguments)
        }

        /// A still board in a 640x480 camera at 30 fps and a 1280x720 one at 25 fps: the rig is
        /// enabled, a set asked for is saved in the rig layout, each camera's frame at its own size
        /// with its own sidecar, and the set's sidecar ties them within the tolerance (20 ms).
        @Test func twoCamerasSeeingAStillBoardTakeASet() async throws {
            let harness = try await makeLiveHarness()
            let left = try Self.addCamera(harness, named: "left", shots: Self.still)
            let right = try Self.addCamera(harness, named: "right", shots: Self.still, size: (1280, 720), fps: 25)
            let out = harness.directory + "/pictures"
            let process = try Self.live(harness, [("left", left), ("right", right)],
                                        ["--camera-option", "right:size=1280x720,fps=25", "--out", out])
            try await process.waitForOutput(containing: "rig enabled", on: .standardError, timeout: .seconds(60))
            try await Self.captureUntilSaved(process)
            process.sendLine("quit")
            let result = try await process.wait(timeout: .seconds(30))
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardError.contains("sync tolerance 20.0 ms, max motion 0.42 px/frame"), "\(result.standardError)")
            #expect(result.standardError.contains("sets: 1 saved, "), "\(result.standardError)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == ["left", "right", "set_0001.json"])
            for camera in ["left", "right"] {
                #expect(try FileManager.default.contentsOfDirectory(atPath: out + "/" + camera).sorted() == ["set_0001.json", "set_0001.png"])
            }
            let set = try JSONLine(contentsOf: out + "/set_0001.json")
            #expect(set.string("set") == "set_0001")
            let difference = try #require(set.double("largest_difference_s"))
            #expect(difference >= 0 && difference <= 0.020)
            #expect(set.double("max_motion_px_per_frame") == 0.417)
            let leftSidecar = try JSONLine(contentsOf: out + "/left/set_0001.json")
            let rightSidecar = try JSONLine(contentsOf: out + "/right/set_0001.json")
            #expect(leftSidecar.int("width") == 640 && leftSidecar.int("height") == 480)
            #expect(rightSidecar.int("width") == 1280 && rightSidecar.int("height") == 720)
            #expect(leftSidecar.string("image") == "set_0001.png" && leftSidecar.bool("valid") == true)
            let times = try [#require(leftSidecar.double("t")), #require(rightSidecar.double("t"))]
            #expect(abs(abs(times[0] - times[1]) - difference) < 2e-6)

            // Each camera's folder is an ordinary picture folder: calibrate reads it alone (and asks
            // for more views than one set gives).
            let calibrated = try await harness.run(harness.markerShutter, ["calibrate", out + "/right", "--out", harness.directory + "/calibration"])
            #expect(calibrated.standardError.contains(out + "/right: stored detections of 1 pictures, target in 1"), "\(calibrated.standardError)")
            #expect(calibrated.standardError.contains("1 usable view, but the pinhole model needs at least 3"), "\(calibrated.standardError)")
        }

        /// `--auto` with a still board: the first set is taken (the first view of each camera), and
        /// no other, for the same view again raises no camera's coverage.
        @Test func automaticSetsRaiseACamerasCoverage() async throws {
            let harness = try await makeLiveHarness()
            let left = try Self.addCamera(harness, named: "left", shots: Self.still)
            let right = try Self.addCamera(harness, named: "right", shots: Self.still, fps: 25)
            let out = harness.directory + "/pictures"
            let process = try Self.live(harness, [("left", left), ("right", right)],
                                        ["--camera-option", "right:fps=25", "--out", out, "--auto", "--stop-after", "150"])
            process.closeInput()
            let result = try await process.wait(timeout: .seconds(120))
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardError.contains("stopped: 150 frames"), "\(result.standardError)")
            #expect(result.standardError.contains("sets: 1 saved, 0 refused"), "\(result.standardError)")
            #expect(result.standardOutput.hasPrefix(out + "/set_0001.json (") && result.standardOutput.hasSuffix(", auto)\n"),
                    "\(result.standardOutput)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == ["left", "right", "set_0001.json"])
        }

        /// The board swings tens of pixels a frame: the rig stays disabled and a set asked for is
        /// refused in so many words; `--max-motion off` (a rig triggered in hardware) takes it.
        @Test func aMovingBoardIsRefusedUnlessMotionIsOff() async throws {
            let harness = try await makeLiveHarness()
            let left = try Self.addCamera(harness, named: "left", shots: Self.swinging)
            let right = try Self.addCamera(harness, named: "right", shots: Self.swinging, fps: 25)
            let out = harness.directory + "/pictures"
            let process = try Self.live(harness, [("left", left), ("right", right)], ["--camera-option", "right:fps=25", "--out", out])
            try await process.waitForOutput(containing: "rig disabled: board moving", on: .standardError, timeout: .seconds(60))
            process.sendLine("capture")
            try await process.waitForOutput(containing: "no set taken: board moving", on: .standardError, timeout: .seconds(30))
            process.sendLine("quit")
            let result = try await process.wait(timeout: .seconds(30))
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardError.contains("sets: 0 saved, 1 refused"), "\(result.standardError)")
            #expect(result.standardOutput.isEmpty, "\(result.standardOutput)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: out).isEmpty)

            let off = try Self.live(harness, [("left", left), ("right", right)],
                                    ["--camera-option", "right:fps=25", "--out", out, "--max-motion", "off"])
            try await off.waitForOutput(containing: "rig enabled", on: .standardError, timeout: .seconds(60))
            try await Self.captureUntilSaved(off)
            off.sendLine("quit")
            let taken = try await off.wait(timeout: .seconds(30))
            #expect(taken.status == 0, "\(taken.standardError)")
            #expect(try JSONLine(contentsOf: out + "/set_0001.json").double("max_motion_px_per_frame") == nil)
        }

        /// Three cameras, one of which never sees the board: `--require all` refuses and names it;
        /// `--require 2` takes the set of the other two.
        @Test func threeCamerasAndTheRequirement() async throws {
            let harness = try await makeLiveHarness()
            let a = try Self.addCamera(harness, named: "a", shots: Self.still)
            let b = try Self.addCamera(harness, named: "b", shots: Self.still, size: (1280, 720), fps: 25)
            let c = try Self.addCamera(harness, named: "c", shots: [.empty])
            let cameras = [("a", a), ("b", b), ("c", c)]
            let out = harness.directory + "/pictures"
            let all = try Self.live(harness, cameras, ["--camera-option", "b:size=1280x720,fps=25", "--out", out])
            try await all.waitForOutput(containing: "rig disabled: c does not see the board", on: .standardError, timeout: .seconds(60))
            all.sendLine("capture")
            try await all.waitForOutput(containing: "no set taken: c does not see the board", on: .standardError, timeout: .seconds(30))
            all.sendLine("quit")
            #expect(try await all.wait(timeout: .seconds(30)).status == 0)

            let two = try Self.live(harness, cameras, ["--camera-option", "b:size=1280x720,fps=25", "--out", out, "--require", "2"])
            try await two.waitForOutput(containing: "rig enabled", on: .standardError, timeout: .seconds(60))
            try await Self.captureUntilSaved(two)
            two.sendLine("quit")
            let result = try await two.wait(timeout: .seconds(30))
            #expect(result.status == 0, "\(result.standardError)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == ["a", "b", "set_0001.json"])
        }

        /// A camera unplugged mid-run: under `--require all` the session stops at once with status 1
        /// and says which camera and why; every set saved before is whole. Under `--require 2` of
        /// three, the session goes on and the summary names the camera lost.
        @Test func anUnpluggedCamera() async throws {
            let harness = try await makeLiveHarness()
            let left = try Self.addCamera(harness, named: "left", shots: Self.still)
            let right = try Self.addCamera(harness, named: "right", shots: Self.still, faults: [.enodev(at: 60)])
            let out = harness.directory + "/pictures"
            let process = try Self.live(harness, [("left", left), ("right", right)], ["--out", out])
            process.closeInput()
            let result = try await process.wait(timeout: .seconds(60))
            #expect(result.status == 1, "\(result.standardError)")
            #expect(result.standardError.contains("camera right lost: "), "\(result.standardError)")
            #expect(result.standardError.contains("right is gone: the rig needs all its cameras, 1 left"), "\(result.standardError)")
            #expect(result.standardError.contains("cameras lost: right"), "\(result.standardError)")

            let third = try Self.addCamera(harness, named: "third", shots: Self.still)
            let unplugged = try Self.addCamera(harness, named: "unplugged", shots: Self.still, faults: [.enodev(at: 30)])
            let going = try Self.live(harness, [("left", left), ("third", third), ("gone", unplugged)], ["--out", out, "--require", "2"])
            try await going.waitForOutput(containing: "camera gone lost: ", on: .standardError, timeout: .seconds(60))
            try await Self.captureUntilSaved(going)
            going.sendLine("quit")
            let after = try await going.wait(timeout: .seconds(30))
            #expect(after.status == 0, "\(after.standardError)")
            #expect(after.standardError.contains("stopped: quit"), "\(after.standardError)")
            #expect(after.standardError.contains("cameras lost: gone"), "\(after.standardError)")
            let set = try String(contentsOfFile: out + "/set_0001.json", encoding: .utf8)
            #expect(set.contains("\"name\":\"left\"") && set.contains("\"name\":\"third\"") && !set.contains("\"name\":\"gone\""))
        }
    }
}
