@testable import Calibration
import Foundation
import MarkerDetection
import Testing

/// The map and the cross-validation in what `calibrate` writes and prints: calibration.json's
/// fields, the summary's lines, the advice.
@Suite struct UncertaintyReportTests {
    static func report() throws -> CalibrationReport {
        var report = CalibrationReport(
            result: try CameraCalibration.calibrate(ProjectionUncertaintyTests.syntheticViews(), model: .pinhole), pattern: "chessboard:12x9")
        report.crossValidate(nil)
        return report
    }

    @Test func calibrationJSONHoldsTheMapAndTheCrossValidation() throws {
        let report = try Self.report()
        let map = try #require(report.uncertainty)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
        let uncertainty = try #require(object["projection_uncertainty"] as? [String: Any])
        #expect(uncertainty["measure"] as? String == "worstdirection-stdev")
        // JSON text read back by JSONSerialization may differ in the last digit.
        func close(_ a: Double?, _ b: Double) -> Bool { a.map { abs($0 - b) <= 1e-12 * max(1, abs(b)) } ?? false }
        #expect(close(uncertainty["centre_px"] as? Double, map.centre))
        let corners = try #require(uncertainty["corners_px"] as? [Double])
        #expect(corners.count == 4 && zip(corners, map.corners).allSatisfy { close($0, $1) })
        #expect(close(uncertainty["share_under_0_5_px"] as? Double, map.share()))
        let worst = try #require(uncertainty["worst_corner"] as? [String: Any])
        #expect(worst["name"] as? String == map.worstCorner.name)
        let grid = try #require(uncertainty["grid"] as? [String: Any])
        #expect(grid["columns"] as? Int == 32 && grid["rows"] as? Int == 24)
        #expect((grid["px"] as? [Double])?.count == 32 * 24)
        let check = try #require(object["cross_validation"] as? [String: Any])
        #expect(check["verdict"] as? String == "consistent")
        #expect(check["verdict_key"] as? String == "consistent")
        #expect((check["halves"] as? [[String]])?.map(\.count) == [10, 10])
        let heldOut = try #require(check["held_out_rms_px"] as? Double)
        #expect(close(heldOut, try #require(report.crossValidation?.heldOutRMS)))
    }

    @Test func theSummarySaysWhatTheMapAndTheHalvesShow() throws {
        let report = try Self.report()
        let map = try #require(report.uncertainty)
        let check = try #require(report.crossValidation)
        let lines = report.summary
        let a = ProjectionWording.amount, p = ProjectionWording.pixels
        let noise = try #require(report.noiseUncertainty)
        try #require(report.spreadUncertainty != nil, "this set's views spread beyond their corners' scatter")
        #expect(lines.contains(
            "projection uncertainty (worst direction, 1 sigma, at the boards' mean distance): centre \(a(map.centre)), "
                + "worst corner \(ProjectionWording.corner(map.worstCorner.value, name: map.worstCorner.name)), "
                + "\(Int((map.share(under: 1) * 100).rounded()))% of the image under 1 px; the corners' scatter alone: "
                + "centre \(a(noise.centre)), worst corner \(a(noise.worstCorner.value))"))
        let range = try #require(check.differenceRange)
        #expect(lines.contains(
            "cross-validation (3 random splits into halves of 10 and 10 views): they differ by \(a(check.difference.mean)) on average, "
                + "\(a(check.difference.percentile95)) at the 95th percentile (\(p(range.lowerBound)) to \(p(range.upperBound)) over "
                + "the splits), where their uncertainties explain \(a(check.explained95)): consistent"))
        // Each worst corner over 1 px is named beside "good".
        let verdict = try #require(lines.last)
        #expect(verdict.hasPrefix("verdict: good, but the upper-left corner's projection uncertainty reaches "), "\(verdict)")
        #expect(!lines.joined().contains("nan"))
        #expect(lines.contains { $0.hasPrefix("  held-out error: ") })
    }

    /// Fewer views than the default asks for: no cross-validation unless asked; asked with too few
    /// for the model in each half, the calibration stands and the summary says why.
    @Test func crossValidationNeedsEnoughViews() throws {
        let views = Array(try ProjectionUncertaintyTests.syntheticViews().prefix(5))
        let result = try CameraCalibration.calibrate(views, model: .pinhole)
        var report = CalibrationReport(result: result, pattern: "chessboard:12x9")
        report.crossValidate(nil)
        #expect(report.crossValidation == nil && report.crossValidationNotRun == nil)
        report.crossValidate(true)
        #expect(report.crossValidation == nil)
        #expect(report.summary.contains { $0.hasPrefix("cross-validation: not run: 2 usable views, but the pinhole model needs at least 3") })
    }

    /// The advice names the image corner where the map is worst, once it passes 1 px.
    @Test func theAdviceNamesTheWorstCorner() throws {
        let report = try CalibrationReport(
            result: CameraCalibration.calibrate(Array(ProjectionUncertaintyTests.syntheticViews().prefix(4)), model: .pinhole),
            pattern: "chessboard:12x9")
        let map = try #require(report.uncertainty)
        try #require(map.worstCorner.value > 1, "the 4-view set is weak at its corners: \(map.corners)")
        #expect(report.advice.contains(
            "the projection uncertainty \(ProjectionWording.reaches(map.worstCorner.value)) at the \(map.worstCorner.name) "
                + "corner: capture more near the \(map.worstCorner.name) corner"))
        // The 24 poses that push the board into the image's corners: no advice.
        let covered = try SyntheticViews.projected(camera: RefinementTruthTests.pinhole, columns: 12, rows: 9, noise: 0.3, seed: 5)
        let good = CalibrationReport(result: try CameraCalibration.calibrate(covered, model: .pinhole), pattern: "chessboard:12x9")
        let goodMap = try #require(good.uncertainty)
        #expect(goodMap.worstCorner.value < 1, "\(goodMap.corners)")
        #expect(!good.advice.contains { $0.hasPrefix("the projection uncertainty") })
    }

    @Test func theWorstCornerAndTheShareAreCountedOnTheGrid() {
        let map = UncertaintyMap(
            imageSize: ImageSize(width: 3, height: 3), distance: 1, columns: 2, rows: 2, values: [0.2, 0.4, 0.6, .nan],
            centre: 0.1, corners: [0.2, 0.4, 0.6, .nan])
        #expect(map.worstCorner.name == "lower-right")
        #expect(map.share() == 0.5)
        #expect(abs(map.value(at: ImagePoint(x: 1, y: 0)) - 0.3) < 1e-12)
    }
}
