import Foundation
import Testing

@Suite struct DevicesCommandTests {
    @Test func listsFormatsSizesRatesAndControlsOfACamera() throws {
        let folder = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let device = folder + "/video0"
        try #require(FileManager.default.createFile(atPath: device, contents: nil))
        try "name = Board Camera\nformats = yuyv, mjpeg\nsizes = 640x480, 1280x720\nrates = 30, 15\n"
            .write(toFile: device + ".conf", atomically: true, encoding: .utf8)
        let script = MarkerShutterBinary.packageRoot + "/Scripts/with-emulated-camera"
        let result = try MarkerShutterBinary.run(
            ["devices", "--device", device], launcher: script)
        if result.status == 77 {  // the script's status when no private mount namespace is allowed
            try Test.cancel("the emulated camera cannot run here: \(result.standardError)")
        }
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("YUYV  YUYV 4:2:2: 640x480 at 30, 15 fps; 1280x720 at 30, 15 fps"))
        #expect(result.standardOutput.contains("MJPG  Motion-JPEG: 640x480 at 30, 15 fps"))
        #expect(result.standardOutput.contains("BGR3  BGR3 (converted)"))
        #expect(result.standardOutput.contains("Brightness: -64...64 step 1, default 0, now 0"))
        #expect(result.standardOutput.contains("Exposure Time, Absolute: 3...2047 step 1, default 250, now 250 (inactive while an automatic mode is on)"))
    }

    @Test func aMissingDeviceSaysSo() throws {
        let result = try MarkerShutterBinary.run(["devices", "--device", "/nonexistent/video7"])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("/nonexistent/video7\n  cannot be opened:"))
    }
}
