@testable import Calibration
import Foundation
import MarkerDetection
import MarkerDetectionTestSupport
import Testing

/// Cross-validation's verdicts on sets whose truth is known: "consistent" on OpenCV's left-camera
/// samples and on a good synthetic set; not consistent on a narrow set and on a fisheye lens solved
/// with the pinhole model.
@Suite struct CrossValidationTests {
    static func check(_ views: [CalibrationView], model: CameraModel = .pinhole) throws -> CrossValidation {
        let report = CalibrationReport(result: try CameraCalibration.calibrate(views, model: model), pattern: "chessboard:12x9")
        let distance = try #require(report.uncertainty?.distance)
        let check = try CrossValidation.run(report.result.run, distance: distance)
        print(
            "cross-validation: mean \(check.difference.mean) p95 \(check.difference.percentile95) explained \(check.explained95)",
            "held-out \(check.heldOutRMS) halves \(check.halvesRMS) maps p95",
            check.maps.map { ProjectionDifference.percentile($0.values, 0.95) }, "->", check.verdict)
        return check
    }

    @Test(.enabled(if: SharedPhotoTests.available, "the shared photos are not next to the package (../shared/images)"))
    func openCVsLeftCameraSamplesAreConsistent() throws {
        let pictures = try PictureSet(folder: SharedPhotoTests.folder, pattern: Pattern(parsing: "chessboard:9x6"))
        let check = try Self.check(pictures.views)
        #expect(check.verdict == .consistent)
        #expect(check.halves.map(\.count) == [5, 4])
        #expect(check.heldOutRMS > 0 && check.heldOutRMS < 1)
    }

    @Test(.enabled(if: OpenCVSamples.available, "\(OpenCVSamples.missing)"))
    func openCVsThirteenLeftCameraSamplesAreConsistent() throws {
        let pictures = try PictureSet(folder: OpenCVSamples.folder(), pattern: Pattern(parsing: "chessboard:9x6"))
        let check = try Self.check(pictures.views)
        #expect(check.verdict == .consistent)
        #expect(check.heldOutRMS > 0 && check.heldOutRMS < 1)
    }

    @Test func aGoodSyntheticSetIsConsistent() throws {
        let views = try SyntheticViews.projected(
            camera: RefinementTruthTests.pinhole, columns: 12, rows: 9, noise: 0.3, seed: 11, poses: SyntheticViews.randomPoses(30, seed: 11))
        let check = try Self.check(views)
        #expect(check.verdict == .consistent)
        #expect(check.halves.map(\.count) == [15, 15])
        // 0.3 px of noise per axis: the held-out error is about sqrt(2) x 0.3 px.
        #expect(check.heldOutRMS > 0.35 && check.heldOutRMS < 0.55, "held-out \(check.heldOutRMS)")
    }

    /// A 1920 x 1080 camera seeing a small board only near the middle of the image, nearly square on.
    @Test func aNarrowSetIsNotConsistent() throws {
        let camera = Camera(
            model: .pinhole, imageSize: ImageSize(width: 1920, height: 1080), fx: 1400, fy: 1400, cx: 960, cy: 540,
            distortion: [-0.12, 0.05, 0, 0, 0])
        var random = SplitMix64(seed: 3)
        let poses = (0..<12).map { _ in
            SyntheticViews.Pose(
                tiltX: (random.nextUniform() - 0.5) * 16, tiltY: (random.nextUniform() - 0.5) * 16,
                x: (random.nextUniform() - 0.5) * 0.4, y: (random.nextUniform() - 0.5) * 0.3, z: 5 + random.nextUniform())
        }
        let views = try SyntheticViews.projected(camera: camera, columns: 12, rows: 9, noise: 0.3, seed: 3, poses: poses)
        let check = try Self.check(views)
        guard case .tooFewViews(let pixels) = check.verdict else {
            Issue.record("\(check.verdict)")
            return
        }
        #expect(pixels > 100, "the halves differ by \(pixels) px")
    }

    /// A fisheye lens (Kannala-Brandt) seen over the whole image, solved with the pinhole model.
    @Test func aLensTheModelCannotFollowIsNotConsistent() throws {
        let camera = Camera(
            model: .fisheye, imageSize: ImageSize(width: 1280, height: 960), fx: 420, fy: 420, cx: 640, cy: 480,
            distortion: [0.08, -0.02, 0.01, -0.002])
        let views = try SyntheticViews.projected(
            camera: camera, columns: 12, rows: 9, noise: 0.2, seed: 21, depthScale: 0.8, poses: SyntheticViews.poses)
        let check = try Self.check(views)
        #expect(check.verdict != .consistent)
    }

    @Test func theVerdictsAreWordedAsPromised() {
        #expect(CrossValidation.verdict(difference95: 0.3, explained95: 0.05, unsure: 0.1).description == "consistent")
        #expect(CrossValidation.verdict(difference95: 0.9, explained95: 0.5, unsure: 0.3).description == "consistent")
        #expect(CrossValidation.verdict(difference95: 3, explained95: 0.2, unsure: 0.2).description
            == "the model does not fit: try `--model rational` or more views")
        #expect(CrossValidation.verdict(difference95: 40.2, explained95: 5, unsure: 12).description
            == "too few views: the halves differ by 40 px")
        // Explained by uncertainties that large, but too far apart to rely on.
        #expect(CrossValidation.verdict(difference95: 786, explained95: 4021, unsure: 1407) == .tooFewViews(786))
        #expect(CrossValidation.verdict(difference95: 2.9, explained95: 1.5, unsure: 0.8) == .consistent)
    }
}
