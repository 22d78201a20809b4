import EmulatedCameraHarness
import Foundation
import Testing

extension LiveTests {
    /// `live --exposure/--focus/--control/--lock`: the controls are set before frames flow, recorded
    /// in each picture's sidecar and on the manifest's first line as the camera reads them back,
    /// `v4l2-ctl` on the device agrees, and a refused value ends the run before streaming.
    ///
    /// The camera keeps its control values in a file, as a driver keeps them between opens, so
    /// `v4l2-ctl` in a process of its own reads what `live` set.
    @Suite struct LiveControlTests {
        static let session = ScriptedSession([.valid(30), .dropout(30)])

        /// A camera whose control values every program that opens it shares.
        static func camera(_ harness: EmulatedCameraHarness, showing session: ScriptedSession = session,
                           settling: [(control: String, value: Int, at: Int)] = []) throws -> EmulatedCamera
        {
            try harness.addCamera(showing: session) { configuration in
                configuration.controlsFile = harness.directory + "/video0.controls"
                configuration.settling = settling
            }
        }

        /// The values `v4l2-ctl --get-ctrl` reads for `names`.
        static func v4l2ctl(_ harness: EmulatedCameraHarness, _ camera: EmulatedCamera, _ names: [String]) async throws -> [String: Int] {
            let result = try await harness.run("/usr/bin/v4l2-ctl", ["-w", "-d", camera.path, "--get-ctrl", names.joined(separator: ",")])
            #expect(result.status == 0, "\(result.standardError)")
            var values: [String: Int] = [:]
            for line in result.standardOutput.split(separator: "\n") {
                let parts = line.split(separator: ":", maxSplits: 1)
                guard parts.count == 2, let value = parts[1].split(separator: " ").first.flatMap({ Int($0) }) else { continue }
                values[String(parts[0])] = value
            }
            return values
        }

        /// The recording's manifest lines.
        static func manifest(_ folder: String) throws -> [JSONLine] {
            try String(contentsOfFile: folder + "/manifest.jsonl", encoding: .utf8).split(separator: "\n").map { try JSONLine(String($0)) }
        }

        @Test func controlsAreSetRecordedAndReadBackByV4L2Ctl() async throws {
            let harness = try await makeLiveHarness()
            let camera = try Self.camera(harness)
            let out = harness.directory + "/pictures", recording = harness.directory + "/recording"
            let process = try harness.startLive(camera, [
                "--out", out, "--record", recording, "--auto", "--exposure", "40000", "--focus", "120", "--control", "gain=10",
            ])
            let expected = ["exposure_auto": 1, "exposure_absolute": 400, "focus_auto": 0, "focus_absolute": 120, "gain": 10]

            // While it runs (a picture taken, so frames flow), another program reads the same values.
            try await process.waitForOutput(containing: "capture_0001.png", timeout: .seconds(20))
            #expect(try await Self.v4l2ctl(harness, camera, Array(expected.keys)) == expected)
            process.sendLine("quit")
            let result = try await process.wait(timeout: .seconds(20))
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardError.contains(
                "camera controls set: exposure_absolute=400, exposure_auto=1, focus_absolute=120, focus_auto=0, gain=10\n"),
                "\(result.standardError)")

            let sidecar = try JSONLine(contentsOf: out + "/capture_0001.json")
            #expect(sidecar.fields["controls"] as? [String: Int] == expected, "\(sidecar)")
            let lines = try Self.manifest(recording)
            #expect(lines.first?.fields["controls"] as? [String: Int] == expected, "\(lines.first.map { "\($0)" } ?? "no lines")")
            #expect(lines.dropFirst().allSatisfy { $0.fields["controls"] == nil }, "controls again where they did not change")
            #expect(try await Self.v4l2ctl(harness, camera, Array(expected.keys)) == expected, "after the run")

            // The recording replays with them: `process` reads the manifest as before.
            let processed = try await harness.run(harness.markerShutter, [
                "process", recording, "--pattern", ScriptedSession.patternText,
            ])
            #expect(processed.status == 0, "\(processed.standardError)")
            #expect(processed.standardOutput.split(separator: "\n").count == lines.count)
        }

        /// The camera's automatic exposure and white balance settle 10 frames in; `--lock` waits its
        /// second of frames and fixes the values they settled on, not the ones it found at the start.
        @Test func lockFixesTheAutomaticModesAtTheirSettledValues() async throws {
            let harness = try await makeLiveHarness()
            // The board all along, so that the frames after the settling second show it too.
            let camera = try Self.camera(harness, showing: ScriptedSession([.valid(90)]),
                                         settling: [("exposure_absolute", 400, 10), ("white_balance_temperature", 5200, 10)])
            let out = harness.directory + "/pictures", recording = harness.directory + "/recording"
            let process = try harness.startLive(camera, [
                "--out", out, "--record", recording, "--auto", "--control", "gain=90", "--lock", "--stop-after", "15",
            ])
            process.closeInput()
            let result = try await process.wait(timeout: .seconds(60))
            #expect(result.status == 0, "\(result.standardError)")
            let expected = [
                "exposure_auto": 1, "exposure_absolute": 400, "white_balance_temperature_auto": 0, "white_balance_temperature": 5200,
                "focus_auto": 0, "focus_absolute": 0, "gain": 90,
            ]
            #expect(result.standardError.contains("camera controls set: gain=90\n"), "\(result.standardError)")
            #expect(result.standardError.contains(
                "camera controls locked: exposure_absolute=400, exposure_auto=1, focus_absolute=0, focus_auto=0, gain=90, "
                    + "white_balance_temperature=5200, white_balance_temperature_auto=0\n"), "\(result.standardError)")
            #expect(try await Self.v4l2ctl(harness, camera, Array(expected.keys)) == expected)

            // The frames of the settling second are neither recorded nor taken: the recording starts
            // after it, every line has the locked values, and so has the picture.
            let lines = try Self.manifest(recording)
            #expect(lines.count == 15)
            #expect(lines.first?.fields["controls"] as? [String: Int] == expected, "\(lines.first.map { "\($0)" } ?? "no lines")")
            let first = try #require(lines.first?.int("sequence"))
            #expect(first > ScriptedSession.framesPerSecond, "recorded from camera frame \(first)")
            let sidecar = try JSONLine(contentsOf: out + "/capture_0001.json")
            #expect(sidecar.fields["controls"] as? [String: Int] == expected, "\(sidecar)")
            #expect(camera.log().contains { $0.hasPrefix("settle id=") }, "the automatic modes did not settle: \(camera.log())")
        }

        @Test(arguments: [
            (["--control", "gain=300"], "gain=300 is out of range: gain takes 0...255"),
            (["--exposure", "100"], "exposure 100 µs is out of range: exposure takes 300...204700 µs"),
            (["--focus", "7"], "focus_absolute=7 is out of range: focus_absolute takes 0...250 in steps of 5"),
            (["--control", "zoom=1"], "no control named 'zoom'; the camera has brightness, contrast"),
        ])
        func aRefusedValueEndsTheRunBeforeStreaming(arguments: [String], message: String) async throws {
            let harness = try await makeLiveHarness()
            let camera = try Self.camera(harness)
            let out = harness.directory + "/pictures", recording = harness.directory + "/recording"
            let result = try await harness.run(harness.markerShutter,
                                               harness.liveArguments(camera) + ["--out", out, "--record", recording, "--auto"] + arguments)
            #expect(result.status == 1, "\(result.standardError)")
            #expect(result.standardError.contains("cannot set camera controls: \(camera.path): \(message)"), "\(result.standardError)")
            #expect(result.standardOutput.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: out), "the picture folder was left behind")
            #expect(!FileManager.default.fileExists(atPath: recording), "the recording folder was left behind")
            let log = camera.log()
            #expect(log.contains { $0.hasPrefix("open") } && log.contains { $0.hasPrefix("close") }, "\(log)")
            #expect(!log.contains { $0.hasPrefix("streamon") }, "streamed: \(log)")
        }
    }
}
