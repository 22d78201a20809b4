import ArgumentParser
import Calibration
import Dispatch
import Foundation
import MarkerDetection
import MarkerShutter

/// `marker-shutter calibrate DIR`: a calibrated camera from a folder of pictures.
struct CalibrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract: "Calibrate a camera, or a rig of cameras, from pictures of the target.",
        discussion: """
            Reads a picture folder written by `live` from its JSON sidecars (their stored detections, \
            without detecting again), or detects --pattern in any folder of images; without --pattern (or \
            with --pattern auto) the target is identified from the folder's first pictures, and what was \
            found is said (calibrate stops when the pictures leave doubt). The target must be a \
            board (charuco, chessboard, gridboard, aprilgrid, circles or acircles): loose markers (aruco:, apriltag:) have \
            no known layout and are refused. Partial views of ChArUco boards and AprilGrids count. Solves the camera \
            (Ceres Solver from a closed-form start; from OpenCV's calibrateCamera for the rational model, \
            fisheye::calibrate for the fisheye one), \
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
              uncertainty.png    the projection-uncertainty map: contours
                                 of how far each pixel's projection may be
                                 off, the corners drawn
              undistorted/       with --undistort, every picture without distortion

            The files appear together or not at all; the input folder is never written into. An --out \
            that has files is refused unless --force is given; then its calibration files are replaced \
            all together, or, when a move fails, its old files are put back. A summary with advice on what \
            to capture next goes to standard error.

            Sidecars are checked before use: an "image" that is not a file name in the folder (a / or \
            ..), a width or height outside 1...16384, a point outside the picture (by more than a pixel), \
            more than 65536 corners or 16384 markers, or an id outside 0...1048575 is refused, naming the \
            sidecar and the field. A solve that gives a value that is not a finite number writes nothing.

            A rig of cameras: `--camera NAME=DIR` once per camera (the first is the reference; pictures \
            with the same name without extension in the folders were taken together), or a rig picture \
            folder (one subfolder per camera, as live rig capture writes it). `--model NAME=MODEL` sets \
            one camera's model. Each camera is solved on its own, the cameras placed through the ones they \
            share pictures with, then every camera's intrinsics and pose and every set's target pose are \
            refined together (sets that fit far worse than the rest dropped). Into --out go:

              rig.yaml           OpenCV FileStorage: cameras (K, D, size, R, T from
                                 the first camera); for two cameras M1 D1 M2 D2 R T
                                 E F R1 R2 P1 P2 Q
              camchain.yaml      Kalibr's camera chain (T_cn_cnm1, intrinsics, ...)
              rig.json           everything, with standard deviations and 95%
                                 intervals of every extrinsic (baseline, rotation)
                                 and the epipolar error of every set
              camera_info/       ROS camera_info per camera, with the stereo
                                 rectification for two cameras
              NAME/              each camera's own calibration files, as above
              rectified/         pairs rectified side by side, lines drawn

            Exit status: 0 calibrated; 1 nothing written (too few usable views, mixed image sizes, \
            unreadable or refused input, a solve that is no camera, an --out with files and no --force) \
            or standard output cannot be written; 64 a usage error (an unknown --model, a --pattern of \
            loose markers); 130 stopped by Ctrl-C, SIGTERM or SIGHUP (nothing written, the temporary \
            folder removed; a signal that comes while the files are moved waits for the move).

            Examples:
              marker-shutter calibrate pictures
              marker-shutter calibrate photos --pattern chessboard:9x6 --out cam
              marker-shutter calibrate pictures --model fisheye --undistort
              marker-shutter calibrate photos --pattern aprilgrid:6x6:tag36h11:size=0.088
              marker-shutter calibrate --camera left=L --camera right=R --pattern chessboard:9x6
              marker-shutter calibrate rig-pictures --model wide=fisheye
              marker-shutter calibrate calibration.bag --topic /camera/image_raw --pattern chessboard:9x6
              marker-shutter calibrate stereo.mcap --topic left=/left/image_raw --topic right=/right/image_raw --pattern chessboard:9x6

            A ROS bag takes the place of the folder (a .bag, an .mcap, or a rosbag2 folder with metadata.yaml): \
            --pattern is detected in every frame of the --topic (sensor_msgs/Image or CompressedImage), each \
            view named by its header stamp; without --pattern (or with auto) it is identified from the first frames. Two --topic or more are a rig, each topic a camera (named from the \
            topics, or --topic NAME=TOPIC); frames whose stamps are within --sync-tolerance milliseconds (half the \
            longest frame interval unless given) are a set, the other frames views of their camera alone.
            """
    )

    @Argument(help: "The folder of pictures (with `live`'s JSON sidecars, or plain images with --pattern), or a rig picture folder.")
    var folder: String?

    @Option(
        name: .customLong("camera"),
        help: ArgumentHelp("A camera of a rig and its folder of pictures; once per camera, the reference first.", valueName: "name=dir"))
    var cameras: [String] = []

    @Option(name: .customLong("topic"),
            help: ArgumentHelp("With a bag: the image topic to calibrate; twice or more for a rig (NAME=TOPIC names its camera).",
                               valueName: "topic"))
    var topics: [String] = []

    @Option(name: .customLong("sync-tolerance"), parsing: .unconditional,
            help: ArgumentHelp("With a bag's rig: the largest difference between the stamps of a set's frames, in milliseconds; half the longest frame interval unless given.",
                               valueName: "MS"))
    var syncTolerance: Double?

    @Option(help: ArgumentHelp(
        "The target, for folders without sidecars (checked against the sidecars otherwise); auto or none: identified from the first pictures.",
        discussion: Pattern.grammar + "\n" + PatternChoice.help, valueName: "pattern"))
    var pattern: String?

    @Option(help: ArgumentHelp(
"The lens model: pinhole (k1 k2 p1 p2 k3), pinhole-radtan (k1 k2 p1 p2, k3 held at 0: what Kalibr's camchain and mrcal's OPENCV4 hold), rational (8 coefficients) or fisheye (4); NAME=MODEL for one camera of a rig.",
        valueName: "model"))
    var model: [String] = []

    @Option(help: ArgumentHelp("The folder the results go to.", valueName: "dir"))
    var out: String = "calibration"

    @Flag(help: "Also write every picture without distortion into undistorted/.")
    var undistort = false

    @Flag(help: "Replace the calibration files in an --out that has files.")
    var force = false

    @Flag(inversion: .prefixedNo, help: ArgumentHelp(
        "Also solve two halves of the views and compare them (default: on from 8 views).",
        discussion: "Prints how far apart the halves project, what their uncertainties explain, a verdict and the held-out error."))
    var crossValidate: Bool?

    @Option(name: .customLong("camera-name"), help: "The camera's name in camera_info.yaml (written as a quoted YAML string).")
    var cameraName: String = "camera"

    /// The model every camera has unless named, and the models of named cameras.
    private func models() throws -> (model: CameraModel, named: [String: CameraModel]) {
        var bare: CameraModel?
        var named: [String: CameraModel] = [:]
        for text in model {
            let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
            let value = parts.count == 2 ? parts[1] : text
            guard let parsed = CameraModel(rawValue: value) else {
                throw ValidationError("unknown --model '\(value)': expected pinhole, pinhole-radtan, rational or fisheye")
            }
            if parts.count == 2 {
                guard !cameras.isEmpty || folder != nil else { throw ValidationError("--model \(text) names a camera") }
                if named.updateValue(parsed, forKey: parts[0]) != nil { throw ValidationError("--model names camera \(parts[0]) twice") }
            } else {
                if bare != nil { throw ValidationError("--model without a camera name is given twice") }
                bare = parsed
            }
        }
        return (bare ?? .pinhole, named)
    }

    /// The --camera options as names and folders.
    private func rigCameras() throws -> [(name: String, folder: String)] {
        try cameras.map { text in
            let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw ValidationError("--camera '\(text)': expected NAME=DIR")
            }
            return (parts[0], parts[1])
        }
    }

    func validate() throws {
        _ = try models()
        let rig = try rigCameras()
        if folder == nil, rig.isEmpty { throw ValidationError("name a folder of pictures, or the cameras of a rig with --camera NAME=DIR") }
        if folder != nil, !rig.isEmpty { throw ValidationError("give a folder of pictures or --camera options, not both") }
        if rig.count == 1 { throw ValidationError("a rig needs at least two --camera options") }
        if !rig.isEmpty, undistort { throw ValidationError("--undistort is for one camera, not a rig") }
        if let pattern, pattern.lowercased() != PatternChoice.auto {
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
        let (model, named) = try models()
        let rig = try rigCameras()
        if !rig.isEmpty {
            return try runRig(cameras: rig, rigFolder: nil, model: model, named: named)
        }
        guard let folder else { return }
        if BagInput.isBag(folder) { return try runBag(folder, model: model, named: named) }
        if !topics.isEmpty || syncTolerance != nil {
            throw UsageError("--topic and --sync-tolerance go with a ROS bag (.bag, .mcap or a rosbag2 folder); \(FileNameText.escaped(folder)) is a folder")
        }
        if RigPictureSet.isRigFolder(folder) {
            if undistort { throw UsageError("--undistort is for one camera, not a rig (\(FileNameText.escaped(folder)) holds one folder per camera)") }
            return try runRig(cameras: [], rigFolder: folder, model: model, named: named)
        }
        if let name = named.keys.sorted().first {
            throw UsageError("--model \(name)=...: \(FileNameText.escaped(folder)) is one camera's pictures, not a rig")
        }
        let job = CalibrationJob(into: out, input: folder)
        let interrupt = stopOnSignal(job)
        defer { interrupt.cancel() }
        do {
            let written = try job.run(
                pictures: folder, pattern: pattern.flatMap { try? Pattern(parsing: $0) }, model: model, cameraName: cameraName,
                undistort: undistort, replacing: force, crossValidate: crossValidate
            ) { pictures in
                if let identification = pictures.identification {
                    FileHandle.standardError.write(FileNameText.escaped("\(folder): \(identification)") + "\n")
                }
                let how = pictures.source == .sidecars ? "stored detections of" : "detected \(pictures.pattern) in"
                FileHandle.standardError.write(FileNameText.escaped(
                    "\(folder): \(how) \(pictures.views.count + pictures.empty.count) pictures, target in \(pictures.withTarget.count)") + "\n")
            }
            for line in written.report.summary { FileHandle.standardError.write(FileNameText.escaped(line) + "\n") }
            for path in written.paths { StandardOutput.line(FileNameText.escaped(path)) }
        } catch {
            // A signal's handler stopped the job (which is why this failed) and ends the program
            // with 130: leave that to it rather than exit 1 first.
            if job.isStopped { DispatchSemaphore(value: 0).wait() }
            throw RuntimeError(FileNameText.escaped("\(error)"))
        }
    }

    /// Stops `job` on Ctrl-C or a termination signal, saying whether its files were already moved
    /// into --out, and ends the program with 130; cancel the returned flag once the job is done.
    func stopOnSignal(_ job: CalibrationJob) -> InterruptFlag {
        let interrupt = InterruptFlag()
        let out = out
        interrupt.onInterrupt { name in
            let written = job.stop()
            FileHandle.standardError.write(
                written ? "stopped by \(name) after the calibration files were moved into \(FileNameText.escaped(out))\n"
                    : "stopped by \(name): nothing was written\n")
            _exit(130)
        }
        return interrupt
    }

    /// Calibrates a rig of `cameras`, or the rig picture folder `rigFolder`.
    private func runRig(cameras: [(name: String, folder: String)], rigFolder: String?, model: CameraModel, named: [String: CameraModel]) throws {
        let job = CalibrationJob(into: out, input: rigFolder ?? cameras.first?.folder)
        let interrupt = stopOnSignal(job)
        defer { interrupt.cancel() }
        do {
            let written = try job.runRig(
                cameras: cameras, rigFolder: rigFolder, pattern: pattern.flatMap { try? Pattern(parsing: $0) }, models: named,
                model: model, replacing: force
            ) { rig in
                for (name, pictures) in zip(rig.names, rig.pictures) {
                    if let identification = pictures.identification {
                        FileHandle.standardError.write(FileNameText.escaped("\(name) (\(pictures.folder)): \(identification)") + "\n")
                    }
                    let how = pictures.source == .sidecars ? "stored detections of" : "detected \(pictures.pattern) in"
                    FileHandle.standardError.write(FileNameText.escaped(
                        "\(name) (\(pictures.folder)): \(how) \(pictures.views.count + pictures.empty.count) pictures, "
                            + "target in \(pictures.withTarget.count)") + "\n")
                }
            }
            for line in written.report.summary { FileHandle.standardError.write(FileNameText.escaped(line) + "\n") }
            for path in written.paths { StandardOutput.line(FileNameText.escaped(path)) }
        } catch {
            if job.isStopped { DispatchSemaphore(value: 0).wait() }
            throw RuntimeError(FileNameText.escaped("\(error)"))
        }
    }
}
