import ArgumentParser
import FrameCapture
import MarkerShutter
import SystemCalls

/// The options of `live` for a rig: several cameras, one shutter for the set.
struct LiveRigOptions: ParsableArguments {
    @Option(name: .customLong("camera"),
            help: ArgumentHelp("A camera of a rig, repeated for each (2 to 8): its name (letters, digits, - and _) and its device.",
                               valueName: "NAME=DEVICE"))
    var cameras: [String] = []

    @Option(name: .customLong("camera-option"),
            help: ArgumentHelp("One rig camera's own size, rate, format (the camera's own, MJPG, YUYV, ..., or the frames', BGR3 color or GREY gray) and controls: exposure=auto|microseconds, focus=auto|value, lock, and any other control by its v4l2-ctl name (gain=10); what it does not give comes from --size, --fps, --gray, --camera-format, --exposure, --focus, --control and --lock.",
                               valueName: "NAME:size=WxH,fps=N,format=FOURCC,exposure=...,CONTROL=VALUE"))
    var cameraOptions: [String] = []

    /// `--require`, `--sync-tolerance` and `--max-motion`.
    @OptionGroup var rules: RigRuleOptions

    /// One rig camera as given: its name, its device and its own settings and controls.
    struct CameraArgument {
        let name: String
        let device: String
        var settings: CaptureSettings
        var controls: ControlSettings
    }

    /// Whether a rig was asked for.
    var isRig: Bool { !cameras.isEmpty }

    /// The rig's cameras with their settings and controls (each starts from `defaults` and
    /// `controls`: a camera's own exposure or focus replaces the common one, its named controls
    /// come after the common ones, and `lock` adds the lock).
    ///
    /// - Throws: `ValidationError` naming the argument that is wrong.
    func cameraArguments(defaults: CaptureSettings, controls: ControlSettings = ControlSettings()) throws -> [CameraArgument] {
        var result: [CameraArgument] = []
        for text in cameras {
            guard let equals = text.firstIndex(of: "="), !text[text.index(after: equals)...].isEmpty else {
                throw ValidationError("--camera takes NAME=DEVICE (left=/dev/video0), got \"\(text)\"")
            }
            let name = String(text[..<equals])
            if let problem = RigCamera.nameProblem(name) { throw ValidationError("--camera: camera name \"\(name)\" \(problem)") }
            guard !result.contains(where: { $0.name == name }) else {
                throw ValidationError("--camera: two cameras are named \"\(name)\": each camera needs its own name")
            }
            let device = String(text[text.index(after: equals)...])
            if let other = result.first(where: { $0.device == device }) {
                throw ValidationError("--camera: \(other.name) and \(name) are both \(device): each camera of a rig is its own device")
            }
            // One device under two paths (a link in /dev/v4l/by-id, a second name of a file):
            // links followed, a device by its number. A path that cannot be looked at is left to opening it.
            if let identity = FileIdentity(path: device),
               let other = result.first(where: { FileIdentity(path: $0.device) == identity }) {
                throw ValidationError("--camera: \(other.name) and \(name) are one device (\(other.device) and \(device)): "
                    + "each camera of a rig is its own device")
            }
            result.append(CameraArgument(name: name, device: device, settings: defaults, controls: controls))
        }
        guard RigShutterMachine.Configuration.cameraCounts.contains(result.count) else {
            throw ValidationError("a rig has 2 to 8 cameras (--camera NAME=DEVICE, repeated), not \(result.count)")
        }
        for text in cameraOptions {
            guard let colon = text.firstIndex(of: ":") else {
                throw ValidationError("--camera-option takes NAME:size=WxH,fps=N,format=FOURCC, got \"\(text)\"")
            }
            let name = String(text[..<colon])
            guard let index = result.firstIndex(where: { $0.name == name }) else {
                throw ValidationError("--camera-option names \"\(name)\", which no --camera gives")
            }
            for part in text[text.index(after: colon)...].split(separator: ",", omittingEmptySubsequences: false) {
                if part == "lock" {
                    result[index].controls.lock = true
                    continue
                }
                let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
                guard pair.count == 2, !pair[0].isEmpty else { throw ValidationError("--camera-option \(name): \"\(part)\" is not KEY=VALUE or lock") }
                switch pair[0] {
                case "size":
                    let sides = pair[1].lowercased().split(separator: "x").compactMap { Int($0) }
                    guard sides.count == 2 else { throw ValidationError("--camera-option \(name): size must look like 1280x720, got \(pair[1])") }
                    try InputLimits.cameraSide.validate(sides[0], option: "--camera-option \(name) size width")
                    try InputLimits.cameraSide.validate(sides[1], option: "--camera-option \(name) size height")
                    result[index].settings.width = sides[0]
                    result[index].settings.height = sides[1]
                case "fps":
                    guard let fps = Int(pair[1]) else { throw ValidationError("--camera-option \(name): fps must be a whole number, got \(pair[1])") }
                    try InputLimits.cameraFramesPerSecond.validate(fps, option: "--camera-option \(name) fps")
                    result[index].settings.framesPerSecond = fps
                case "format":
                    switch pair[1].uppercased() {
                    case "BGR3": result[index].settings.pixelFormat = .bgr24
                    case "GREY": result[index].settings.pixelFormat = .gray8
                    default:
                        guard let fourCC = LiveCommand.cameraFourCC(pair[1]) else {
                            throw ValidationError("--camera-option \(name): format takes the camera's own format (four characters: MJPG, "
                                + "YUYV, ...) or the frames' (BGR3 color, GREY grayscale), got \(pair[1])")
                        }
                        result[index].settings.cameraFormat = fourCC
                    }
                case "exposure", "focus":
                    do {
                        let mode = try ControlSettings.Mode(parsing: pair[1], of: "--camera-option \(name) \(pair[0])")
                        if pair[0] == "exposure" { result[index].controls.exposure = mode } else { result[index].controls.focus = mode }
                    } catch {
                        throw ValidationError(error.description)
                    }
                default:
                    do {
                        result[index].controls.controls.append(try ControlAssignment(parsing: String(part)))
                    } catch {
                        throw ValidationError("--camera-option \(name): \"\(part)\" is not size, fps, format, exposure, focus, lock "
                            + "or a control set to a whole number (gain=10)")
                    }
                }
            }
        }
        return result
    }

    /// The rig's configuration for `cameras`.
    func rigConfiguration(_ cameras: [CameraArgument], hold: Duration) throws -> RigShutterMachine.Configuration {
        let rigCameras = try cameras.map { camera in
            try RigCamera(name: camera.name, frameInterval: .seconds(1) / (camera.settings.framesPerSecond ?? 30))
        }
        return try rules.rigConfiguration(cameras: rigCameras, hold: hold)
    }
}
