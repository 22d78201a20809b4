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

    /// The 9 shared photos (OpenCV's left-camera samples): halves of 5 and 4 views, each unsure
    /// at the image's corners, differ there by a few pixels.
    @Test(.enabled(if: SharedPhotoTests.available, "the shared photos are not next to the package (../shared/images)"))
    func openCVsNineLeftCameraSamplesAreTooFewForTheImageCorners() throws {
        let pictures = try PictureSet(folder: SharedPhotoTests.folder, pattern: Pattern(parsing: "chessboard:9x6"))
        let check = try Self.check(pictures.views)
        guard case .tooFewViews(let pixels) = check.verdict else {
            Issue.record("\(check.verdict)")
            return
        }
        #expect(pixels > 2 && pixels < 20, "the halves differ by \(pixels) px")
        #expect(check.halves.map(\.count) == [5, 4])
        #expect(check.heldOutRMS > 0 && check.heldOutRMS < 1)
    }

    /// OpenCV's 13 left-camera samples hold the board in the middle of the image: random halves
    /// agree there and differ by several pixels at the image's corners, where each half is unsure
    /// (every-other-file halves happened to agree, and called the set consistent).
    @Test(.enabled(if: OpenCVSamples.available, "\(OpenCVSamples.missing)"))
    func openCVsThirteenLeftCameraSamplesAreTooFewForTheImageCorners() throws {
        let pictures = try PictureSet(folder: OpenCVSamples.folder(), pattern: Pattern(parsing: "chessboard:9x6"))
        let check = try Self.check(pictures.views)
        guard case .tooFewViews(let pixels) = check.verdict else {
            Issue.record("\(check.verdict)")
            return
        }
        #expect(pixels > 2 && pixels < 20, "the halves differ by \(pixels) px")
        #expect(check.splits.count == 3)
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

    /// The halves are drawn at random from a fixed seed, several times: the same views under other
    /// names split the same way and give the same figures, and a second run gives the same splits.
    @Test func theSplitsAreSeededAndDoNotDependOnTheNames() throws {
        let views = try SyntheticViews.projected(
            camera: RefinementTruthTests.pinhole, columns: 12, rows: 9, noise: 0.3, seed: 11, poses: SyntheticViews.randomPoses(16, seed: 11))
        var renamed = views
        for index in renamed.indices { renamed[index].name = "z\(99 - index)-\(index % 2 == 0 ? "even" : "odd").png" }
        let first = try Self.check(views), again = try Self.check(views), other = try Self.check(renamed)
        #expect(first.splits.count == CrossValidation.defaultSplits)
        #expect(first.splits.map(\.halves) == again.splits.map(\.halves))
        #expect(first.splits.map(\.difference.percentile95) == again.splits.map(\.difference.percentile95))
        #expect(first.splits.map(\.difference.percentile95) == other.splits.map(\.difference.percentile95))
        let indexOf = Dictionary(uniqueKeysWithValues: views.enumerated().map { ($1.name, $0) })
        let indexOfRenamed = Dictionary(uniqueKeysWithValues: renamed.enumerated().map { ($1.name, $0) })
        #expect(first.splits.map { $0.halves.map { $0.map { indexOf[$0]! } } } == other.splits.map { $0.halves.map { $0.map { indexOfRenamed[$0]! } } })
        // Not every other view, and not the same halving each time.
        let everyOther = [Array(stride(from: 0, to: 16, by: 2)), Array(stride(from: 1, to: 16, by: 2))]
        #expect(first.splits.allSatisfy { $0.halves.map { $0.map { indexOf[$0]! } } != everyOther })
        #expect(Set(first.splits.map(\.halves)).count == first.splits.count)
    }

    @Test func theVerdictsAreWordedAsPromised() {
        #expect(CrossValidation.verdict(difference95: 0.3, explained95: 0.05, unsure: 0.1).description == "consistent")
        #expect(CrossValidation.verdict(difference95: 0.9, explained95: 0.5, unsure: 0.3).description == "consistent")
        #expect(CrossValidation.verdict(difference95: 3, explained95: 0.2, unsure: 0.2).description
            == "the halves disagree: they differ by 3.0 px, more than their uncertainties explain")
        #expect(CrossValidation.Verdict.modelDoesNotFit(richer: .rational).description
            == "the model does not fit: the halves disagree with it and agree with `--model rational`")
        #expect(CrossValidation.verdict(difference95: 40.2, explained95: 5, unsure: 12).description
            == "too few views: the halves differ by 40 px")
        // Explained by uncertainties that large, but too far apart to rely on.
        #expect(CrossValidation.verdict(difference95: 786, explained95: 4021, unsure: 1407) == .tooFewViews(786))
        #expect(CrossValidation.verdict(difference95: 2.9, explained95: 1.5, unsure: 0.8) == .consistent)
    }
}
