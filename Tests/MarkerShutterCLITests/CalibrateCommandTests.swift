import Foundation
import MarkerDetection
import MarkerDetectionTestSupport
import Pixels
import Testing

/// `marker-shutter calibrate` end to end on the shared chessboard photos.
@Suite struct CalibrateCommandTests {
    static let chessboard = MarkerShutterBinary.sharedImages + "/chessboard"

    static func contents(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    /// Copies the shared chessboard photos `left0N.jpg` numbered `numbers` into a new `folder`.
    static func copyPhotos(_ numbers: ClosedRange<Int>, into folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for n in numbers {
            try FileManager.default.copyItem(atPath: chessboard + "/left0\(n).jpg", toPath: folder + "/left0\(n).jpg")
        }
    }

    /// Copies of a picture (a file copied, a frame saved twice) count once: the copies are set
    /// aside, named with the picture they repeat, and the intervals are those without them.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: chessboard + "/left01.jpg"),
                   "the shared photos are not next to the package (../shared/images)"))
    func copiesOfAPictureCountOnce() throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try Self.copyPhotos(1...9, into: scratch + "/photos")
        try Self.copyPhotos(1...9, into: scratch + "/with-copies")
        for copy in 1...5 {
            try FileManager.default.copyItem(atPath: Self.chessboard + "/left03.jpg", toPath: scratch + "/with-copies/z-copy\(copy).jpg")
        }
        func focal(_ folder: String) throws -> (line: String, summary: String) {
            let result = try MarkerShutterBinary.run(
                ["calibrate", folder, "--pattern", "chessboard:9x6", "--out", folder + "-out", "--no-cross-validate"], in: scratch)
            #expect(result.status == 0, "\(result.standardError)")
            let line = try #require(result.standardError.split(separator: "\n").first { $0.hasPrefix("  fx = ") }, "\(result.standardError)")
            return (String(line), result.standardError)
        }
        let alone = try focal("photos"), copied = try focal("with-copies")
        #expect(copied.line == alone.line, "\(alone.line) without copies, \(copied.line) with")
        #expect(copied.summary.contains("views: 9 used, 5 rejected"), "\(copied.summary)")
        for copy in 1...5 {
            #expect(copied.summary.contains("  rejected z-copy\(copy).jpg: the same view as left03.jpg (a copy counts once)"),
                    "\(copied.summary)")
        }
    }

    @Test func chessboardPhotosGiveEveryFileAndASummary() throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let result = try MarkerShutterBinary.run(
            ["calibrate", Self.chessboard, "--pattern", "chessboard:9x6", "--out", "cal", "--undistort"], in: scratch)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.split(separator: "\n") == [
            "cal/calibration.yaml", "cal/camera_info.yaml", "cal/calibration.json", "cal/coverage.png", "cal/residuals.png", "cal/uncertainty.png",
            "cal/calibration.cameramodel", "cal/undistorted/",
        ])
        #expect(Self.contents(scratch) == ["cal"])
        #expect(Self.contents(scratch + "/cal") == [
            "calibration.cameramodel", "calibration.json", "calibration.yaml", "camera_info.yaml", "coverage.png", "residuals.png",
            "uncertainty.png", "undistorted",
        ])
        #expect(Self.contents(scratch + "/cal/undistorted") == (1...9).map { "left0\($0).png" })
        let lines = result.standardError.split(separator: "\n").map(String.init)
        #expect(lines.first == "\(Self.chessboard): detected chessboard:9x6 in 9 pictures, target in 9")
        #expect(lines.contains("views: 9 used, 0 rejected (model pinhole, image 640x480, pattern chessboard:9x6)"))
        for name in ["fx", "fy", "cx", "cy"] {
            // The interval, with its two parts when the views spread beyond the corners' scatter.
            #expect(lines.contains {
                $0.hasPrefix("  \(name) = ") && ($0.hasSuffix(" px (95%)") || ($0.contains(" px (95%; corners ± ") && $0.contains(", views ± ")))
            }, "\(name) in \(lines)")
        }
        #expect(lines.contains { $0.hasPrefix("coverage: ") && $0.hasSuffix("% of the image (8x6 cells with 3+ corners)") })
        #expect(lines.contains("advice: only 9 views were used: 15 to 30 varied views calibrate reliably"))
    }

    /// Pictures `live --auto` took from the sample session, calibrated from their sidecars' stored
    /// detections; the sidecars are read, not the pictures, and the picture folder is left as it was.
    @Test func livePicturesAreCalibratedFromTheirSidecars() throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let session = MarkerShutterBinary.packageRoot + "/Samples/charuco-session"
        let live = try MarkerShutterBinary.run(["live", "--replay", session, "--auto", "--out", "picks"], in: scratch)
        #expect(live.status == 0, "\(live.standardError)")
        let pictures = Self.contents(scratch + "/picks")
        try #require(pictures.count >= 8, "\(pictures)")
        let result = try MarkerShutterBinary.run(["calibrate", "picks", "--camera-name", "sample"], in: scratch)
        #expect(result.status == 0, "\(result.standardError)")
        let count = pictures.count / 2
        #expect(result.standardError.hasPrefix("picks: stored detections of \(count) pictures, target in \(count)\n"))
        // Which frames a replay detects, and so which pictures it takes, depends on how busy the
        // machine is; a picture taken on a busier run may be rejected as an outlier view.
        let views = try #require(result.standardError.split(separator: "\n").first { $0.hasPrefix("views: ") })
        let numbers = views.split(separator: " ").compactMap { Int($0) }
        #expect(numbers.count == 2 && numbers[0] + numbers[1] == count && numbers[0] > numbers[1], "\(views)")
        #expect(views.hasSuffix(" rejected (model pinhole, image 640x480, pattern charuco:5x7:DICT_6X6_250)"), "\(views)")
        #expect(Self.contents(scratch + "/picks") == pictures)
        let info = try String(contentsOfFile: scratch + "/calibration/camera_info.yaml", encoding: .utf8)
        #expect(info.contains("camera_name: \"sample\"\n"))
    }

    /// A folder of AprilGrid pictures (the board command's drawing seen tilted every way through a
    /// pinhole camera whose focal length is 704 px) calibrated with `--pattern aprilgrid:...`.
    @Test func aprilGridPicturesAreDetectedAndCalibrated() throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try FileManager.default.createDirectory(atPath: scratch + "/photos", withIntermediateDirectories: true)
        let pattern = "aprilgrid:5x4:tag36h11:size=0.05"
        let board = try PrintableTarget.render(Pattern(parsing: pattern), width: 1000, height: 820, margin: 30)
        let tilts: [(Double, Double)] = [(0, 0), (35, 0), (-35, 0), (0, 35), (0, -35), (25, 25), (-25, 25), (25, -25), (-25, -25)]
        for (index, (tiltX, tiltY)) in tilts.enumerated() {
            let homography = Homography.camera(
                sourceWidth: board.width, sourceHeight: board.height, targetWidth: 640, targetHeight: 480,
                tiltX: tiltX, tiltY: tiltY, distance: 1.5, focal: 704)
            let image = try SyntheticImage.blur(
                SyntheticImage.warp(board, by: homography, width: 640, height: 480, background: 200), sigma: 0.7)
            try Data(ImageFile.encode(image, as: .png)).write(to: URL(fileURLWithPath: scratch + "/photos/view\(index).png"))
        }
        let result = try MarkerShutterBinary.run(["calibrate", "photos", "--pattern", pattern], in: scratch)
        #expect(result.status == 0, "\(result.standardError)")
        // The six files and the mrcal model.
        #expect(result.standardOutput.split(separator: "\n").count == 7)
        let lines = result.standardError.split(separator: "\n").map(String.init)
        #expect(lines.first == "photos: detected \(pattern) in 9 pictures, target in 9")
        #expect(lines.contains("views: 9 used, 0 rejected (model pinhole, image 640x480, pattern \(pattern))"), "\(lines)")
        let json = try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: scratch + "/calibration/calibration.json"))) as? [String: Any]
        let matrix = try #require(json?["camera_matrix"] as? [Double])
        #expect(abs(matrix[0] / 704 - 1) < 0.01 && abs(matrix[4] / 704 - 1) < 0.01, "fx \(matrix[0]), fy \(matrix[4])")
        #expect(json?["pattern"] as? String == pattern)
        #expect(((json?["first_run"] as? [String: Any])?["views"] as? [Any])?.count == 9)
    }

    /// Loose markers have no layout to calibrate against: a usage error before anything is read.
    @Test(arguments: ["apriltag:tag36h11", "aruco:DICT_6X6_250"])
    func looseMarkersAreRefused(pattern: String) throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let result = try MarkerShutterBinary.run(["calibrate", Self.chessboard, "--pattern", pattern], in: scratch)
        #expect(result.status == 64)
        #expect(result.standardError.contains("--pattern: pattern \(pattern) is loose markers, whose places on the target "
            + "are unknown; calibration needs a board: charuco, chessboard, gridboard or aprilgrid"), "\(result.standardError)")
        #expect(Self.contents(scratch).isEmpty)
    }

    @Test func tooFewViewsWritesNothing() throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try Self.copyPhotos(1...3, into: scratch + "/photos")
        let result = try MarkerShutterBinary.run(
            ["calibrate", "photos", "--pattern", "chessboard:9x6", "--model", "rational"], in: scratch)
        #expect(result.status == 1)
        #expect(result.standardError.contains(
            "Error: 3 usable views, but the rational model needs at least 4. Take more pictures"), "\(result.standardError)")
        #expect(Self.contents(scratch) == ["photos"])
        #expect(Self.contents(scratch + "/photos") == ["left01.jpg", "left02.jpg", "left03.jpg"])
    }

    /// Eight photos at 640x480 and one cut to 600x480 (the board still in it): one camera at one
    /// resolution is calibrated at a time, so the command names both sizes and writes nothing.
    @Test func mixedImageSizesAreNamedAndNothingIsWritten() throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try Self.copyPhotos(2...9, into: scratch + "/photos")
        let photo = try ImageFile.read(Self.chessboard + "/left01.jpg")
        let width = 600 * photo.format.bytesPerPixel
        let cut = try PixelBuffer(
            copying: (0..<photo.height).flatMap { photo.row($0).prefix(width) }, width: 600, height: photo.height,
            format: photo.format)
        try Data(ImageFile.encode(cut, as: .png)).write(to: URL(fileURLWithPath: scratch + "/photos/left01.png"))
        let result = try MarkerShutterBinary.run(["calibrate", "photos", "--pattern", "chessboard:9x6"], in: scratch)
        #expect(result.status == 1)
        #expect(result.standardError.contains(
            "Error: the pictures have different sizes (640x480 in 8 (left02.jpg, ...), 600x480 in 1 (left01.png)); "
                + "a calibration is for one camera at one resolution"), "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
        #expect(Self.contents(scratch) == ["photos"])
        #expect(Self.contents(scratch + "/photos").count == 9)
    }

    @Test func aCorruptedSidecarIsNamedAndNothingIsWritten() throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try FileManager.default.createDirectory(atPath: scratch + "/picks", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: scratch + "/picks/capture_0001.png", contents: Data()))
        try "{\"image\": \"capture_0001.png\", \"pattern\": ".write(
            toFile: scratch + "/picks/capture_0001.json", atomically: true, encoding: .utf8)
        let result = try MarkerShutterBinary.run(["calibrate", "picks"], in: scratch)
        #expect(result.status == 1)
        #expect(result.standardError == "Error: cannot read picks/capture_0001.json: corrupted sidecar: not a JSON object\n")
        #expect(result.standardOutput.isEmpty)
        #expect(Self.contents(scratch) == ["picks"])
    }

    @Test func theResultsNeverGoIntoTheInputFolder() throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try Self.copyPhotos(1...9, into: scratch + "/photos")
        let result = try MarkerShutterBinary.run(
            ["calibrate", "photos", "--pattern", "chessboard:9x6", "--out", "photos/calibration"], in: scratch)
        #expect(result.status == 1)
        #expect(result.standardError.contains("it is inside the input folder photos, which is never written into"))
        #expect(Self.contents(scratch) == ["photos"])
        #expect(Self.contents(scratch + "/photos").count == 9)
    }

    @Test func anUnknownModelIsAUsageError() throws {
        let result = try MarkerShutterBinary.run(["calibrate", Self.chessboard, "--model", "orthographic"])
        #expect(result.status == 64)
        #expect(result.standardError.contains("unknown --model 'orthographic': expected pinhole, pinhole-radtan, rational or fisheye"))
    }
}
