import Calibration
import Foundation
import MarkerDetection
import MarkerDetectionTestSupport
import Testing

/// The summary `calibrate` prints and the runs calibration.json keeps when a view is dropped.
@Suite struct CalibrationSummaryTests {
    /// One view with its corners moved by several pixels: it is dropped by the 3 x median rule, and
    /// both solves are reported.
    @Test func aDroppedOutlierIsNamedAndBothRunsReported() throws {
        var views = try SyntheticViews.projected(
            camera: SyntheticCalibrationTests.pinhole, columns: 12, rows: 9, noise: 0.3, seed: 6)
        var random = SplitMix64(seed: 7)
        views[9] = SyntheticViews.jittered(views[9], by: 3, &random)
        let result = try CameraCalibration.calibrate(views, model: .pinhole)
        let finalRun = try #require(result.finalRun)
        let report = CalibrationReport(result: result, pattern: "chessboard:12x9")
        let summary = report.summary
        #expect(summary.first == "views: 23 used, 1 rejected (model pinhole, image 640x480, pattern chessboard:12x9)")
        let first = String(format: "%.3f", result.firstRun.rms), final = String(format: "%.3f", finalRun.rms)
        #expect(summary.contains("RMS reprojection error: \(final) px (first run with every view: \(first) px)"), "\(summary)")
        let rejected = try #require(summary.first { $0.hasPrefix("  rejected view_09: outlier: RMS ") }, "\(summary)")
        #expect(rejected.contains("median"), "\(rejected)")

        let object = try #require(try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
        let runs = [object["first_run"], object["final_run"]].map { ($0 as? [String: Any])?["views"] as? [Any] }
        #expect(runs.map { $0?.count } == [24, 23])
        #expect((object["views_rejected"] as? [[String: String]])?.map { $0["name"] } == ["view_09"])
        // Foundation's JSON writer may round the last bit.
        #expect(abs((object["avg_reprojection_error"] as? Double ?? 0) - finalRun.rms) < 1e-12)
    }
}
