import EmulatedCameraHarness
import Foundation
import Testing

extension LiveTests {
    /// A camera that stops sending frames while a lost detection is held: the hold is a matter of
    /// time, so the shutter is disabled when it runs out although no frame comes to say so, and a
    /// picture asked for then is refused (it would have been days-old news in a frozen camera). A
    /// stall ends nothing: the camera is said to be stalled once, and its frames bring it back.
    @Suite struct LiveStallTests {
        @Test func aStalledCameraIsDisabledWhenTheHoldRunsOutAndTheSessionGoesOn() async throws {
            let harness = try await makeLiveHarness()
            // Board for frames 0...29, then none; the camera delivers frames 0...35 and then no more.
            let session = ScriptedSession([.valid(30), .dropout(60)])
            let camera = try harness.addCamera(showing: session, faults: [.stall(at: 36, milliseconds: 0)])
            let out = harness.directory + "/pictures"
            let process = try harness.startLive(camera, ["--out", out, "--hold", "0.3"])

            // Held from frame 30; frame 39 would end the hold, but frame 35 is the last to come.
            try await process.waitForOutput(containing: "shutter disabled", on: .standardError, timeout: .seconds(20))
            process.sendLine("capture")
            // The camera is said to be stalled, once; the session goes on past the capture's old
            // 2 s timeout, until told to quit.
            try await process.waitForOutput(containing: "camera stalled", on: .standardError, timeout: .seconds(20))
            try await Task.sleep(for: .seconds(3))
            process.sendLine("quit")
            let result = try await process.wait(timeout: .seconds(30))

            let output = LiveOutput(result)
            // Times count from the session's first frame, not from the machine's start (the camera's clock).
            let first = result.standardError.split(separator: "\n").first { $0.hasPrefix("t=") }
            #expect(first == "t=0.000s frame 0: shutter enabled", "\(result.standardError)")
            let held = try #require(output.phaseChanges.last, "\(result.standardError)")
            #expect(held.phase == "held", "\(result.standardError)")
            let line = try #require(result.standardError.firstMatch(
                of: /t=([0-9.]+)s no frame after frame ([0-9]+): shutter disabled/), "\(result.standardError)")
            let heldLine = try #require(result.standardError.firstMatch(of: /t=([0-9.]+)s frame [0-9]+: shutter held/))
            let disabledAt = try #require(Double(line.1)), heldAt = try #require(Double(heldLine.1))
            // Exactly the hold after the first frame without the board, on the camera's own clock.
            #expect(abs(disabledAt - heldAt - 0.3) < 0.0015, "held at \(heldAt) s, disabled at \(disabledAt) s")
            #expect(Int(line.2).map { $0 <= 35 } == true, "the last frame seen: \(line.2)")

            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardError.contains("stopped (quit): "), "\(result.standardError)")
            #expect(!result.standardError.contains("gave no frame within"), "\(result.standardError)")
            let stalls = result.standardError.split(separator: "\n").filter { $0.contains("stalled") }
            #expect(stalls == ["camera stalled: no frame for 400 ms"], "\(result.standardError)")
            #expect(result.standardError.contains("pictures: 0 saved, 1 refused (shutter disabled)"), "\(result.standardError)")
            #expect(output.pictures.isEmpty)
        }

        /// A camera whose frames stop for 2.5 s and come again: one line says it stalled, one that it
        /// is back, the shutter follows its frames again, and the run ends when the frames do.
        @Test func aCameraThatStallsForTwoAndAHalfSecondsComesBack() async throws {
            let harness = try await makeLiveHarness()
            let session = ScriptedSession([.valid(90)])
            let camera = try harness.addCamera(showing: session, faults: [.stall(at: 30, milliseconds: 2500)])
            let process = try harness.startLive(camera, ["--out", harness.directory + "/pictures", "--stop-after", "90"])
            process.closeInput()
            let result = try await process.wait(timeout: .seconds(60))
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardError.contains("stopped (90 frames): 90 frames received"), "\(result.standardError)")
            let lines = result.standardError.split(separator: "\n").map(String.init)
            let about = lines.filter { $0.hasPrefix("camera stalled") || $0.hasPrefix("camera back") }
            #expect(about.count == 2, "\(result.standardError)")
            #expect(about.first == "camera stalled: no frame for 400 ms", "\(about)")
            let back = try #require(about.last?.firstMatch(of: /camera back after ([0-9.]+) s/), "\(about)")
            let silence = try #require(Double(back.1))
            #expect(silence >= 2.5 && silence < 3.5, "back after \(silence) s")
            // The shutter was disabled by the clock during the stall, and enabled by the frames after it.
            let changes = LiveOutput(result).phaseChanges.map(\.phase)
            #expect(changes.first == "enabled" && changes.last == "enabled", "\(result.standardError)")
            #expect(result.standardError.contains("no frame after frame"), "\(result.standardError)")
            #expect(lines.count < 20, "\(result.standardError)")
        }
    }
}
