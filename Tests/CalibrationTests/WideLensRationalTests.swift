import Calibration
import Foundation
import MarkerDetection
import MarkerDetectionTestSupport
import Testing

/// The rational model on a wide lens seen only in the middle 70% of the image: the refinement must
/// not bend the model outside the corners further than OpenCV's solve alone does.
///
/// 3 seeded trials of 30 views; with `MARKER_SHUTTER_FULL_TRIALS=1` in the environment, 25. With
/// `MARKER_SHUTTER_WIDE_LENS_VIEWS=FILE`, the trials' views are also written to FILE as JSON (per
/// trial, per view, `object` and `image` coordinates), for Benchmarks/Scripts/wide_lens_peers.py to
/// solve them with Python's OpenCV and mrcal.
@Suite struct WideLensRationalTests {
    static let full = ProcessInfo.processInfo.environment["MARKER_SHUTTER_FULL_TRIALS"] == "1"
    static let viewsFile = ProcessInfo.processInfo.environment["MARKER_SHUTTER_WIDE_LENS_VIEWS"]

    /// The worst error at the image's corners and edges' midpoints of the trial drawn from `seed`:
    /// the standard refinement (the distortion held at OpenCV's), the refinement with the
    /// distortion refined too, and OpenCV's solve alone.
    static func trial(seed: UInt64) throws -> (refined: Double, free: Double, openCV: Double) {
        let views = try WideLens.views(count: 30, seed: seed)
        let refined = try CameraCalibration.calibrate(views, model: .rational).camera
        var freeSettings = CalibrationRefinement.standard
        freeSettings.refinesRationalDistortion = true
        let free = try CameraCalibration.calibrate(views, model: .rational, refinement: freeSettings).camera
        let openCV = try CameraCalibration.calibrate(views, model: .rational, refinement: nil).camera
        return (try WideLens.probeErrors(refined).max()!, try WideLens.probeErrors(free).max()!, try WideLens.probeErrors(openCV).max()!)
    }

    /// The summary and calibration.json say that the rational model's distortion is OpenCV's, held
    /// by the refinement; its coefficients are OpenCV's to the last digit, with no uncertainty.
    @Test func heldDistortionIsOpenCVsAndSaysSo() throws {
        let result = try CameraCalibration.calibrate(try WideLens.views(count: 30, seed: 7000), model: .rational)
        #expect(result.camera.distortion == result.run.openCVCamera.distortion)
        #expect(result.run.parameters.dropFirst(4).allSatisfy { $0.standardDeviation == 0 })
        #expect(try #require(result.run.parameter("fx")).standardDeviation > 0)
        #expect(result.run.degreesOfFreedom == 2 * result.run.keptCornerCount - 4 - 6 * result.run.views.count)
        let report = CalibrationReport(result: result, pattern: "chessboard:12x9")
        let line = try #require(report.summary.first { $0.hasPrefix("  distortion: ") })
        #expect(line.hasSuffix(" (OpenCV's, held by the refinement)"), "\(line)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
        #expect(object["distortion_refined"] as? Bool == false)
        let regularization = try #require(object["regularization"] as? [String: Any])
        #expect(regularization["coefficients"] as? [String] == [])
    }

    /// Held at OpenCV's, the distortion extrapolates as OpenCV's does: the refined camera ends
    /// within a few pixels of OpenCV's alone at the image's corners, trial by trial.
    @Test func refinementDoesNotBlowUpOutsideTheCorners() throws {
        let trials = Self.full ? 25 : 3
        var refined: [Double] = [], free: [Double] = [], openCV: [Double] = []
        if let viewsFile = Self.viewsFile {
            let all = try (0..<trials).map { trial in
                try WideLens.views(count: 30, seed: UInt64(7000 + trial)).map { view in
                    ["object": view.points.flatMap { [$0.object.x, $0.object.y, $0.object.z] },
                     "image": view.points.flatMap { [$0.image.x, $0.image.y] }]
                }
            }
            try JSONSerialization.data(withJSONObject: all).write(to: URL(fileURLWithPath: viewsFile))
        }
        for trial in 0..<trials {
            let (r, f, o) = try Self.trial(seed: UInt64(7000 + trial))
            print(String(format: "wide lens trial %d: worst corner/edge error refined %.1f px, distortion refined too %.1f px, OpenCV alone %.1f px", trial, r, f, o))
            refined.append(r)
            free.append(f)
            openCV.append(o)
        }
        let median = { (values: [Double]) in values.sorted()[values.count / 2] }
        print(String(format: "wide lens, %d trials, worst / median corner error: refined %.1f / %.1f px, distortion refined too %.1f / %.1f px, OpenCV alone %.1f / %.1f px",
                     trials, refined.max()!, median(refined), free.max()!, median(free), openCV.max()!, median(openCV)))
        for (r, o) in zip(refined, openCV) { #expect(r <= max(1.1 * o, o + 2), "refined \(r) px, OpenCV alone \(o) px") }
    }
}
