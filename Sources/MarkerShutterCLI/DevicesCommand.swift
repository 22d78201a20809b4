import ArgumentParser
import FrameCapture

/// `marker-shutter devices`: the cameras, with what they can do.
struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List cameras with their formats, sizes, frame rates and controls.",
        discussion: """
            Lists /dev/video* devices that can capture and stream, with their stable names from \
            /dev/v4l/by-id. Use a stable name with `live --device` so the same camera is opened after \
            replugging.

            Examples:
              marker-shutter devices
              marker-shutter devices --device /dev/video2
            """
    )

    @Option(help: "Show only this device.")
    var device: String?

    @Option(help: "Folder to look for video devices in.")
    var directory: String = "/dev"

    func run() throws {
        let devices: [(path: String, title: String)]
        if let device {
            devices = [(device, device)]
        } else {
            devices = CaptureDevice.list(in: directory).map { found in
                let names = found.stableNames.isEmpty ? "" : " (" + found.stableNames.joined(separator: ", ") + ")"
                return (found.path, "\(found.path)\(names): \(found.card), driver \(found.driver), \(found.busInfo)")
            }
        }
        guard !devices.isEmpty else {
            print("no capture devices in \(directory)")
            return
        }
        for (path, title) in devices {
            print(title)
            do {
                let camera = try Camera(path: path)
                for format in try camera.formats() {
                    print("  \(format)")
                }
                let controls = try camera.controls()
                if !controls.isEmpty {
                    print("  controls:")
                    for control in controls { print("    \(control)") }
                }
                camera.stop()
            } catch {
                print("  cannot be opened: \(error)")
            }
        }
    }
}
