/// Plain sentences on what to capture next when a calibration is weak.
public enum CalibrationAdvice {
    /// A focal length whose 95% interval is wider than this share of its value is called uncertain.
    public static let focalIntervalLimit = 0.01
    /// An RMS error above this many pixels is called high.
    public static let rmsLimit = 1.0
    /// Views tilted less than this many degrees are called nearly frontal.
    public static let frontalDegrees = 15.0
    /// Fewer views than this are called few.
    public static let fewViews = 10
    /// Less coverage than this share is called low.
    public static let coverageLimit = 0.5

    /// A projection uncertainty above this many pixels at an image corner calls for views there.
    public static let uncertaintyLimit = 1.0

    /// The advice for `result` with its corner `coverage` and its projection-uncertainty map;
    /// empty when nothing is weak.
    public static func sentences(
        for result: CalibrationResult, coverage: CornerCoverage, uncertainty: UncertaintyMap? = nil
    ) -> [String] {
        let run = result.run
        var advice: [String] = []
        for third in coverage.emptyThirds {
            advice.append("the \(third) third of the image has no corners: hold the target there too")
        }
        if coverage.emptyThirds.isEmpty, coverage.fraction < coverageLimit {
            advice.append(
                "the corners cover only \(Int((coverage.fraction * 100).rounded()))% of the image: "
                    + "move the target toward its edges and corners")
        }
        if let steepest = run.views.map(\.tiltDegrees).max(), steepest < frontalDegrees {
            advice.append("every view is nearly frontal: tilt the board about 30 to 45 degrees")
        }
        if run.views.count < fewViews {
            advice.append("only \(run.views.count) views were used: 15 to 30 varied views calibrate reliably")
        }
        if run.rms > rmsLimit {
            advice.append(
                "the reprojection error is high (" + CameraCalibration.format(run.rms)
                    + " px): keep the board flat and the pictures sharp, and check the pattern's size")
        }
        let uncertain = ["fx", "fy"].compactMap(run.parameter).filter { $0.interval95 > focalIntervalLimit * abs($0.value) }
        if !uncertain.isEmpty {
            advice.append(
                "the focal length is uncertain by more than 1%: take more views, tilted and near the edges")
        }
        if let sentence = uncertainty.flatMap(sentence(for:)) { advice.append(sentence) }
        return advice
    }

    /// Where to capture more by the projection-uncertainty map: the image corner where it is worst,
    /// when it passes ``uncertaintyLimit`` there; `nil` otherwise.
    public static func sentence(for uncertainty: UncertaintyMap) -> String? {
        let worst = uncertainty.worstCorner
        guard !(worst.value <= uncertaintyLimit) else { return nil }
        return "the projection uncertainty " + ProjectionWording.reaches(worst.value) + " at the \(worst.name) corner: "
            + "capture more near the \(worst.name) corner"
    }
}
