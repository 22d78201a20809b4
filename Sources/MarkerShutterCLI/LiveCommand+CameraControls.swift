import ArgumentParser
import MarkerShutter

extension LiveCommand {
    /// Camera controls need a camera; `--settle` needs `--lock`.
    func validateCameraControls() throws {
        let settings = try cameraControls.settings
        if replay != nil, !settings.isEmpty {
            throw ValidationError("--exposure, --focus, --control and --lock set a camera's controls: not with --replay")
        }
        let rigLocks = rig.cameraOptions.contains { option in
            option.split(separator: ":", maxSplits: 1).last?.split(separator: ",").contains("lock") ?? false
        }
        if settle != nil, !settings.lock, !(rig.isRig && rigLocks) {
            throw ValidationError(rig.isRig ? "--settle needs --lock, or lock in a --camera-option" : "--settle needs --lock")
        }
        try InputLimits.settleSeconds.validate(settle, option: "--settle")
    }
}
