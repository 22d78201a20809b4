import Foundation
import Testing

@Suite struct DevicesCommandTests {
    @Test func listsFormatsSizesRatesAndControlsOfACamera() throws {
        let device = try Self.emulatedCamera(formats: "yuyv, mjpeg", sizes: "640x480, 1280x720", rates: "30, 15")
        defer { try? FileManager.default.removeItem(atPath: device.folder) }
        let result = try Self.runUnderEmulation(["devices", "--device", device.path])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("YUYV  YUYV 4:2:2: 640x480 at 30, 15 fps; 1280x720 at 30, 15 fps"))
        #expect(result.standardOutput.contains("MJPG  Motion-JPEG: 640x480 at 30, 15 fps"))
        #expect(result.standardOutput.contains("BGR3  BGR3 (converted)"))
        #expect(result.standardOutput.contains("brightness (Brightness): -64...64 step 1, default 0, now 0"))
        #expect(result.standardOutput.contains("exposure_absolute (Exposure (Absolute)): 3...2047 step 1, default 250, now 250 (inactive while an automatic mode is on)"))
    }

    @Test func controlsAreSetByNameLockedAndListed() throws {
        let device = try Self.emulatedCamera()
        defer { try? FileManager.default.removeItem(atPath: device.folder) }
        let result = try Self.runUnderEmulation(["devices", "--device", device.path, "--exposure", "20000", "--control", "gain=80", "--lock"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains(
            "  set: exposure_auto=1, exposure_absolute=200, gain=80, exposure_auto=1, white_balance_temperature_auto=0, focus_auto=0, "
                + "exposure_absolute=200, gain=80, white_balance_temperature=4600, focus_absolute=0\n"))
        #expect(result.standardOutput.contains("gain (Gain): 0...255 step 1, default 64, now 80\n"))
        #expect(result.standardOutput.contains("exposure_absolute (Exposure (Absolute)): 3...2047 step 1, default 250, now 200\n"))
        #expect(result.standardOutput.contains("focus_auto (Focus, Auto): on/off, default 1, now 0\n"))
    }

    @Test func anOutOfRangeControlIsRefusedWithItsRange() throws {
        let device = try Self.emulatedCamera()
        defer { try? FileManager.default.removeItem(atPath: device.folder) }
        let result = try Self.runUnderEmulation(["devices", "--device", device.path, "--control", "white_balance_temperature=9000"])
        #expect(result.status == 1)
        #expect(result.standardError.contains(
            "white_balance_temperature=9000 is out of range: white_balance_temperature takes 2800...6500 in steps of 10"))
        #expect(!result.standardOutput.contains("formats"))
    }

    @Test func controlsNeedADevice() throws {
        let result = try MarkerShutterBinary.run(["devices", "--lock"])
        #expect(result.status == 64)
        #expect(result.standardError.contains("--exposure, --focus, --control and --lock need --device"))
        let malformed = try MarkerShutterBinary.run(["devices", "--device", "/dev/video0", "--exposure", "fast"])
        #expect(malformed.status == 64)
        #expect(malformed.standardError.contains("'fast' is not understood: --exposure takes auto or a whole number"))
    }

    /// An emulated camera (YUYV 640x480 at 30 fps unless told), in a temporary folder of its own.
    static func emulatedCamera(
        formats: String = "yuyv", sizes: String = "640x480", rates: String = "30", name: String = #function
    ) throws -> (folder: String, path: String) {
        let folder = try MarkerShutterBinary.temporaryFolder(name)
        let device = folder + "/video0"
        try #require(FileManager.default.createFile(atPath: device, contents: nil))
        try "name = Board Camera\nformats = \(formats)\nsizes = \(sizes)\nrates = \(rates)\n"
            .write(toFile: device + ".conf", atomically: true, encoding: .utf8)
        return (folder, device)
    }

    static func runUnderEmulation(_ arguments: [String]) throws -> CommandResult {
        let result = try MarkerShutterBinary.run(arguments, launcher: MarkerShutterBinary.packageRoot + "/Scripts/with-emulated-camera")
        if result.status == 77 {  // the script's status when no private mount namespace is allowed
            try Test.cancel("the emulated camera cannot run here: \(result.standardError)")
        }
        return result
    }

    /// A camera named with --device that cannot be opened is the command's failure, said in the
    /// tool's own words: libv4l2's lines never reach standard error.
    @Test(arguments: ["/nonexistent/video7", "/dev/null", "regular file"])
    func aDeviceThatCannotBeOpenedExitsWithStatusOne(device: String) throws {
        let folder = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var path = device
        if device == "regular file" {
            path = folder + "/video0"
            try #require(FileManager.default.createFile(atPath: path, contents: Data("not a camera".utf8)))
        }
        let result = try MarkerShutterBinary.run(["devices", "--device", path])
        #expect(result.status == 1, "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.hasPrefix("Error: cannot open camera: \(path): open failed: "), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
        #expect(!result.standardError.contains("libv4l2"), "\(result.standardError)")
    }
}
