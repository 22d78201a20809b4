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
        /// Its standard deviation (from the solve's covariance, scaled by the residuals' variance).
        public var standardDeviation: Double

        /// Half the width of the 95% confidence interval: 1.96 standard deviations.
        public var interval95: Double { 1.96 * standardDeviation }
    }

    /// A view that took part, with how it fits.
    public struct SolvedView: Sendable, Hashable {
        /// The view as given.
        public var view: CalibrationView
        /// Root mean square reprojection error over its points, in pixels.
        public var rms: Double
        /// Angle between the target's normal and the camera's axis, in degrees (0: seen square on).
        public var tiltDegrees: Double
        /// Where the solved camera projects each of the view's points, in the view's order.
        public var projected: [ImagePoint]
    }

    /// The camera.
    public var camera: Camera
    /// Root mean square reprojection error over every point of every view, in pixels.
    public var rms: Double
    /// fx, fy, cx, cy and each distortion coefficient, in that order.
    public var parameters: [Parameter]
    /// The views, in the order given.
    public var views: [SolvedView]

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

    /// The median of the views' RMS errors.
    public var medianViewRMS: Double {
        let sorted = views.map(\.rms).sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    init(_ solution: ShimSolution, views: [CalibrationView]) {
        camera = solution.camera
        rms = solution.rms
        let names = ["fx", "fy", "cx", "cy"] + solution.camera.model.distortionNames
        let values = [camera.fx, camera.fy, camera.cx, camera.cy] + camera.distortion
        parameters = names.indices.map { index in
            Parameter(name: names[index], value: values[index], standardDeviation: solution.standardDeviations[index])
        }
        self.views = views.indices.map { index in
            SolvedView(
                view: views[index], rms: solution.viewRMS[index],
                tiltDegrees: Self.tilt(rotation: solution.rotations[index]), projected: solution.projected[index])
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
