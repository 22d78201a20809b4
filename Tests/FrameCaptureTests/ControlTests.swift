import EmulatedCameraHarness
import Foundation
import Testing

extension EmulatedCameraTests {
    /// Controls through libv4l2: exposure and focus need their automatic modes off first.
    @Suite struct ControlTests {
        @Test func exposureIsRefusedUnderAutoExposureAndSetAfterTurningItOff() async throws {
            let harness = try await makeHarness()
            let camera = try harness.addCamera(EmulatedCameraConfiguration())
            // Exposure absolute (0x9a0902) directly, while automatic exposure is on.
            let refused = try await harness.runProbe(["controls", "--device", camera.path, "--set", "9a0902=500"])
            let outcome = try #require(refused.events("set").first)
            #expect(outcome.bool("ok") == false)
            #expect(outcome.int("errno") == Int(EACCES))
            #expect(outcome.string("call") == "VIDIOC_S_CTRL")
            #expect(refused.events("control").first { $0.string("name") == "Exposure (Absolute)" }?.int("value") == 250)

            let run = try await harness.runProbe(["controls", "--device", camera.path, "--manual-exposure", "400", "--manual-focus", "120"])
            let outcomes = Dictionary(uniqueKeysWithValues: run.events("set").map { ($0.string("set")!, $0) })
            #expect(outcomes["manual-exposure"]?.bool("ok") == true)
            #expect(outcomes["manual-focus"]?.bool("ok") == true)

            let values = Dictionary(uniqueKeysWithValues: run.events("control").map { ($0.string("name")!, $0) })
            #expect(values["Exposure, Auto"]?.int("value") == 1)
            #expect(values["Exposure (Absolute)"]?.int("value") == 400)
            #expect(values["Exposure (Absolute)"]?.bool("inactive") == false)
            #expect(values["Focus, Auto"]?.int("value") == 0)
            #expect(values["Focus (absolute)"]?.int("value") == 120)
        }

        @Test func valuesOutOfRangeAreRefused() async throws {
            let harness = try await makeHarness()
            let camera = try harness.addCamera(EmulatedCameraConfiguration())
            let run = try await harness.runProbe(["controls", "--device", camera.path, "--set", "980900=65", "--set", "980900=-20"])
            let outcomes = run.events("set")
            #expect(outcomes.map { $0.bool("ok") } == [false, true])
            #expect(outcomes.first?.int("errno") == Int(ERANGE))
            #expect(run.events("control").first { $0.string("name") == "Brightness" }?.int("value") == -20)
        }
    }
}
