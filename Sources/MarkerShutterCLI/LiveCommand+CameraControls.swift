import ArgumentParser
import MarkerShutter

extension LiveCommand {
    /// Camera controls need a camera; `--settle` needs `--lock`.
    func validateCameraControls() throws {
        let settings = try cameraControls.settings
        if replay != nil, !settings.isEmpty {
            throw ValidationError("--exposure, --focus, --control and --lock set a camera's controls: not with --replay")
        }
        if settle != nil, !settings.lock { throw ValidationError("--settle needs --lock") }
        try InputLimits.settleSeconds.validate(settle, option: "--settle")
    }

    /// Puts the camera controls asked for into `configuration`.
    func setCameraControls(in configuration: inout LiveSession.Configuration) throws {
        configuration.controls = try cameraControls.settings
        if let settle { configuration.controlSettling = .milliseconds((settle * 1000).rounded()) }
    }
}
