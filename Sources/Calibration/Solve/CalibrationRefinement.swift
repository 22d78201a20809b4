/// How the refinement that follows OpenCV's solve treats corners and distortion coefficients.
///
/// OpenCV's `calibrateCamera` (or `cv::fisheye::calibrate`) gives the starting point; Ceres Solver
/// then refines the intrinsics, the distortion and every view's pose over all corners:
/// 1. a robust solve: each corner's squared error counts in full up to ``lossScale`` pixels and
///    grows only linearly beyond (Huber's loss), so a few wrong corners cannot pull the camera;
/// 2. a corner whose error exceeds ``dropSigmas`` robust standard deviations (1.4826 times the
///    median absolute x and y residual over every corner), and at least ``dropFloor`` pixels, is
///    dropped, and the kept corners are solved again by plain least squares; repeated until no
///    corner changes side, at most ``rounds`` times; every view keeps its 4 best corners at least;
/// 3. each higher distortion coefficient (k3 of the pinhole model, k3 to k6 of the rational one, k3
///    and k4 of the fisheye one) adds the residual ``regularization`` x coefficient, in pixels, so
///    that a model cannot bend far outside the corners where they say little about it;
///    the rational model's 8 coefficients are pulled towards 0 by ``rationalWeights`` instead
///    (mrcal's scheme for its 8-coefficient model: lightly on k1 k2 p1 p2 k3, more on the
///    denominator's k4 k5 k6), and kept one-to-one and smooth between the corners' farthest
///    radius and the image's corners by a radial guard (``guardWeight``, ``RadialGuard``): on a
///    wide lens seen only in the middle of the image, its numerator and denominator otherwise trade
///    off freely where there are no corners. Held at OpenCV's values (``refinesRationalDistortion``
///    `false`), the distortion has no uncertainty, and the map claimed 0.3 px where the camera was
///    50 px off (88 of 200 image corners and edges beyond 2.45 x the map over 25 wide-lens
///    trials); refined so, 1 of 200 (Benchmarks/HISTORY.md);
/// 4. the intrinsics' covariance: sigma^2 (J^T J)^-1 over intrinsics and poses, the poses
///    marginalised out, with sigma^2 = (the kept corners' squared errors) / (2 x kept corners -
///    parameters).
public struct CalibrationRefinement: Sendable, Hashable {
    /// The Huber loss's scale in the robust solve, in pixels.
    public var lossScale: Double
    /// A corner beyond this many robust standard deviations is dropped.
    public var dropSigmas: Double
    /// ...and beyond this many pixels.
    public var dropFloor: Double
    /// The weight of the higher distortion coefficients' pull towards 0, in pixels per unit.
    public var regularization: Double
    /// The most drop-and-solve rounds.
    public var rounds: Int
    /// Whether the rational model's distortion coefficients are refined too; when `false` they
    /// keep OpenCV's values and only fx, fy, cx, cy and the poses are refined.
    public var refinesRationalDistortion: Bool
    /// The rational model's regularization weights, one per distortion coefficient (k1 k2 p1 p2
    /// k3 k4 k5 k6), in pixels per unit, in place of ``regularization`` on k3 to k6; `nil` keeps
    /// ``regularization`` there.
    public var rationalWeights: [Double]?
    /// The weight of the rational model's radial guard (``RadialGuard``): 0 adds none.
    public var guardWeight: Double = 0
    /// Whether the solve starts beside its minimum, so that its first steps are left undamped
    /// (the shim's `starts_beside_minimum`): a solve already made, solved again without some views.
    var startsBesideMinimum = false

    /// These settings for solving a solve's kept corners again without some of its views, from
    /// its own camera and poses: plain least squares (no loss, no corner dropped, one round),
    /// starting beside the minimum. The views' spread and cross-validation's halves solve so.
    var resolving: CalibrationRefinement {
        var settings = self
        settings.lossScale = 0
        settings.dropSigmas = .infinity
        settings.rounds = 1
        settings.startsBesideMinimum = true
        return settings
    }

    /// Makes settings.
    public init(
        lossScale: Double, dropSigmas: Double, dropFloor: Double, regularization: Double, rounds: Int,
        refinesRationalDistortion: Bool = false
    ) {
        self.lossScale = lossScale
        self.dropSigmas = dropSigmas
        self.dropFloor = dropFloor
        self.regularization = regularization
        self.rounds = rounds
        self.refinesRationalDistortion = refinesRationalDistortion
    }

    /// The settings `calibrate` uses: Huber at 1 px, corners dropped beyond 5 robust standard
    /// deviations and 1 px, regularization weight 1 px per unit coefficient, at most 3 rounds,
    /// the rational model's distortion refined with ``mrcalRationalWeights`` and a radial guard
    /// of weight 0.01.
    public static let standard: CalibrationRefinement = {
        var settings = CalibrationRefinement(
            lossScale: 1, dropSigmas: 5, dropFloor: 1, regularization: 1, rounds: 3, refinesRationalDistortion: true)
        settings.rationalWeights = mrcalRationalWeights
        settings.guardWeight = 0.01
        return settings
    }()

    /// The rational model's regularization weights after mrcal's for its `LENSMODEL_OPENCV8`: 0.1
    /// on k1 k2 p1 p2 k3, 0.5 on the denominator's k4 k5 k6, in pixels per unit coefficient.
    public static let mrcalRationalWeights = [0.1, 0.1, 0.1, 0.1, 0.1, 0.5, 0.5, 0.5]

    /// The corner rule in words, for reports.
    public var cornerRule: String {
        "a corner whose reprojection error is over \(Self.text(dropSigmas)) robust standard deviations "
            + "(and \(Self.text(dropFloor)) px) after a robust solve (Huber loss at \(Self.text(lossScale)) px) is dropped "
            + "and the rest solved again"
    }

    /// What the 95% intervals cover, and what they do not, in one sentence, for intervals that
    /// take in the views' spread.
    public static let intervalNote = intervalNote(between: "view")

    /// ``intervalNote`` for a spread between `unit`s (`view`, or a rig's `set`).
    static func intervalNote(between unit: String) -> String {
        "95% intervals cover the corners' scatter about the fit (the covariance of the solve) and the spread between "
            + "\(unit)s (a jackknife over groups of \(unit)s); they do not cover an error every \(unit) shares alike (a board "
            + "whose size is wrong, a lens every \(unit) sees the same way the model cannot follow)"
    }

    /// What the 95% intervals cover for a run with `spread`, or without one (`notMeasured` says why).
    public static func intervalNote(spread: ViewSpread?, notMeasured: String?) -> String {
        intervalNote(spreadMeasured: spread != nil, notMeasured: notMeasured)
    }

    /// What the 95% intervals cover when the spread was measured, or not (`notMeasured` says why);
    /// a rig's spread is between its sets rather than its views.
    public static func intervalNote(spreadMeasured: Bool, notMeasured: String?, between unit: String = "view") -> String {
        if spreadMeasured { return intervalNote(between: unit) }
        return "95% intervals come from the corners' scatter about the fit alone (the covariance of the solve)"
            + (notMeasured.map { ": the spread between \(unit)s was not measured (\($0))" } ?? "")
            + "; they do not cover errors that differ from \(unit) to \(unit) (a board that is not flat, corner bias, rolling "
            + "shutter) or model error"
    }

    /// Whether the refinement keeps `model`'s distortion coefficients at OpenCV's values.
    public func holdsDistortion(of model: CameraModel) -> Bool { model == .rational && !refinesRationalDistortion }

    /// The names of the coefficients the regularization pulls towards 0: k3 of the pinhole model,
    /// k3 and k4 of the fisheye one, k3 to k6 of the rational one when its distortion is refined.
    public func regularizedCoefficients(of model: CameraModel) -> [String] {
        if holdsDistortion(of: model) { return [] }
        if model == .rational, let rationalWeights {
            return zip(model.distortionNames, rationalWeights).filter { $0.1 > 0 }.map(\.0)
        }
        return Array(model.distortionNames.drop { $0 != "k3" }).filter { !model.heldAtZero.contains($0) }
    }

    /// The weights of ``regularizedCoefficients(of:)``, in their order, when `model` has weights
    /// of its own (the rational model with ``rationalWeights``); `nil` when ``regularization`` is
    /// every coefficient's weight.
    public func coefficientWeights(of model: CameraModel) -> [Double]? {
        guard model == .rational, !holdsDistortion(of: model), let rationalWeights else { return nil }
        return rationalWeights.filter { $0 > 0 }
    }

    private static func text(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
