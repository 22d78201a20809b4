@testable import Calibration
import Foundation
import MarkerDetection
import Testing

/// The pinhole solve starts from the closed-form start (Zhang's method over the views' homographies)
/// instead of OpenCV's solve, and its refinement ends where the same refinement from OpenCV's solve
/// ends: the same corners dropped, every intrinsic within a thousandth of its standard deviation.
@Suite struct ClosedFormStartTests {
    /// The solve as `calibrate` runs it, and the same refinement from OpenCV's solve of the views.
    static func bothStarts(_ views: [CalibrationView], model: CameraModel = .pinhole) throws
        -> (closedForm: CalibrationRun, openCV: CalibrationRun)
    {
        let size = views[0].imageSize
        let closedForm = try CameraCalibration.solve(views, model: model, imageSize: size, refinement: .standard)
        let start = try CalibrationShim.calibrate(views, model: model, imageSize: size)
        let refined = try CeresShim.refine(
            views, camera: start.camera, rotations: start.rotations, translations: start.translations, settings: .standard,
            fullCovariance: true)
        return (closedForm, CalibrationRun(start: start, refined: refined, settings: .standard, views: views))
    }

    static func expectSameMinimum(_ runs: (closedForm: CalibrationRun, openCV: CalibrationRun), _ what: String) {
        let (closedForm, openCV) = runs
        #expect(closedForm.startedFromClosedForm && !openCV.startedFromClosedForm, "\(what)")
        #expect(closedForm.views.map(\.droppedCorners) == openCV.views.map(\.droppedCorners), "\(what): corners dropped")
        #expect(abs(closedForm.rms - openCV.rms) <= 1e-9 * openCV.rms, "\(what): RMS \(closedForm.rms) against \(openCV.rms)")
        for (a, b) in zip(closedForm.parameters, openCV.parameters) {
            #expect(abs(a.value - b.value) <= 1e-3 * b.standardDeviation,
                    "\(what): \(a.name) \(a.value) against \(b.value) (standard deviation \(b.standardDeviation))")
            #expect(abs(a.standardDeviation - b.standardDeviation) <= 1e-3 * b.standardDeviation, "\(what): std of \(a.name)")
        }
    }

    @Test(arguments: [1000, 1001, 1002, 1003] as [UInt64])
    func syntheticViewsEndWhereOpenCVsStartEnds(seed: UInt64) throws {
        let views = try RefinementTruthTests.views(seed: seed)
        let runs = try Self.bothStarts(views)
        Self.expectSameMinimum(runs, "seed \(seed)")
        // The start itself: no distortion, the focal lengths within a fifth of the truth (the
        // lens's k1 of -0.28 bends the views' homographies, which the start takes as straight).
        let start = runs.closedForm.openCVCamera
        #expect(start.distortion.allSatisfy { $0 == 0 })
        #expect(abs(start.fx / RefinementTruthTests.pinhole.fx - 1) < 0.2, "start fx \(start.fx)")
        #expect(abs(start.fy / RefinementTruthTests.pinhole.fy - 1) < 0.2, "start fy \(start.fy)")
    }

    @Test(.enabled(if: OpenCVSamples.available, Comment(rawValue: OpenCVSamples.missing)))
    func openCVsOwnPhotosEndWhereOpenCVsStartEnds() throws {
        let pictures = try PictureSet(folder: OpenCVSamples.folder(), pattern: Pattern(parsing: "chessboard:9x6"))
        Self.expectSameMinimum(try Self.bothStarts(pictures.views), "OpenCV's left-camera samples")
    }

    /// The pinhole models start from the closed form. The rational model keeps OpenCV's solve as
    /// its start, held or refined (its radial guard is measured through the start's distortion),
    /// and so does the fisheye model.
    @Test func onlyThePinholeModelsStartFromTheClosedForm() {
        #expect(CameraCalibration.startsFromClosedForm(.pinhole, refinement: .standard))
        #expect(CameraCalibration.startsFromClosedForm(.pinholeRadtan, refinement: .standard))
        #expect(!CameraCalibration.startsFromClosedForm(.rational, refinement: .standard))
        var refining = CalibrationRefinement.standard
        refining.refinesRationalDistortion = true
        #expect(!CameraCalibration.startsFromClosedForm(.rational, refinement: refining))
        #expect(!CameraCalibration.startsFromClosedForm(.fisheye, refinement: .standard))
    }

    @Test func aTargetOffItsPlaneIsRefused() throws {
        var views = try RefinementTruthTests.views(seed: 7)
        views[3].points[5].object.z = 0.5
        #expect(throws: CalibrationError.self) { try CalibrationShim.calibrate(views, model: .pinhole, imageSize: views[0].imageSize, closedForm: true) }
    }
}
