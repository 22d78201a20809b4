import EmulatedCameraHarness
import Foundation
import Testing

extension LiveTests {
    /// `live --pattern auto` with a camera: the camera's frames are looked at until the target is
    /// known without doubt, what was found is said, and the session then runs with it.
    @Suite struct LivePatternAutoTests {
        @Test func theTargetIsIdentifiedFromTheCameraAndTheSessionRunsWithIt() async throws {
            let harness = try await makeLiveHarness()
            // The scripted board is charuco:5x7:DICT_6X6_250; its 17 markers' ids are all below 50,
            // so the smallest dictionary of its bit size that holds them is named: the same board.
            let identified = "charuco:5x7:DICT_6X6_50"
            // The board in view for ever, however long a busy machine takes to look.
            let camera = try harness.addCamera(showing: ScriptedSession([.valid(30)])) { $0.holdsLastFrame = true }
            let size = ScriptedSession.size
            let out = harness.directory + "/pictures"
            let process = try harness.start(harness.markerShutter, [
                "live", "--device", camera.path, "--pattern", "auto", "--size", "\(size.width)x\(size.height)",
                "--fps", "\(ScriptedSession.framesPerSecond)", "--out", out,
            ])
            try await process.waitForOutput(containing: "shutter enabled", on: .standardError, timeout: .seconds(120))
            process.sendLine("capture")
            try await process.waitForOutput(containing: "capture_0001.png", timeout: .seconds(30))
            process.sendLine("quit")
            let result = try await process.wait(timeout: .seconds(30))
            #expect(result.status == 0, "\(result.standardError)")
            let lines = result.standardError.split(separator: "\n").map(String.init)
            let looking = try #require(lines.firstIndex(of: "\(camera.path): looking for the target; hold it in view (Ctrl-C to stop)"),
                                       "\(result.standardError)")
            let found = try #require(lines.firstIndex { $0.hasPrefix("\(camera.path): found \(identified) in ") },
                                     "\(result.standardError)")
            let enabled = try #require(lines.firstIndex { $0.hasSuffix("shutter enabled") }, "\(result.standardError)")
            #expect(looking < found && found < enabled, "looked, found, then the session: \(result.standardError)")
            // The session's banner names the pattern found, and the picture's sidecar records it.
            #expect(result.standardError.contains("; pattern \(identified), hold 0.3 s"), "\(result.standardError)")
            let sidecar = try JSONLine(contentsOf: out + "/capture_0001.json")
            #expect(sidecar.string("pattern")?.hasPrefix(identified) == true, "\(String(describing: sidecar.string("pattern")))")
        }
    }
}
