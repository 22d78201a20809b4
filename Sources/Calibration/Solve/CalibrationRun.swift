import Foundation
public import MarkerDetection

/// One solve: the camera it found, how well each view fits, and how certain each intrinsic is.
public struct CalibrationRun: Sendable, Hashable {
    /// One intrinsic parameter with its uncertainty.
    public struct Parameter: Sendable, Hashable {
        /// `fx`, `fy`, `cx`, `cy`, or a distortion coefficient's name.
        public var name: String
        /// The solved value.
        public var value: Double
        /// Its standard deviation from the corners' scatter: the solve's covariance, scaled by the
        /// residuals' variance (``CalibrationRefinement`` says how).
        public var standardDeviation: Double
        /// Its standard deviation from the views' spread beyond the corners' scatter (``ViewSpread``:
        /// the square root of what the jackknife variance exceeds the covariance's by, when it does
        /// so by more than chance allows), or 0 when none was measured or found.
        public var spread: Double = 0
        /// The degrees of freedom of the jackknife that measured ``spread`` (0 when none was measured).
        public var spreadDegreesOfFreedom: Int = 0

        /// Makes a parameter with its scatter's standard deviation and no spread measured.
        public init(name: String, value: Double, standardDeviation: Double) {
            self.name = name
            self.value = value
            self.standardDeviation = standardDeviation
        }

        /// Half the width of the corners' scatter's 95% interval: 1.96 standard deviations.
        public var noiseInterval95: Double { 1.96 * standardDeviation }
        /// Half the width of the 95% interval that covers both the corners' scatter and the views'
        /// spread. Without a spread, 1.96 standard deviations of the scatter. With one, Student's t
        /// times the root of the two variances' sum, at the degrees of freedom Welch and
        /// Satterthwaite give the sum (the scatter's are counted as infinitely many: it comes from
        /// thousands of corners; the spread's are the jackknife's), so that a spread measured from
        /// few views widens the interval as much as its own uncertainty asks
        /// (``CalibrationRefinement/intervalNote``).
        public var interval95: Double {
            TwoPartInterval.halfWidth95(standardDeviation: standardDeviation, spread: spread, degreesOfFreedom: spreadDegreesOfFreedom)
        }
        /// The part of ``interval95`` the views' spread adds: the root of the difference of its
        /// square and the scatter's interval's square.
        public var spreadInterval95: Double {
            let total = interval95, noise = noiseInterval95
            return total > noise ? (total * total - noise * noise).squareRoot() : 0
        }
        /// The standard deviation that ``interval95`` is 1.96 of.
        public var totalStandardDeviation: Double { interval95 / 1.96 }

        /// Takes a jackknife's variance of the parameter into ``spread`` (``TwoPartInterval``).
        mutating func include(jackknifeVariance: Double, degreesOfFreedom: Int) {
            spread = TwoPartInterval.spread(
                jackknifeVariance: jackknifeVariance, noiseVariance: standardDeviation * standardDeviation,
                degreesOfFreedom: degreesOfFreedom)
            spreadDegreesOfFreedom = degreesOfFreedom
        }
    }

    /// A view that took part, with how it fits.
    public struct SolvedView: Sendable, Hashable {
        /// The view as given.
        public var view: CalibrationView
        /// Root mean square reprojection error over all its points, dropped ones included (so that a
        /// view whose corners are mostly wrong still stands out to the outlier rule), in pixels.
        public var rms: Double
        /// Angle between the target's normal and the camera's axis, in degrees (0: seen square on).
        public var tiltDegrees: Double
        /// Where the solved camera projects each of the view's points, in the view's order.
        public var projected: [ImagePoint]
        /// The ids of the points dropped by the corner rule (``CalibrationRefinement/cornerRule``),
        /// in the view's order.
        public var droppedCorners: [Int] = []
        /// The target's pose in the camera's frame: its Rodrigues vector and translation (in the
        /// target's units).
        public var rotation: [Double] = [0, 0, 0]
        public var translation: [Double] = [0, 0, 0]
    }

    /// The camera.
    public var camera: Camera
    /// Root mean square reprojection error over every point of every view that took part in the
    /// solve (the corner rule's dropped points left out), in pixels.
    public var rms: Double
    /// fx, fy, cx, cy and each distortion coefficient, in that order.
    public var parameters: [Parameter]
    /// The views, in the order given.
    public var views: [SolvedView]
    /// The covariance of fx, fy, cx, cy and the distortion coefficients, row by row, in the order of
    /// ``parameters``. Without the refinement (OpenCV's solve alone) only its diagonal is known.
    public var covariance: [[Double]]
    /// Where the refinement started: the closed-form start (Zhang's method, no distortion) when
    /// ``startedFromClosedForm``, otherwise what OpenCV's solve found; the camera itself when
    /// there was no refinement.
    public var openCVCamera: Camera
    /// The RMS reprojection error over every corner of ``openCVCamera`` with its poses.
    public var openCVRMS: Double
    /// Whether the refinement started from the closed-form start rather than OpenCV's solve
    /// (``CameraCalibration/startsFromClosedForm(_:refinement:)``).
    public var startedFromClosedForm = false
    /// The refinement's settings, or `nil` when the camera is OpenCV's solve alone.
    public var refinement: CalibrationRefinement?
    /// The corner drop threshold the refinement ended with, in pixels (0 without it).
    public var dropThreshold: Double = 0
    /// The residuals' degrees of freedom: 2 x kept corners - intrinsics (those refined) - 6 x views.
    public var degreesOfFreedom: Int
    /// Each view's rotation (a Rodrigues vector taking target points into the camera's frame), in
    /// the order of ``views``.
    public var poseRotations: [[Double]] = []
    /// Each view's translation, target to camera, in the target's units.
    public var poseTranslations: [[Double]] = []
    /// The covariance over the intrinsics and every view's pose (rotation, then translation), row
    /// by row, when the refinement computed it; ``covariance`` is its top-left block.
    public var fullCovariance: [[Double]]?
    /// The views' spread (``ViewSpread``), when it was measured.
    public var spread: ViewSpread?
    /// Why the spread was not measured, when it was asked for and could not be.
    public var spreadNotMeasured: String?
    /// The band of radii the refinement guarded (``RadialGuard``), when it did.
    var radialGuard: RadialGuard?

    /// Takes the views' spread into the parameters. A parameter's jackknife variance counts as a
    /// spread beyond its scatter when it exceeds the covariance's variance by more than a variance
    /// estimated with the jackknife's degrees of freedom exceeds the true one 1 time in 20 (the
    /// chi-square test at 95%); its ``Parameter/spread`` is then the root of the difference, and
    /// otherwise 0 (the scatter explains what the jackknife saw).
    public mutating func include(_ spread: ViewSpread) {
        self.spread = spread
        spreadNotMeasured = nil
        for index in parameters.indices where index < spread.variances.count {
            parameters[index].include(jackknifeVariance: spread.variances[index], degreesOfFreedom: spread.degreesOfFreedom)
        }
    }

    /// How many corners the corner rule dropped over every view.
    public var droppedCornerCount: Int { views.reduce(0) { $0 + $1.droppedCorners.count } }
    /// How many corners took part in the solve.
    public var keptCornerCount: Int { views.reduce(0) { $0 + $1.view.points.count - $1.droppedCorners.count } }

    /// The parameter of that name.
    public func parameter(_ name: String) -> Parameter? { parameters.first { $0.name == name } }

    /// The first value of the run that is not a finite number, or a standard deviation whose
    /// variance was negative, as `fx = nan`; `nil` when there is none. A run with one is no camera.
    public var firstNonFiniteValue: String? {
        for parameter in parameters where !parameter.value.isFinite { return "\(parameter.name) = \(parameter.value)" }
        if !rms.isFinite { return "an RMS reprojection error of \(rms)" }
        for parameter in parameters where !parameter.standardDeviation.isFinite || parameter.standardDeviation < 0 {
            return "a standard deviation of \(parameter.name) of \(parameter.standardDeviation) (its variance is negative or no number)"
        }
        for view in views where !view.rms.isFinite || !view.tiltDegrees.isFinite {
            return "an RMS error of \(view.rms) and a tilt of \(view.tiltDegrees) degrees in view \(view.view.name)"
        }
        for view in views where view.projected.contains(where: { !$0.x.isFinite || !$0.y.isFinite }) {
            return "reprojected points that are not finite in view \(view.view.name)"
        }
        return nil
    }

    /// fx or fy with a standard deviation over half its value, as `fx = 173.66 with a standard
    /// deviation of 16158.39`; `nil` when both are determined. Views that do not determine the
    /// focal length (one view seen again and again, every view alike) give such a solve: a start
    /// from them is finite, and the refinement's covariance is what says it means nothing.
    public var undeterminedFocalLength: String? {
        for name in ["fx", "fy"] {
            guard let parameter = parameter(name), parameter.standardDeviation > abs(parameter.value) / 2 else { continue }
            return String(format: "%@ = %.2f with a standard deviation of %.2f", name, parameter.value, parameter.standardDeviation)
        }
        return nil
    }

    /// The median of the views' RMS errors.
    public var medianViewRMS: Double {
        let sorted = views.map(\.rms).sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    /// OpenCV's solve alone.
    init(_ solution: ShimSolution, views: [CalibrationView]) {
        camera = solution.camera
        rms = solution.rms
        let names = ["fx", "fy", "cx", "cy"] + solution.camera.model.distortionNames
        let values = [camera.fx, camera.fy, camera.cx, camera.cy] + camera.distortion
        parameters = names.indices.map { index in
            Parameter(name: names[index], value: values[index], standardDeviation: solution.standardDeviations[index])
        }
        covariance = names.indices.map { row in
            names.indices.map { column in row == column ? solution.standardDeviations[row] * solution.standardDeviations[row] : 0 }
        }
        openCVCamera = camera
        openCVRMS = rms
        refinement = nil
        degreesOfFreedom = 2 * views.reduce(0) { $0 + $1.points.count } - names.count - 6 * views.count
        poseRotations = solution.rotations
        poseTranslations = solution.translations
        self.views = views.indices.map { index in
            SolvedView(
                view: views[index], rms: solution.viewRMS[index],
                tiltDegrees: Self.tilt(rotation: solution.rotations[index]), projected: solution.projected[index],
                rotation: solution.rotations[index], translation: solution.translations[index])
        }
    }

    /// The solve's `start` (closed-form when `closedForm`, otherwise OpenCV's), refined by Ceres
    /// Solver into `refined` with `settings`.
    init(
        start: ShimSolution, closedForm: Bool = false, refined: CeresRefinement, settings: CalibrationRefinement,
        views: [CalibrationView]
    ) {
        let model = start.camera.model
        let k = refined.intrinsics
        camera = Camera(model: model, imageSize: start.camera.imageSize, fx: k[0], fy: k[1], cx: k[2], cy: k[3], distortion: Array(k.dropFirst(4)))
        rms = refined.rms
        let names = ["fx", "fy", "cx", "cy"] + model.distortionNames
        parameters = names.indices.map { index in
            let variance = refined.covariance[index][index]
            return Parameter(
                name: names[index], value: k[index], standardDeviation: variance >= 0 ? variance.squareRoot() : .nan)
        }
        covariance = refined.covariance
        openCVCamera = start.camera
        openCVRMS = start.rms
        startedFromClosedForm = closedForm
        refinement = settings
        dropThreshold = refined.dropThreshold
        degreesOfFreedom = refined.degreesOfFreedom
        poseRotations = refined.rotations
        poseTranslations = refined.translations
        fullCovariance = refined.fullCovariance
        self.views = views.indices.map { index in
            let view = views[index], projected = refined.projected[index], kept = refined.kept[index]
            var squared = 0.0, count = 0
            var dropped: [Int] = []
            for (point, (estimate, isKept)) in zip(view.points, zip(projected, kept)) {
                let dx = estimate.x - point.image.x, dy = estimate.y - point.image.y
                squared += dx * dx + dy * dy
                count += 1
                if !isKept { dropped.append(point.id) }
            }
            return SolvedView(
                view: view, rms: count > 0 ? (squared / Double(count)).squareRoot() : 0,
                tiltDegrees: Self.tilt(rotation: refined.rotations[index]), projected: projected, droppedCorners: dropped,
                rotation: refined.rotations[index], translation: refined.translations[index])
        }
    }

    /// The angle between the camera's axis and the normal of a target turned by a Rodrigues vector.
    static func tilt(rotation r: [Double]) -> Double {
        let angle = (r[0] * r[0] + r[1] * r[1] + r[2] * r[2]).squareRoot()
        guard angle > 0 else { return 0 }
        let kz = r[2] / angle
        let normalZ = cos(angle) + (1 - cos(angle)) * kz * kz
        return acos(min(1, abs(normalZ))) * 180 / .pi
    }
}
