import Foundation
import Testing

/// `marker-shutter calibrate` of a rig end to end, on OpenCV's stereo sample (Samples/stereo-pair).
@Suite struct RigCalibrateCommandTests {
    static let sample = MarkerShutterBinary.packageRoot + "/Samples/stereo-pair"
    static let numbers = ["01", "02", "03", "04", "05", "06", "07", "08", "09", "11", "12", "13", "14"]

    /// `folder/left` and `folder/right`, links to the sample's folders.
    static func rigFolder(_ folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for side in ["left", "right"] {
            try FileManager.default.createSymbolicLink(atPath: "\(folder)/\(side)", withDestinationPath: "\(sample)/\(side)")
        }
    }

    /// What a rig of pinhole cameras writes: no camchain.yaml (Kalibr's radtan has no k3).
    static let files = [
        "rig.yaml", "rig.json", "camera_info/left.yaml", "camera_info/right.yaml", "mrcal/left.cameramodel", "mrcal/right.cameramodel",
        "left-alone/calibration.yaml", "left-alone/calibration.json", "left-alone/coverage.png", "left-alone/residuals.png",
        "left-alone/uncertainty.png",
        "right-alone/calibration.yaml", "right-alone/calibration.json", "right-alone/coverage.png", "right-alone/residuals.png",
        "right-alone/uncertainty.png",
        "rectified/",
    ]

    /// `--camera left=DIR --camera right=DIR` with a size and pinhole-radtan: every file, camchain.yaml
    /// among them, lengths in metres, the summary per camera and for the rig.
    @Test func perCameraFoldersGiveEveryFileAndASummary() throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try Self.rigFolder(scratch + "/pictures")
        let result = try MarkerShutterBinary.run(
            ["calibrate", "--camera", "left=pictures/left", "--camera", "right=pictures/right", "--pattern", "chessboard:9x6:square=25mm",
             "--model", "pinhole-radtan", "--out", "rig"], in: scratch)
        #expect(result.status == 0, "\(result.standardError)")
        let files = [Self.files[0], "camchain.yaml"] + Self.files.dropFirst()
        #expect(result.standardOutput.split(separator: "\n").map(String.init) == files.map { "rig/\($0)" })
        let lines = result.standardError.split(separator: "\n").map(String.init)
        #expect(lines.first == "left (pictures/left): detected chessboard:9x6:square=25mm in 13 pictures, target in 13")
        #expect(lines.contains("camera left, on its own:"))
        #expect(lines.contains("  views: 13 used, 0 rejected (model pinhole-radtan, image 640x480, pattern chessboard:9x6:square=25mm)"))
        #expect(lines.contains("rig: 2 cameras, 13 sets used, 0 dropped (pattern chessboard:9x6:square=25mm)"))
        #expect(lines.contains("  right placed from left (13 shared sets)"))
        // 3.3268 squares of 25 mm (guide.md).
        #expect(lines.contains { $0.hasPrefix("  right from left: baseline 0.0831") && $0.hasSuffix(" m, rotation 0.482 ± 0.207 degrees (95%)") },
                "\(lines)")
        #expect(lines.contains("  lengths (T, baselines, P2, Q, Tx of camera_info, T_cn_cnm1) are in metres (pattern chessboard:9x6:square=25mm)"))
        #expect(!lines.contains { $0.contains("left out") })
        #expect(lines.contains { $0.hasPrefix("  epipolar error left-right: mean ") })
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch + "/rig/rectified").count == 13)
    }

    /// `--model fisheye` on the stereo sample: OpenCV's fisheye solve cannot start with the right
    /// camera's 12.jpg (it returns its initial guess unchanged), so that view is left out with the
    /// reason and the rest solve; the rig's joint intervals take in the spread between sets.
    @Test func fisheyeLeavesOutTheViewOpenCVsFisheyeSolveCannotStartWith() throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try Self.rigFolder(scratch + "/pictures")
        let result = try MarkerShutterBinary.run(
            ["calibrate", "pictures", "--pattern", "chessboard:9x6", "--model", "fisheye", "--out", "rig"], in: scratch)
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardError.split(separator: "\n").map(String.init)
        #expect(lines.contains("  views: 12 used, 1 rejected (model fisheye, image 640x480, pattern chessboard:9x6)"), "\(lines)")
        #expect(lines.contains {
            $0.hasPrefix("    rejected 12.jpg: OpenCV's fisheye::calibrate cannot start with this view (its pose from the board's "
                + "homography fails); without it the start's RMS is 0.18")
        }, "\(lines)")
        #expect(lines.contains("rig: 2 cameras, 13 sets used, 0 dropped (pattern chessboard:9x6)"))
        #expect(lines.contains("  right placed from left (12 shared sets)"))
        #expect(lines.contains("  95% intervals cover the corners' scatter about the fit (the covariance of the solve) and the spread between "
            + "sets (a jackknife over groups of sets); they do not cover an error every set shares alike (a board whose size is wrong, "
            + "a lens every set sees the same way the model cannot follow)"), "\(lines)")
        #expect(FileManager.default.fileExists(atPath: scratch + "/rig/rig.yaml"))
        #expect(FileManager.default.fileExists(atPath: scratch + "/rig/right-alone/calibration.json"))
    }

    /// A rig picture folder (one subfolder per camera, each set's sidecar beside them, not read)
    /// with a model per camera.
    @Test func aRigPictureFolderIsCalibratedAsARig() throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try Self.rigFolder(scratch + "/pictures")
        for number in Self.numbers { try "{}\n".write(toFile: "\(scratch)/pictures/\(number).json", atomically: true, encoding: .utf8) }
        let result = try MarkerShutterBinary.run(
            ["calibrate", "pictures", "--pattern", "chessboard:9x6", "--model", "right=rational", "--out", "rig"], in: scratch)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.split(separator: "\n").map(String.init) == Self.files.map { "rig/\($0)" })
        let lines = result.standardError.split(separator: "\n").map(String.init)
        #expect(lines.contains("  views: 13 used, 0 rejected (model rational, image 640x480, pattern chessboard:9x6)"))
        #expect(lines.contains("  views: 13 used, 0 rejected (model pinhole, image 640x480, pattern chessboard:9x6)"))
        let yaml = try String(contentsOfFile: scratch + "/rig/rig.yaml", encoding: .utf8)
        #expect(yaml.contains("      model: rational\n"))
    }

    /// The sets' sidecars name the cameras in the rig's order (`live --camera right=... --camera
    /// left=...`): the first they name is the reference, whatever the names' order; a sidecar that
    /// cannot be read is passed over, and without any the cameras come in name order.
    @Test func theSetSidecarsGiveTheCamerasOrder() throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try Self.rigFolder(scratch + "/pictures")
        try "not json\n".write(toFile: "\(scratch)/pictures/00.json", atomically: true, encoding: .utf8)
        for number in Self.numbers {
            let cameras = ["right", "left"].map { name in
                "{\"name\":\"\(name)\",\"image\":\"\(name)/\(number).png\",\"sidecar\":\"\(name)/\(number).json\",\"t\":1,"
                    + "\"valid\":true,\"markers\":0,\"corners\":54}"
            }
            try "{\"set\":\"\(number)\",\"cameras\":[\(cameras.joined(separator: ","))]}\n"
                .write(toFile: "\(scratch)/pictures/\(number).json", atomically: true, encoding: .utf8)
        }
        let result = try MarkerShutterBinary.run(["calibrate", "pictures", "--pattern", "chessboard:9x6", "--out", "rig"], in: scratch)
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardError.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("right (pictures/right): ") == true, "\(lines.first ?? "")")
        #expect(lines.contains("  left placed from right (13 shared sets)"), "\(result.standardError)")
    }

    /// An --out with files is refused before anything is read; --force replaces the rig's files.
    @Test func anOutWithFilesIsRefusedUnlessForced() throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try Self.rigFolder(scratch + "/pictures")
        try FileManager.default.createDirectory(atPath: scratch + "/rig", withIntermediateDirectories: true)
        try "keep\n".write(toFile: scratch + "/rig/notes.txt", atomically: true, encoding: .utf8)
        let arguments = ["calibrate", "--camera", "left=pictures/left", "--camera", "right=pictures/right", "--pattern", "chessboard:9x6",
                         "--out", "rig"]
        let refused = try MarkerShutterBinary.run(arguments, in: scratch)
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("rig is not empty: give a new or empty folder, or --force"), "\(refused.standardError)")
        #expect(!refused.standardError.contains("detected chessboard"))
        let forced = try MarkerShutterBinary.run(arguments + ["--force"], in: scratch)
        #expect(forced.status == 0, "\(forced.standardError)")
        #expect(FileManager.default.fileExists(atPath: scratch + "/rig/rig.yaml"))
        #expect(try String(contentsOfFile: scratch + "/rig/notes.txt", encoding: .utf8) == "keep\n")
    }

    /// One camera's pictures copied as a second camera's: the solve finds no baseline, and the
    /// summary says so plainly rather than print a rig.
    @Test func aCopiedCameraIsSaidToHaveNoBaseline() throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try Self.rigFolder(scratch + "/pictures")
        try FileManager.default.copyItem(atPath: Self.sample + "/left", toPath: scratch + "/copy")
        let result = try MarkerShutterBinary.run(
            ["calibrate", "--camera", "left=pictures/left", "--camera", "copy=copy", "--pattern", "chessboard:9x6", "--out", "out"], in: scratch)
        #expect(result.standardError.contains(
            "the baseline is within its interval of zero: as far as these sets tell, copy sees from where left does"),
            "\(result.standardError)")
        #expect(result.standardError.contains("no stereo rectification (R1, R2, P1, P2, Q) is written"), "\(result.standardError)")
        // Nothing divides by the baseline: no rectification, and no Q of 1e15.
        let rig = try String(contentsOfFile: scratch + "/out/rig.yaml", encoding: .utf8)
        #expect(rig.contains("T: !!opencv-matrix"), "the pose is written")
        for key in ["R1:", "R2:", "P1:", "P2:", "Q:"] { #expect(!rig.contains(key), "\(key) in \(rig)") }
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: scratch + "/out/rig.json"))) as? [String: Any]
        let pair = (json?["pairs"] as? [[String: Any]])?.first
        #expect(pair != nil && (pair?["Q"] == nil || pair?["Q"] is NSNull), "\(String(describing: pair))")
    }

    /// Usage mistakes: one --camera, a folder and --camera together, --camera without a folder,
    /// a camera's --model for one camera's pictures, --undistort for a rig.
    @Test func rigUsageMistakesAreRefused() throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try Self.rigFolder(scratch + "/pictures")
        let cases: [([String], String)] = [
            (["--camera", "left=pictures/left"], "a rig needs at least two --camera options"),
            (["pictures", "--camera", "left=a", "--camera", "right=b"], "give a folder of pictures or --camera options, not both"),
            (["--camera", "left", "--camera", "right=b"], "--camera 'left': expected NAME=DIR"),
            (["pictures/left", "--model", "left=rational", "--pattern", "chessboard:9x6"],
             "--model left=...: pictures/left is one camera's pictures, not a rig"),
            (["--camera", "left=pictures/left", "--camera", "right=pictures/right", "--undistort"], "--undistort is for one camera, not a rig"),
            (["--camera", "rig.yaml=pictures/left", "--camera", "right=pictures/right", "--pattern", "chessboard:9x6"],
             "camera name \"rig.yaml\" cannot name a folder of the results"),
            // One folder for two cameras, as given or under another path: a rig with no baseline.
            (["--camera", "left=pictures/left", "--camera", "right=pictures/left", "--pattern", "chessboard:9x6"],
             "cameras left and right name one folder, pictures/left: each camera of a rig needs its own pictures"),
            (["--camera", "left=pictures/left", "--camera", "right=pictures/../pictures/left/", "--pattern", "chessboard:9x6"],
             "cameras left and right name one folder (pictures/left and pictures/../pictures/left/)"),
        ]
        for (arguments, message) in cases {
            let result = try MarkerShutterBinary.run(["calibrate"] + arguments + ["--out", "out"], in: scratch)
            #expect(result.status != 0, "\(arguments)")
            #expect(result.standardError.contains(message), "\(arguments): \(result.standardError)")
            #expect(!result.standardError.contains("OpenCV"), "\(arguments): \(result.standardError)")
            #expect(!FileManager.default.fileExists(atPath: scratch + "/out"), "\(arguments)")
        }
    }
}
