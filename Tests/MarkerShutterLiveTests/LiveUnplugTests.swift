import EmulatedCameraHarness
import Foundation
import Testing

extension LiveTests {
    /// A camera unplugged during `live`: the run ends with status 1, the summary says the camera
    /// was disconnected, and the device is named once after it (not once per layer of the error).
    @Suite struct LiveUnplugTests {
        @Test func anUnpluggedCameraIsSaidAndNamedOnce() async throws {
            let harness = try await makeLiveHarness()
            let camera = try harness.addCamera(showing: ScriptedSession([.valid(60)]), faults: [.enodev(at: 20)])
            let out = harness.directory + "/pictures"
            let process = try harness.startLive(camera, ["--out", out])
            process.closeInput()
            let result = try await process.wait(timeout: .seconds(30))

            #expect(result.status == 1, "\(result.standardError)")
            let summary = try #require(result.standardError.range(of: "stopped (camera disconnected): "),
                                       "\(result.standardError)")
            let after = String(result.standardError[summary.lowerBound...])
            #expect(after.components(separatedBy: camera.path).count == 2, "\(after)")
            #expect(after.contains("No such device (ENODEV): the camera was disconnected"),
                    "\(after)")
            #expect(!FileManager.default.fileExists(atPath: out), "an empty picture folder was left")
        }
    }
}
