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
            Reads two calibrations, fits the rotation between the two cameras, and prints how far apart they \
            project each pixel (mean, 95th percentile, centre and corners), each one's projection uncertainty \
            from its file (with the verdict the file gives itself), and whether the two agree: "consistent", \
            "the calibrations disagree: they differ by 3.1 px, more than their uncertainties explain", or \
            "too few views: the calibrations differ by 40 px"; "not enough to judge" when a file has no \
            uncertainty map and they differ by more than 0.5 px. With --output, the difference map is drawn \
            into DIR/difference.png; an existing one is replaced only with --force.

            A calibration is a calibration.json written by `calibrate` or `live --calibrate` (or the folder \
            holding one), a rig folder (its rig.yaml) with a camera by name, or another tool's file: an OpenCV \
            FileStorage calibration in YAML, JSON or XML (camera_matrix, distortion_coefficients, image size; \
            read by OpenCV's own parser), ROS camera_info, a Kalibr camchain.yaml, an mrcal .cameramodel \
            (OPENCV4, 5 or 8). Name one camera of a file that holds several as FILE:NAME (rig:left, \
            camchain.yaml:cam1, or by its rostopic's name, camchain.yaml:left). Other tools' files hold no \
            uncertainty map: the difference is still measured, and a difference over 0.5 px is then not enough to judge.

            Calibrations of different image sizes, or a fisheye and a pinhole one, are refused; OpenCV's pinhole \
            models (4, 5 or 8 coefficients) compare with each other.

            Exit status: 0 compared; 1 a file that cannot be read, calibrations that cannot be compared, or \
            a picture that cannot be written.

            Examples:
              marker-shutter compare monday tuesday
              marker-shutter compare cam-a/calibration.json cam-b/calibration.json --output drift
              marker-shutter compare rig/mrcal/left.cameramodel ros/left.yaml
              marker-shutter compare kalibr/camchain.yaml:cam1 rig:right
            """
    )

    @Argument(help: "The first calibration: a calibration.json or a folder holding one, a rig folder:CAMERA, or another tool's file[:CAMERA].")
    var first: String

    @Argument(help: "The second calibration.")
    var second: String

    @Option(help: ArgumentHelp("Draw the difference map into DIR/difference.png.", valueName: "dir"))
    var output: String?

    @Flag(help: "Replace DIR/difference.png when it exists.")
    var force = false

    func validate() throws {
        if force, output == nil { throw ValidationError("--force replaces the picture of --output: give --output DIR") }
    }

    func run() throws {
        let comparison: CalibrationComparison
        do {
            comparison = try CalibrationComparison(SavedCalibration(reading: first), SavedCalibration(reading: second))
            // Refused before anything is printed: an existing picture, or a folder of the inputs.
            if let output {
                try CalibrationComparison.checkOutput(output, inputs: [comparison.first.path, comparison.second.path], replacing: force)
            }
        } catch {
            throw RuntimeError(FileNameText.escaped("\(error)"))
        }
        for line in comparison.lines { StandardOutput.line(FileNameText.escaped(line)) }
        guard let output else { return }
        do {
            let path = try comparison.write(into: output, replacing: force)
            FileHandle.standardError.write(FileNameText.escaped("wrote \(path)") + "\n")
        } catch {
            throw RuntimeError(FileNameText.escaped("\(error)"))
        }
    }
}
