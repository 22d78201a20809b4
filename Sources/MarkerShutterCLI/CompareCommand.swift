import ArgumentParser
import Calibration
import Foundation
import MarkerShutter

/// `marker-shutter compare A B`: how far apart two calibrations of one camera project.
struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare two calibrations of one camera: how far apart they project over the image.",
        discussion: """
            Reads two calibration.json files written by `calibrate` or `live --calibrate` (or the folders \
            holding them), fits the rotation between the two cameras, and prints how far apart they project \
            each pixel (mean, 95th percentile, centre and corners), each one's projection uncertainty from \
            its file (with the verdict the file gives itself), and whether the two agree: "consistent", \
            "the calibrations disagree: they differ by 3.1 px, more than their uncertainties explain", or \
            "too few views: the calibrations differ by 40 px"; "not enough to judge" when either file has no \
            uncertainty map. With --output, the difference map is drawn into DIR/difference.png.

            Calibrations of different image sizes or lens models are refused.

            Exit status: 0 compared; 1 a file that cannot be read, calibrations that cannot be compared, or \
            a picture that cannot be written.

            Examples:
              marker-shutter compare monday tuesday
              marker-shutter compare cam-a/calibration.json cam-b/calibration.json --output drift
            """
    )

    @Argument(help: "The first calibration: a calibration.json or a folder holding one.")
    var first: String

    @Argument(help: "The second calibration.")
    var second: String

    @Option(help: ArgumentHelp("Draw the difference map into DIR/difference.png.", valueName: "dir"))
    var output: String?

    func run() throws {
        let comparison: CalibrationComparison
        do {
            comparison = try CalibrationComparison(SavedCalibration(path: first), SavedCalibration(path: second))
        } catch {
            throw RuntimeError(FileNameText.escaped("\(error)"))
        }
        for line in comparison.lines { StandardOutput.line(FileNameText.escaped(line)) }
        guard let output else { return }
        do {
            let path = try comparison.write(into: output)
            FileHandle.standardError.write(FileNameText.escaped("wrote \(path)") + "\n")
        } catch {
            throw RuntimeError(FileNameText.escaped("\(error)"))
        }
    }
}
