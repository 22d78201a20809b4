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
            replugging. Controls are listed with the names v4l2-ctl and `--control` use; with \
            `--device`, `--exposure`, `--focus`, `--control` and `--lock` set them before the listing.

            Exit status: 0 listed (also when there is no camera: the list says so); 1 standard output \
            cannot be written, the camera named with --device cannot be opened or listed (a missing \
            path, a file that is no capture device), or a control could not be set (the message gives \
            the values it takes); 64 a usage error.

            Examples:
              marker-shutter devices
              marker-shutter devices --device /dev/video2
              marker-shutter devices --device /dev/video2 --exposure 20000 --control gain=80 --lock
            """
    )

    @Option(help: "Show only this device.")
    var device: String?

    @Option(help: "Folder to look for video devices in.")
    var directory: String = "/dev"

    @OptionGroup(title: "Camera controls (with --device)")
    var cameraControls: CameraControlOptions

    func validate() throws {
        if device == nil, try !cameraControls.settings.isEmpty {
            throw ValidationError("--exposure, --focus, --control and --lock need --device: name the camera to set")
        }
    }

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
            StandardOutput.line("no capture devices in \(directory)")
            return
        }
        let settings = try cameraControls.settings
        for (path, title) in devices {
            let camera: Camera
            do {
                camera = try Camera(path: path)
            } catch {
                // A camera named with --device that cannot be opened is the command's failure.
                if device != nil { throw RuntimeError("cannot open camera: \(error)") }
                StandardOutput.line(title)
                StandardOutput.line("  cannot be opened: \(error)")
                continue
            }
            StandardOutput.line(title)
            defer { camera.stop() }
            if !settings.isEmpty {
                // A refused value ends the command with the control's range; nothing is listed.
                let applied = try camera.apply(settings)
                StandardOutput.line("  set: " + applied.map(\.description).joined(separator: ", "))
            }
            do {
                StandardOutput.line("  formats (converted: made by libv4lconvert from the camera's own formats):")
                for format in try camera.formats() { StandardOutput.line("    " + Self.describe(format)) }
                let controls = try camera.controls()
                if !controls.isEmpty {
                    StandardOutput.line("  controls:")
                    for control in controls { StandardOutput.line("    " + Self.describe(control)) }
                }
            } catch {
                if device != nil { throw RuntimeError("cannot list camera: \(error)") }
                StandardOutput.line("  cannot be opened: \(error)")
            }
        }
    }

    /// `YUYV  YUYV 4:2:2: 640x480 at 30, 15 fps; 1280x720 at 30, 15 fps`
    static func describe(_ format: FormatDescription) -> String {
        let sizes = format.sizes.map { size -> String in
            let rates = size.frameIntervals.compactMap(\.framesPerSecond).map(Self.rate).joined(separator: ", ")
            let area = size.isDiscrete ? "\(size.width)x\(size.height)" : "\(size.width)x\(size.height) to \(size.maximumWidth)x\(size.maximumHeight)"
            return rates.isEmpty ? area : "\(area) at \(rates) fps"
        }
        let name = "\(format.fourCC)".padding(toLength: 5, withPad: " ", startingAt: 0)
        return name + " \(format.description)" + (format.isEmulated ? " (converted)" : "") + ": " + sizes.joined(separator: "; ")
    }

    /// `brightness (Brightness): -64...64 step 1, default 0, now 0`
    static func describe(_ control: CameraControl) -> String {
        var text = control.v4l2Name + " (" + control.name + "): "
        if control.menu.isEmpty {
            text += control.kind == .boolean ? "on/off" : "\(control.minimum)...\(control.maximum) step \(control.step)"
        } else {
            text += control.menu.map { "\($0.value) \($0.name)" }.joined(separator: ", ")
        }
        text += ", default \(control.defaultValue)"
        if let value = control.value { text += ", now \(value)" }
        if control.isInactive { text += " (inactive while an automatic mode is on)" }
        if control.isReadOnly { text += " (read-only)" }
        return text
    }

    static func rate(_ fps: Double) -> String {
        fps == fps.rounded() ? String(Int(fps)) : String(format: "%.2f", fps)
    }
}
