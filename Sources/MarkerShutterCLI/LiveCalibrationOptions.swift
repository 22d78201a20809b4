import ArgumentParser
import Calibration
import Foundation
import MarkerDetection
import MarkerShutter

/// `--calibrate` and its options: calibration in the background of `live`.
struct LiveCalibrationOptions: ParsableArguments {
    @Flag(help: "Calibrate in the background as pictures are taken, and write the calibration files at the end.")
    var calibrate = false

    @Option(name: .customLong("calibration-out"),
            help: ArgumentHelp("Where --calibrate writes its files (default: calibration/ inside --out; needed for a rig, live or replayed, whose sets fill --out).", valueName: "dir"))
    var calibrationOut: String?

    @Flag(help: "Replace the calibration files in an existing --calibration-out.")
    var force = false

    @Option(name: .customLong("good-rms"), parsing: .unconditional,
            help: ArgumentHelp("With --calibrate, the RMS reprojection error a good result stays under (\(InputLimits.goodRMS)).",
                               valueName: "pixels"))
    var goodRMS = 0.5

    @Option(name: .customLong("good-focal-interval"), parsing: .unconditional,
            help: ArgumentHelp(
                "With --calibrate, the share of each focal length its 95% interval stays under in a good result (\(InputLimits.goodFocalInterval)).",
                valueName: "percent"))
    var goodFocalInterval = 1.0

    func validate() throws {
        try InputLimits.goodRMS.validate(goodRMS, option: "--good-rms")
        try InputLimits.goodFocalInterval.validate(goodFocalInterval, option: "--good-focal-interval")
        if calibrationOut != nil, !calibrate { throw ValidationError("--calibration-out needs --calibrate") }
    }

    /// Checks that `pattern` is a board calibration can use.
    func validate(pattern: Pattern) throws {
        guard calibrate else { return }
        do {
            _ = try TargetLayout(pattern)
        } catch {
            throw ValidationError("--calibrate needs a board: \(error)")
        }
    }

    /// The session's calibration, or nil without `--calibrate`.
    ///
    /// - Parameters:
    ///   - pictures: The picture folder (`--out`), inside which the files go by default.
    ///   - replay: The replayed folder, never written into.
    func configuration(pictures: String, replay: String?) -> LiveCalibration.Configuration? {
        guard calibrate else { return nil }
        var calibration = LiveCalibration.Configuration(
            folder: calibrationOut ?? (pictures as NSString).appendingPathComponent("calibration"))
        calibration.replacing = force
        calibration.goodRMS = goodRMS
        calibration.goodFocalInterval = goodFocalInterval / 100
        calibration.input = replay
        return calibration
    }
}
