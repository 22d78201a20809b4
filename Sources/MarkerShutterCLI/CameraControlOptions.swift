import ArgumentParser
import FrameCapture

/// `--exposure`, `--focus`, `--control` and `--lock`: camera controls to apply once the camera is
/// open, shared by the commands that open one.
struct CameraControlOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Exposure: auto, or a fixed time in microseconds (turns automatic exposure off).",
                               valueName: "auto|microseconds"))
    var exposure: String?

    @Option(help: ArgumentHelp("Focus: auto (continuous autofocus), or a fixed focus_absolute value.", valueName: "auto|value"))
    var focus: String?

    @Option(name: .customLong("control"),
            help: ArgumentHelp("Set a control by its v4l2-ctl name (repeatable); `devices --device` lists them.",
                               valueName: "name=value"))
    var controls: [String] = []

    @Flag(help: "Fix exposure, gain, white balance and focus at their current values (automatic modes off).")
    var lock = false

    /// The settings the options ask for; checked for form by `validate()`, for range by the camera.
    var settings: ControlSettings {
        get throws(ControlError) {
            ControlSettings(
                exposure: try exposure.map { text throws(ControlError) in try ControlSettings.Mode(parsing: text, of: "--exposure") },
                focus: try focus.map { text throws(ControlError) in try ControlSettings.Mode(parsing: text, of: "--focus") },
                controls: try controls.map { text throws(ControlError) in try ControlAssignment(parsing: text) },
                lock: lock)
        }
    }

    func validate() throws {
        do { _ = try settings } catch { throw ValidationError(error.description) }
    }
}
