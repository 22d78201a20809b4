import EmulatedCameraHarness
import Foundation
import Testing

extension LiveTests {
    /// Each rig camera's own settings: camera controls and the camera's format. `--exposure`,
    /// `--focus`, `--control` and `--lock` apply to every camera, and `--camera-option NAME:...`
    /// gives one camera its own (`exposure=auto`, `lock`, any control by its `v4l2-ctl` name,
    /// `format=MJPG`). Each camera keeps its values in a file, as a driver keeps them, so
    /// `v4l2-ctl` in a process of its own reads what `live` set on each.
    @Suite struct LiveRigCameraOptionTests {
        /// A camera sending `formats` at `fps` showing a still board, its control values kept in a file.
        static func addCamera(_ harness: EmulatedCameraHarness, named name: String, fps: Int = 30,
                              formats: [EmulatedCameraConfiguration.Format] = [.mjpeg],
                              settling: [(control: String, value: Int, at: Int)] = []) throws -> EmulatedCamera {
            let frames = harness.directory + "/" + name + "-frames"
            try FileManager.default.createDirectory(atPath: frames, withIntermediateDirectories: true)
            try Data(ScriptedSession.jpeg(of: .board(pose: 2))).write(to: URL(fileURLWithPath: frames + "/" + ScriptedSession.fileName(0)))
            var configuration = EmulatedCameraConfiguration(formats: formats, sizes: [(640, 480)], rates: [fps], framesFolder: frames,
                                                            controlsFile: harness.directory + "/" + name + ".controls")
            configuration.settling = settling
            return try harness.addCamera(configuration, named: name)
        }

        /// The first line of `camera`'s in a rig recording's manifest.
        static func firstManifestLine(_ recording: String, camera: String) throws -> JSONLine? {
            try String(contentsOfFile: recording + "/manifest.jsonl", encoding: .utf8).split(separator: "\n")
                .map { try JSONLine(String($0)) }.first { $0.string("camera") == camera }
        }

        /// The common controls on the left camera; the right one's own exposure (automatic) and
        /// gain replace the common ones, and it takes a control the other does not. The terminal
        /// names each camera's values, `v4l2-ctl` reads them back from each device, and each
        /// camera's sidecar of the set and its first line in the recording carry its own.
        @Test func eachCameraHasItsOwnControls() async throws {
            let harness = try await makeLiveHarness()
            let left = try Self.addCamera(harness, named: "left")
            let right = try Self.addCamera(harness, named: "right", fps: 25)
            let out = harness.directory + "/pictures", recording = harness.directory + "/recording"
            let process = try LiveRigTests.live(harness, [("left", left), ("right", right)], [
                "--out", out, "--record", recording, "--exposure", "40000", "--control", "gain=10",
                "--camera-option", "right:fps=25,exposure=auto,gain=20,brightness=5",
            ])
            try await process.waitForOutput(containing: "rig enabled", on: .standardError, timeout: .seconds(60))
            try await LiveRigTests.captureUntilSaved(process)
            let expected: [String: [String: Int]] = [
                "left": ["exposure_auto": 1, "exposure_absolute": 400, "gain": 10],
                "right": ["exposure_auto": 3, "gain": 20, "brightness": 5],
            ]
            // While it runs, another program reads each camera's values.
            for (name, camera) in [("left", left), ("right", right)] {
                #expect(try await LiveControlTests.v4l2ctl(harness, camera, Array(expected[name]!.keys)) == expected[name]!, "\(name)")
            }
            process.sendLine("quit")
            let result = try await process.wait(timeout: .seconds(30))
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardError.contains("left: camera controls set: exposure_absolute=400, exposure_auto=1, gain=10\n"),
                    "\(result.standardError)")
            #expect(result.standardError.contains("right: camera controls set: brightness=5, exposure_auto=3, gain=20\n"),
                    "\(result.standardError)")
            for name in ["left", "right"] {
                let sidecar = try JSONLine(contentsOf: out + "/\(name)/set_0001.json")
                #expect(sidecar.fields["controls"] as? [String: Int] == expected[name], "\(name): \(sidecar)")
                let line = try #require(try Self.firstManifestLine(recording, camera: name), "no line of \(name)")
                #expect(line.fields["controls"] as? [String: Int] == expected[name], "\(name): \(line)")
            }
        }

        /// `lock` in one camera's option: that camera's automatic modes settle (its exposure and
        /// white balance move ten frames in) and are fixed at what they reached, its gain at its
        /// default; the other camera,
        /// with no lock, keeps its automatic modes and is never told a lock.
        @Test func oneCameraLocksItsAutomaticModes() async throws {
            let harness = try await makeLiveHarness()
            let left = try Self.addCamera(harness, named: "left")
            let right = try Self.addCamera(harness, named: "right",
                                           settling: [("exposure_absolute", 400, 10), ("white_balance_temperature", 5200, 10)])
            let out = harness.directory + "/pictures"
            let process = try LiveRigTests.live(harness, [("left", left), ("right", right)], [
                "--out", out, "--auto", "--stop-after", "60", "--camera-option", "right:lock", "--settle", "0.5",
            ])
            process.closeInput()
            let result = try await process.wait(timeout: .seconds(120))
            #expect(result.status == 0, "\(result.standardError)")
            let locked = [
                "exposure_auto": 1, "exposure_absolute": 400, "white_balance_temperature_auto": 0, "white_balance_temperature": 5200,
                "focus_auto": 0, "focus_absolute": 0, "gain": 64,
            ]
            #expect(result.standardError.contains(
                "right: camera controls locked: exposure_absolute=400, exposure_auto=1, focus_absolute=0, focus_auto=0, gain=64, "
                    + "white_balance_temperature=5200, white_balance_temperature_auto=0\n"), "\(result.standardError)")
            #expect(!result.standardError.contains("left: camera controls"), "\(result.standardError)")
            #expect(try await LiveControlTests.v4l2ctl(harness, right, Array(locked.keys)) == locked)
            #expect(try await LiveControlTests.v4l2ctl(harness, left, ["exposure_auto", "white_balance_temperature_auto"])
                == ["exposure_auto": 3, "white_balance_temperature_auto": 1])
            let sidecar = try JSONLine(contentsOf: out + "/right/set_0001.json")
            #expect(sidecar.fields["controls"] as? [String: Int] == locked, "\(sidecar)")
            #expect(try JSONLine(contentsOf: out + "/left/set_0001.json").fields["controls"] == nil)
        }

        /// A value one camera refuses ends the run before any camera streams: the message names the
        /// camera's device and the value, the camera opened before it is closed again, and neither
        /// the sets' folder nor the recording is left behind.
        @Test func aRefusedValueEndsTheRunBeforeStreaming() async throws {
            let harness = try await makeLiveHarness()
            let left = try Self.addCamera(harness, named: "left")
            let right = try Self.addCamera(harness, named: "right")
            let out = harness.directory + "/pictures", recording = harness.directory + "/recording"
            let result = try await harness.run(harness.markerShutter, [
                "live", "--pattern", ScriptedSession.patternText, "--size", "640x480", "--fps", "30",
                "--camera", "left=\(left.path)", "--camera", "right=\(right.path)", "--out", out, "--record", recording,
                "--camera-option", "right:gain=300",
            ])
            #expect(result.status == 1, "\(result.standardError)")
            #expect(result.standardError.contains("cannot set camera controls: \(right.path): gain=300 is out of range: gain takes 0...255"),
                    "\(result.standardError)")
            #expect(result.standardOutput.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: out), "the sets' folder was left behind")
            #expect(!FileManager.default.fileExists(atPath: recording), "the recording was left behind")
            for camera in [left, right] {
                let log = camera.log()
                #expect(log.contains { $0.hasPrefix("open") } && log.contains { $0.hasPrefix("close") }, "\(log)")
                #expect(!log.contains { $0.hasPrefix("streamon") }, "streamed: \(log)")
            }
        }

        /// Two cameras that send YUYV and MJPEG: the right one asked for MJPEG streams in it
        /// (its banner and its device's log say so), the left one in what libv4l2 chooses, and
        /// the rig takes a set from both.
        @Test func eachCameraStreamsInItsOwnFormat() async throws {
            let harness = try await makeLiveHarness()
            let left = try Self.addCamera(harness, named: "left", formats: [.yuyv, .mjpeg])
            let right = try Self.addCamera(harness, named: "right", formats: [.yuyv, .mjpeg])
            let out = harness.directory + "/pictures"
            let process = try LiveRigTests.live(harness, [("left", left), ("right", right)],
                                                ["--out", out, "--camera-option", "right:format=mjpg"])
            try await process.waitForOutput(containing: "rig enabled", on: .standardError, timeout: .seconds(60))
            try await LiveRigTests.captureUntilSaved(process)
            process.sendLine("quit")
            let result = try await process.wait(timeout: .seconds(30))
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardError.contains("right: camera \(right.path): 640x480 bgr24 at 30.0 fps from MJPG\n"),
                    "\(result.standardError)")
            #expect(result.standardError.contains("left: camera \(left.path): 640x480 bgr24 at 30.0 fps\n"), "\(result.standardError)")
            let formatSet = { (camera: EmulatedCamera) in camera.log().last { $0.hasPrefix("s_fmt ") } ?? "" }
            #expect(formatSet(right).hasPrefix("s_fmt format=MJPG "), "\(right.log())")
            #expect(formatSet(left).hasPrefix("s_fmt format=YUYV "), "\(left.log())")
            #expect(FileManager.default.fileExists(atPath: out + "/right/set_0001.png"))
        }
    }
}
