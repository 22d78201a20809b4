import Calibration
import Foundation
import MarkerDetection
import MarkerDetectionTestSupport
import Testing

/// The refinement on Ceres Solver against a known camera: its 95% intervals hold the truth about 95
/// times in 100, and a few wrong corners do not move it.
///
/// Each test runs 20 seeded trials (10 for the wrong corners); with `MARKER_SHUTTER_FULL_TRIALS=1`
/// in the environment, 100 (about a minute of solving per 100 trials in a debug build).
@Suite struct RefinementTruthTests {
    /// A webcam-like lens, pinhole with all 5 coefficients.
    static let pinhole = Camera(
        model: .pinhole, imageSize: ImageSize(width: 640, height: 480), fx: 500, fy: 496, cx: 322.5, cy: 237,
        distortion: [-0.28, 0.09, 0.0012, -0.0008, -0.02])

    static let full = ProcessInfo.processInfo.environment["MARKER_SHUTTER_FULL_TRIALS"] == "1"

    /// 30 views of a 12 x 9 board through `pinhole` in random poses, with 0.3 px of noise, all
    /// drawn from `seed`.
    static func views(seed: UInt64) throws -> [CalibrationView] {
        try SyntheticViews.projected(
            camera: pinhole, columns: 12, rows: 9, noise: 0.3, seed: seed, poses: SyntheticViews.randomPoses(30, seed: seed))
    }

    /// How many of `trials` seeded trials have the true fx, fy, cx and cy inside the reported 95% intervals.
    static func coverage(trials: Int) throws -> [String: Int] {
        var inside = ["fx": 0, "fy": 0, "cx": 0, "cy": 0]
        for trial in 0..<trials {
            let result = try CameraCalibration.calibrate(try views(seed: UInt64(1000 + trial)), model: .pinhole)
            for (name, value) in [("fx", pinhole.fx), ("fy", pinhole.fy), ("cx", pinhole.cx), ("cy", pinhole.cy)] {
                let parameter = try #require(result.run.parameter(name))
                if abs(parameter.value - value) <= parameter.interval95 { inside[name, default: 0] += 1 }
            }
        }
        return inside
    }

    /// The counts are those of these seeds, exactly: the solve is deterministic. Over 100 trials
    /// the four together hold the truth 382 times in 400 (95.5%); cy's 98 is one above the 93 to 97
    /// a 95% interval should give, within the scatter of 100 trials (1 in 8 such runs reaches 98).
    @Test func intervalsHoldTheTruthAbout95TimesIn100() throws {
        let trials = Self.full ? 100 : 20
        let inside = try Self.coverage(trials: trials)
        print("truth inside the 95% intervals in \(trials) trials: fx \(inside["fx"]!), fy \(inside["fy"]!), cx \(inside["cx"]!), cy \(inside["cy"]!)")
        if Self.full {
            #expect(inside == ["fx": 93, "fy": 94, "cx": 97, "cy": 98])
        } else {
            #expect(inside == Self.expectedIn20)
        }
        let pooled = inside.values.reduce(0, +)
        #expect(Double(pooled) / Double(4 * trials) >= 0.9 && Double(pooled) / Double(4 * trials) <= 0.99, "\(inside)")
    }

    static let expectedIn20 = ["fx": 19, "fy": 19, "cx": 20, "cy": 20]

    /// 2% of the corners moved 2 to 6 px: the refined camera is no further from the truth (mean
    /// over the image) than 1.1 times the clean solve's, where OpenCV's solve alone is pulled well
    /// away (over 1.3 times).
    @Test func wrongCornersMoveTheCameraNoFurtherThanATenthMore() throws {
        let trials = Self.full ? 100 : 10
        var clean = 0.0, wrong = 0.0, openCVWrong = 0.0, dropped = 0
        for trial in 0..<trials {
            let views = try Self.views(seed: UInt64(1000 + trial))
            let moved = SyntheticViews.withWrongCorners(views, fraction: 0.02, seed: UInt64(5000 + trial))
            let result = try CameraCalibration.calibrate(moved, model: .pinhole)
            clean += try SyntheticViews.meanModelError(
                truth: Self.pinhole, estimate: try CameraCalibration.calibrate(views, model: .pinhole).camera)
            wrong += try SyntheticViews.meanModelError(truth: Self.pinhole, estimate: result.camera)
            openCVWrong += try SyntheticViews.meanModelError(
                truth: Self.pinhole, estimate: try CameraCalibration.calibrate(moved, model: .pinhole, refinement: nil).camera)
            dropped += result.run.droppedCornerCount
        }
        let n = Double(trials)
        print("mean error against the truth over \(trials) trials: clean \(clean / n) px, 2% wrong corners \(wrong / n) px "
              + "(\(dropped) corners dropped), OpenCV alone on them \(openCVWrong / n) px")
        #expect(wrong <= 1.1 * clean, "clean \(clean / n), wrong \(wrong / n)")
        #expect(openCVWrong > 1.3 * clean, "OpenCV alone: \(openCVWrong / n)")
        #expect(dropped > 0)
    }
}
