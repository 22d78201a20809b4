import EmulatedCameraHarness
import Foundation
import Testing

extension LiveTests {
    /// A camera that stops sending frames while a lost detection is held: the hold is a matter of
    /// time, so the shutter is disabled when it runs out although no frame comes to say so, and a
    /// picture asked for then is refused (it would have been days-old news in a frozen camera).
    @Suite struct LiveStallTests {
        @Test func aStalledCameraIsDisabledWhenTheHoldRunsOut() async throws {
            let harness = try await makeLiveHarness()
            // Board for frames 0...29, then none; the camera delivers frames 0...35 and then no more.
            let session = ScriptedSession([.valid(30), .dropout(60)])
            let camera = try harness.addCamera(showing: session, faults: [.stall(at: 36, milliseconds: 0)])
            let out = harness.directory + "/pictures"
            let process = try harness.startLive(camera, ["--out", out, "--hold", "0.3"])

            // Held from frame 30; frame 39 would end the hold, but frame 35 is the last to come.
            try await process.waitForOutput(containing: "shutter disabled", on: .standardError, timeout: .seconds(20))
            process.sendLine("capture")
            // The camera gives no frame within its 2 s timeout: the session ends with that error.
            let result = try await process.wait(timeout: .seconds(30))

            let output = LiveOutput(result)
            let held = try #require(output.phaseChanges.last, "\(result.standardError)")
            #expect(held.phase == "held", "\(result.standardError)")
            let line = try #require(result.standardError.firstMatch(
                of: /t=([0-9.]+)s no frame after frame ([0-9]+): shutter disabled/), "\(result.standardError)")
            let heldLine = try #require(result.standardError.firstMatch(of: /t=([0-9.]+)s frame [0-9]+: shutter held/))
            let disabledAt = try #require(Double(line.1)), heldAt = try #require(Double(heldLine.1))
            // Exactly the hold after the first frame without the board, on the camera's own clock.
            #expect(abs(disabledAt - heldAt - 0.3) < 0.0015, "held at \(heldAt) s, disabled at \(disabledAt) s")
            #expect(Int(line.2).map { $0 <= 35 } == true, "the last frame seen: \(line.2)")

            #expect(result.status == 1, "\(result.standardError)")
            #expect(result.standardError.contains("gave no frame within"), "\(result.standardError)")
            #expect(result.standardError.contains("pictures: 0 saved, 1 refused (shutter disabled)"), "\(result.standardError)")
            #expect(output.pictures.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: out), "an empty picture folder was left")
        }
    }
}
