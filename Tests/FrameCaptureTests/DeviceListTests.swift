import EmulatedCameraHarness
import Foundation
import Testing

extension EmulatedCameraTests {
    /// Listing finds capture devices and their stable names, and skips what is not a camera.
    @Suite struct DeviceListTests {
        @Test func listsCaptureDevicesWithStableNames() async throws {
            let harness = try await makeHarness()
            _ = try harness.addCamera(EmulatedCameraConfiguration(name: "Desk Camera"), named: "video0")
            let board = try harness.addCamera(EmulatedCameraConfiguration(name: "Board Camera", formats: [.mjpeg]), named: "video2")
            // Not a device: no configuration next to it, so libv4l2 refuses it.
            #expect(FileManager.default.createFile(atPath: harness.directory + "/video1", contents: Data()))
            let byID = try harness.makeFolder("by-id")
            try FileManager.default.createSymbolicLink(atPath: byID + "/usb-Board_Camera-video-index0", withDestinationPath: board.path)

            let run = try await harness.runProbe(["list", "--dir", harness.directory, "--by-id", byID])
            #expect(run.status == 0, "\(run.standardError)")
            let devices = run.events("device")
            #expect(devices.map { $0.string("path") } == [harness.directory + "/video0", harness.directory + "/video2"])
            #expect(devices.map { $0.string("card") } == ["Desk Camera", "Board Camera"])
            #expect(devices.map { $0.string("driver") } == ["emulated-camera", "emulated-camera"])
            #expect(devices[0]["stable_names"] as? [String] == [])
            #expect(devices[1]["stable_names"] as? [String] == [byID + "/usb-Board_Camera-video-index0"])
        }
    }
}
