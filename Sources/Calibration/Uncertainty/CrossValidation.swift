import Foundation
import MarkerDetection

/// Two disjoint halves of a calibration's views solved on their own: how far apart their
/// projections are (``ProjectionDifference``) against what their uncertainty maps alone explain,
/// a verdict in plain words, and the held-out error.
///
/// The halves: the views of the final solve in their order, alternately (the 1st, 3rd, 5th... and
/// the 2nd, 4th...), so that both span the session. Each half is solved as the whole set is
/// (OpenCV's solve refined by Ceres Solver), without the outlier rule.
///
/// What the uncertainties explain: at each grid point, 2.45 times the two maps' values combined
/// (the square root of the sum of their squares; 2.45 standard deviations hold 95% of a
/// two-dimensional normal error), summed up by its 95th percentile over the grid.
///
/// The held-out error: each half's camera with the other half's views, each view's pose fitted
/// again with the camera held (the BabelCalib protocol); the RMS over every corner of both ways.
public struct CrossValidation: Sendable, Hashable {
    /// What the comparison says.
    public enum Verdict: Sendable, Hashable, CustomStringConvertible {
        /// The halves are within ``CrossValidation/closeEnough``, or within what their uncertainties
        /// explain and ``CrossValidation/farApart``.
        case consistent
        /// Each half is sure of itself, yet they differ: the lens model cannot follow the lens.
        case modelDoesNotFit
        /// The halves differ by this many pixels (95th percentile) and each is unsure: the views
        /// do not pin the camera down.
        case tooFewViews(Double)

        /// The verdict in plain words, of two halves.
        public var description: String { sentence(of: "the halves") }

        /// The verdict in plain words, naming what was compared (`the halves`, `the calibrations`).
        public func sentence(of subject: String) -> String {
            switch self {
            case .consistent: "consistent"
            case .modelDoesNotFit: "the model does not fit: try `--model rational` or more views"
            case .tooFewViews(let pixels): "too few views: \(subject) differ by \(ProjectionWording.pixels(pixels)) px"
            }
        }

        /// A one-word name for files: `consistent`, `model-does-not-fit`, `too-few-views`.
        public var key: String {
            switch self {
            case .consistent: "consistent"
            case .modelDoesNotFit: "model-does-not-fit"
            case .tooFewViews: "too-few-views"
            }
        }
    }

    /// `calibrate` cross-validates by default from this many views in the final solve (4 in each
    /// half).
    public static let defaultMinimumViews = 8
    /// Halves this close (95th percentile, in pixels) are consistent whatever their uncertainties say.
    public static let closeEnough = 0.5
    /// Halves may differ by up to this many times what their uncertainties explain.
    public static let explainedFactor = 2.0
    /// Halves further apart than this (95th percentile, in pixels) are not consistent whatever
    /// their uncertainties explain: a camera that may be this far off is no calibration to rely on.
    public static let farApart = 3.0
    /// A half whose own uncertainty (95th percentile of its map) exceeds this many pixels is
    /// called unsure.
    public static let unsureLevel = 1.0

    /// The names of the views in each half.
    public var halves: [[String]]
    /// How far apart the halves project.
    public var difference: ProjectionDifference
    /// Each half's uncertainty map, at the whole set's distance.
    public var maps: [UncertaintyMap]
    /// What the two maps explain (the 95th percentile described above), in pixels.
    public var explained95: Double
    /// The held-out RMS reprojection error, in pixels.
    public var heldOutRMS: Double
    /// The RMS of the two halves' own solves over their own corners, in pixels.
    public var halvesRMS: [Double]
    /// The verdict.
    public var verdict: Verdict

    /// The verdict for halves `difference95` apart (95th percentile), whose uncertainties explain
    /// `explained95` and reach `unsure` pixels (the larger of the two maps' 95th percentiles):
    /// consistent within ``closeEnough``, or within ``explainedFactor`` times what the
    /// uncertainties explain and ``farApart``; otherwise too few views when either half is unsure
    /// (over ``unsureLevel``), and a model that does not fit when both are sure of themselves.
    public static func verdict(difference95: Double, explained95: Double, unsure: Double) -> Verdict {
        if difference95 <= closeEnough || (difference95 <= explainedFactor * explained95 && difference95 <= farApart) {
            return .consistent
        }
        return unsure > unsureLevel ? .tooFewViews(difference95) : .modelDoesNotFit
    }

    /// Cross-validates `run`: solves its views in two halves with `refinement`, at the distance of
    /// `run`'s own uncertainty map (`distance`).
    ///
    /// - Throws: ``CalibrationError/tooFewViews(usable:needed:model:rejected:)`` when a half has
    ///   fewer views than the model needs; what a solve throws.
    public static func run(
        _ run: CalibrationRun, refinement: CalibrationRefinement? = .standard, distance: Double
    ) throws(CalibrationError) -> CrossValidation {
        let model = run.camera.model
        let views = run.views.map(\.view)
        let halves = [stride(from: 0, to: views.count, by: 2).map { views[$0] }, stride(from: 1, to: views.count, by: 2).map { views[$0] }]
        guard halves[1].count >= model.minimumViews else {
            throw .tooFewViews(usable: halves[1].count, needed: model.minimumViews, model: model, rejected: [])
        }
        let solved = try halves.map { (half) throws(CalibrationError) -> CalibrationRun in
            try CameraCalibration.solve(half, model: model, imageSize: run.camera.imageSize, refinement: refinement ?? .standard)
        }
        let maps = solved.map { ProjectionUncertainty(run: $0, distance: distance)?.map() }
        let difference = ProjectionDifference(from: solved[0].camera, to: solved[1].camera, distance: distance)
        var explained: [Double] = []
        if let a = maps[0], let b = maps[1] {
            explained = zip(a.values, b.values).map { 2.45 * ($0 * $0 + $1 * $1).squareRoot() }
        }
        let explained95 = explained.isEmpty ? .nan : ProjectionDifference.percentile(explained, 0.95)
        let unsure = maps.compactMap { $0.map { ProjectionDifference.percentile($0.values, 0.95) } }.max() ?? .infinity
        var squared = 0.0, count = 0
        for (camera, other) in [(solved[0], solved[1]), (solved[1], solved[0])] {
            for index in other.views.indices {
                let errors = PoseFit.residuals(
                    other.views[index].view, camera: camera.camera,
                    rotation: other.poseRotations[index], translation: other.poseTranslations[index])
                squared += errors.reduce(0, +)
                count += errors.count
            }
        }
        return CrossValidation(
            halves: halves.map { $0.map(\.name) }, difference: difference, maps: maps.compactMap { $0 },
            explained95: explained95, heldOutRMS: count > 0 ? (squared / Double(count)).squareRoot() : .nan,
            halvesRMS: solved.map(\.rms),
            verdict: verdict(difference95: difference.percentile95, explained95: explained95, unsure: unsure))
    }
}
