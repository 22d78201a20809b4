import Foundation
import Testing

/// `marker-shutter compare` end to end on calibrations of the shared chessboard photos.
@Suite struct CompareCommandTests {
    @Test(.enabled(if: FileManager.default.fileExists(atPath: CalibrateCommandTests.chessboard + "/left01.jpg"),
                   "the shared photos are not next to the package (../shared/images)"))
    func twoCalibrationsAreComparedAndDifferentModelsRefused() throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try CalibrateCommandTests.copyPhotos(1...9, into: scratch + "/photos")
        for (out, model) in [("pinhole", "pinhole"), ("again", "pinhole"), ("fisheye", "fisheye")] {
            let result = try MarkerShutterBinary.run(
                ["calibrate", "photos", "--pattern", "chessboard:9x6", "--model", model, "--out", out, "--no-cross-validate"], in: scratch)
            #expect(result.status == 0, "\(result.standardError)")
            // No halves compared, and the verdict says so.
            #expect(!result.standardError.split(separator: "\n").contains { $0.hasPrefix("cross-validation") })
            #expect(result.standardError.contains("the halves were not compared (cross-validation was turned off)"))
        }
        let same = try MarkerShutterBinary.run(["compare", "pinhole", "again/calibration.json", "--output", "diff"], in: scratch)
        #expect(same.status == 0, "\(same.standardError)")
        let lines = same.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 5, "\(lines)")
        #expect(lines.first == "projection difference (rotation between them fitted), px: mean 0.00, 95th percentile 0.00, centre 0.00")
        #expect(lines.last?.hasPrefix("verdict: consistent (their uncertainties explain ") == true)
        #expect(same.standardError == "wrote diff/difference.png\n")
        #expect(FileManager.default.fileExists(atPath: scratch + "/diff/difference.png"))

        // The picture is there now: a second run keeps it, says so before printing anything, and
        // replaces it only with --force.
        let before = try Data(contentsOf: URL(fileURLWithPath: scratch + "/diff/difference.png"))
        try Data("mine".utf8).write(to: URL(fileURLWithPath: scratch + "/diff/difference.png"))
        let kept = try MarkerShutterBinary.run(["compare", "pinhole", "again", "--output", "diff"], in: scratch)
        #expect(kept.status == 1)
        #expect(kept.standardOutput.isEmpty, "\(kept.standardOutput)")
        #expect(kept.standardError.contains("diff/difference.png exists; use --force to replace it"), "\(kept.standardError)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch + "/diff/difference.png")) == Data("mine".utf8))
        let replaced = try MarkerShutterBinary.run(["compare", "pinhole", "again", "--output", "diff", "--force"], in: scratch)
        #expect(replaced.status == 0, "\(replaced.standardError)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch + "/diff/difference.png")) == before)
        let forceAlone = try MarkerShutterBinary.run(["compare", "pinhole", "again", "--force"], in: scratch)
        #expect(forceAlone.status == 64 && forceAlone.standardError.contains("--force replaces the picture of --output"),
                "\(forceAlone.status) \(forceAlone.standardError)")

        let refused = try MarkerShutterBinary.run(["compare", "pinhole", "fisheye"], in: scratch)
        #expect(refused.status == 1)
        #expect(refused.standardOutput.isEmpty)
        #expect(refused.standardError.contains(
            "the calibrations use different lens models (pinhole in pinhole/calibration.json and fisheye in fisheye/calibration.json)"))
        let missing = try MarkerShutterBinary.run(["compare", "pinhole", "photos"], in: scratch)
        #expect(missing.status == 1)
        #expect(missing.standardError.contains("cannot read photos: the folder has no calibration.json (one camera) or rig.yaml (a rig)"))
    }
}

/// `compare` of calibrations other tools wrote, read with their own formats.
@Suite struct ForeignCompareCommandTests {
    /// A rig solved with a size and pinhole-radtan: its camchain by camera name and by rostopic,
    /// its mrcal model, camera_info and rig folder by name all compare with the same camera's
    /// calibration.yaml (read by OpenCV's FileStorage), 0 px apart; a camera's own solve is apart
    /// and, its other side having no uncertainty map, not enough to judge; several cameras and none named is
    /// refused, naming them.
    @Test func everyFormatOfTheSameCameraCompares() throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try RigCalibrateCommandTests.rigFolder(scratch + "/pictures")
        let solved = try MarkerShutterBinary.run(
            ["calibrate", "pictures", "--pattern", "chessboard:9x6:square=25mm", "--model", "pinhole-radtan", "--out", "rig"], in: scratch)
        #expect(solved.status == 0, "\(solved.standardError)")
        for (first, second) in [
            ("rig/mrcal/right.cameramodel", "rig/camera_info/right.yaml"), ("rig/camchain.yaml:cam1", "rig:right"),
            ("rig/camchain.yaml:right", "rig/rig.yaml:right"), ("rig/mrcal/left.cameramodel", "rig/camchain.yaml:/left/image_raw"),
        ] {
            let result = try MarkerShutterBinary.run(["compare", first, second], in: scratch)
            #expect(result.status == 0, "\(first) \(second): \(result.standardError)")
            let lines = result.standardOutput.split(separator: "\n").map(String.init)
            #expect(lines.first == "projection difference (rotation between them fitted), px: mean 0.00, 95th percentile 0.00, centre 0.00")
            #expect(lines.contains { $0.hasPrefix("first (\(first)") && $0.hasSuffix("no uncertainty map in the file (\(Self.format(first)))") })
            #expect(lines.last == "verdict: consistent (within 0.50 px at the 95th percentile, whatever their uncertainties)")
        }
        let alone = try MarkerShutterBinary.run(["compare", "rig/mrcal/right.cameramodel", "rig/right-alone"], in: scratch)
        #expect(alone.status == 0, "\(alone.standardError)")
        let lines = alone.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("second (rig/right-alone/calibration.json): uncertainty centre ") })
        #expect(lines.last?.hasPrefix("verdict: ") == true)
        let several = try MarkerShutterBinary.run(["compare", "rig/camchain.yaml", "rig:left"], in: scratch)
        #expect(several.status == 1)
        #expect(several.standardError.contains("this Kalibr camchain holds 2 cameras (cam0, cam1): name one as rig/camchain.yaml:NAME"))
        let unknown = try MarkerShutterBinary.run(["compare", "rig:middle", "rig:left"], in: scratch)
        #expect(unknown.status == 1)
        #expect(unknown.standardError.contains("no camera middle in this rig.yaml (it has left, right)"))
    }

    static func format(_ argument: String) -> String {
        if argument.contains("cameramodel") { return "mrcal cameramodel" }
        if argument.contains("camchain") { return "Kalibr camchain" }
        if argument.contains("camera_info") { return "ROS camera_info" }
        return "rig.yaml"
    }
}
