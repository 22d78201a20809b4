import ArgumentParser
import Calibration
import Foundation
import MarkerDetection
import Pixels

/// `marker-shutter calibrate DIR`: a calibrated camera from a folder of pictures.
struct CalibrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract: "Calibrate the camera from a folder of pictures of the target.",
        discussion: """
            Reads a picture folder written by `live` from its JSON sidecars (their stored detections, \
            without detecting again), or detects --pattern in any folder of images. The target must be a \
            board (charuco, chessboard, gridboard or aprilgrid): loose markers (aruco:, apriltag:) have \
            no known layout and are refused. Partial views of ChArUco boards and AprilGrids count. Solves the camera (OpenCV's calibrateCamera, or fisheye::calibrate), \
            drops views whose RMS error is over 3 times the median of all views and solves again, and \
            writes into --out:

              calibration.yaml   OpenCV FileStorage: image_width, image_height,
                                 camera_matrix, distortion_coefficients,
                                 avg_reprojection_error, per_view_errors,
                                 distortion_model
              camera_info.yaml   ROS camera_info, as camera drivers load it
              calibration.json   everything, with standard deviations and 95%
                                 intervals of every intrinsic, views used and
                                 rejected (with reasons), both solves, coverage
              coverage.png       where the corners fell on an 8x6 grid; red
                                 cells have too few
              residuals.png      each corner's reprojection error as a
                                 magnified arrow
              undistorted/       with --undistort, every picture without distortion

            The files appear together or not at all; the input folder is never written into. A summary \
            with advice on what to capture next goes to standard error.

            Exit status: 0 calibrated; 1 nothing written (too few usable views, mixed image sizes, \
            unreadable input) or standard output cannot be written; 64 a usage error (an unknown \
            --model, a --pattern of loose markers).

            Examples:
              marker-shutter calibrate pictures
              marker-shutter calibrate photos --pattern chessboard:9x6 --out cam
              marker-shutter calibrate pictures --model fisheye --undistort
              marker-shutter calibrate photos --pattern aprilgrid:6x6:tag36h11:size=0.088
            """
    )

    @Argument(help: "The folder of pictures (with `live`'s JSON sidecars, or plain images with --pattern).")
    var folder: String

    @Option(help: ArgumentHelp(
        "The target, for folders without sidecars (checked against the sidecars otherwise).",
        discussion: Pattern.grammar, valueName: "pattern"))
    var pattern: String?

    @Option(help: "The lens model: pinhole (k1 k2 p1 p2 k3), rational (8 coefficients) or fisheye (4).")
    var model: String = CameraModel.pinhole.rawValue

    @Option(help: ArgumentHelp("The folder the results go to.", valueName: "dir"))
    var out: String = "calibration"

    @Flag(help: "Also write every picture without distortion into undistorted/.")
    var undistort = false

    @Option(name: .customLong("camera-name"), help: "The camera's name in camera_info.yaml.")
    var cameraName: String = "camera"

    func validate() throws {
        guard CameraModel(rawValue: model) != nil else {
            throw ValidationError("unknown --model '\(model)': expected pinhole, rational or fisheye")
        }
        if let pattern {
            let parsed: Pattern
            do {
                parsed = try Pattern(parsing: pattern)
            } catch {
                throw ValidationError("\(error)\n\nPatterns:\n\(Pattern.grammar)")
            }
            do {
                _ = try TargetLayout(parsed)
            } catch {
                throw ValidationError("--pattern: \(error)")
            }
        }
    }

    func run() throws {
        let model = CameraModel(rawValue: model) ?? .pinhole
        do {
            let pictures = try PictureSet(folder: folder, pattern: pattern.flatMap { try? Pattern(parsing: $0) })
            let how = pictures.source == .sidecars ? "stored detections of" : "detected \(pictures.pattern) in"
            FileHandle.standardError.write(
                "\(folder): \(how) \(pictures.views.count + pictures.empty.count) pictures, target in \(pictures.views.count)\n")
            let result = try pictures.calibrate(model)
            let report = CalibrationReport(result: result, pattern: pictures.pattern.description, cameraName: cameraName)
            let output = try OutputFolder(path: out, input: folder)
            try report.write(into: output)
            var written = CalibrationReport.fileNames
            if undistort {
                for view in pictures.views {
                    let name = "undistorted/" + ((view.name as NSString).deletingPathExtension) + ".png"
                    let image: PixelBuffer
                    do {
                        image = try ImageFile.read(pictures.path(of: view.name))
                    } catch {
                        throw CalibrationError.unreadableInput(path: pictures.path(of: view.name), reason: "\(error)")
                    }
                    try output.write(try CalibrationReport.png(report.result.camera.undistort(image), output: output), to: name)
                }
                written.append("undistorted/")
            }
            try output.commit()
            for line in report.summary { FileHandle.standardError.write(line + "\n") }
            for name in written { StandardOutput.line((out as NSString).appendingPathComponent(name)) }
        } catch let error as CalibrationError {
            throw RuntimeError("\(error)")
        }
    }
}
