import Foundation

/// Whether a calibration is good: the one verdict `calibrate`, `live`, the browser view, the
/// preview window and `compare` all give, with its reasons.
///
/// A calibration is good when all of these hold:
/// - its corners cover the image (``Thresholds/coverage`` of its cells, no third of it empty);
/// - its projection uncertainty, the corners' scatter and the views' spread together, is under
///   ``Thresholds/uncertaintyLevel`` over ``Thresholds/uncertaintyShare`` of the image;
/// - its cross-validation's halves are consistent;
/// - and, when they are set, its RMS error and its focal lengths' intervals are under their
///   limits (`live --good-rms`, `--good-focal-interval`).
///
/// When a check cannot run (no uncertainty map, no spread, no cross-validation), the verdict is
/// "not enough to judge", with the reason: a calibration is never called good on checks that were
/// not made. A good calibration whose uncertainty passes 1 px at an image corner says so.
public struct CalibrationVerdict: Sendable, Hashable, CustomStringConvertible {
    /// The three verdicts.
    public enum Kind: String, Sendable, Hashable {
        /// Every check ran and passed.
        case good
        /// Every check ran; at least one failed.
        case notGood = "not-good"
        /// A check could not run.
        case notEnoughToJudge = "not-enough-to-judge"
    }

    /// The limits a good calibration stays within.
    public struct Thresholds: Sendable, Hashable {
        /// The projection uncertainty (1 sigma, both parts), in pixels, that ``uncertaintyShare`` of
        /// the image must be under.
        public var uncertaintyLevel: Double = 1
        /// The share of the image that must be under ``uncertaintyLevel``.
        public var uncertaintyShare: Double = 0.9
        /// The share of the image's cells the corners must cover (``CornerCoverage``).
        public var coverage: Double = CalibrationAdvice.coverageLimit
        /// The RMS reprojection error must be under this many pixels, when set.
        public var rms: Double?
        /// Each focal length's 95% interval must be under this share of its value, when set.
        public var focalInterval: Double?

        /// The limits `calibrate` uses.
        public static let standard = Thresholds()

        /// Makes limits; the defaults are ``standard``'s.
        public init(
            uncertaintyLevel: Double = 1, uncertaintyShare: Double = 0.9, coverage: Double = CalibrationAdvice.coverageLimit,
            rms: Double? = nil, focalInterval: Double? = nil
        ) {
            self.uncertaintyLevel = uncertaintyLevel
            self.uncertaintyShare = uncertaintyShare
            self.coverage = coverage
            self.rms = rms
            self.focalInterval = focalInterval
        }

        /// The limits in words: `corners over 50% of the image, projection uncertainty under 1 px
        /// over 90% of it, consistent halves`.
        public var description: String {
            var parts = [
                "corners over \(Self.percent(coverage)) of the image",
                "projection uncertainty under " + Self.number(uncertaintyLevel) + " px over \(Self.percent(uncertaintyShare)) of it",
                "consistent halves",
            ]
            if let rms { parts.append("RMS under " + Self.number(rms) + " px") }
            if let focalInterval { parts.append("focal lengths within " + Self.number(focalInterval * 100) + "%") }
            return parts.joined(separator: ", ")
        }

        static func percent(_ share: Double) -> String { "\(Int((share * 100).rounded()))%" }
        static func number(_ value: Double) -> String { String(format: "%g", value) }
    }

    /// The verdict.
    public var kind: Kind
    /// Why it is not good, or why it cannot be judged; for a good calibration, what a user should
    /// still know (an image corner over 1 px).
    public var reasons: [String]

    /// Makes a verdict.
    public init(kind: Kind, reasons: [String]) {
        self.kind = kind
        self.reasons = reasons
    }

    /// Whether the calibration is good.
    public var isGood: Bool { kind == .good }

    /// One line: `good`, `good, but the lower-left corner reaches 1.4 px`, `not good: too few
    /// views: ...`, `not enough to judge: ...`.
    public var description: String {
        switch kind {
        case .good: reasons.isEmpty ? "good" : "good, but " + reasons.joined(separator: "; ")
        case .notGood: "not good: " + reasons.joined(separator: "; ")
        case .notEnoughToJudge: "not enough to judge: " + reasons.joined(separator: "; ")
        }
    }

    /// The uncertainty at an image corner over which a good verdict names the corner.
    public static let cornerLevel = 1.0

    /// The verdict on `report` by `thresholds`.
    public static func judge(_ report: CalibrationReport, thresholds: Thresholds = .standard) -> CalibrationVerdict {
        let run = report.result.run
        var missing: [String] = []
        guard let map = report.uncertainty else {
            return CalibrationVerdict(
                kind: .notEnoughToJudge, reasons: ["there is no projection-uncertainty map (OpenCV's solve alone has none)"])
        }
        if run.spread == nil {
            missing.append("the views' spread was not measured" + (run.spreadNotMeasured.map { ": " + $0 } ?? ""))
        }
        if report.crossValidation == nil {
            let why = report.crossValidationNotRun.map { ": " + $0 }
                ?? (run.views.count < CrossValidation.defaultMinimumViews
                    ? " (\(run.views.count) views; they are compared from \(CrossValidation.defaultMinimumViews))"
                    : " (cross-validation was turned off)")
            missing.append("the halves were not compared" + why)
        }
        var failed: [String] = []
        if let check = report.crossValidation, check.verdict != .consistent {
            failed.append(check.verdict.description)
        }
        let coverage = report.coverage
        if !coverage.emptyThirds.isEmpty {
            failed.append("the " + coverage.emptyThirds.joined(separator: " and ") + " third" + (coverage.emptyThirds.count == 1 ? "" : "s")
                + " of the image " + (coverage.emptyThirds.count == 1 ? "has" : "have") + " no corners")
        } else if coverage.fraction < thresholds.coverage {
            failed.append("the corners cover \(Thresholds.percent(coverage.fraction)) of the image (\(Thresholds.percent(thresholds.coverage)) wanted)")
        }
        let share = map.share(under: thresholds.uncertaintyLevel)
        if share < thresholds.uncertaintyShare {
            let worst = map.worstCorner
            failed.append(
                "the projection uncertainty is under " + Thresholds.number(thresholds.uncertaintyLevel) + " px over "
                    + "\(Thresholds.percent(share)) of the image (\(Thresholds.percent(thresholds.uncertaintyShare)) wanted); it "
                    + ProjectionWording.reaches(worst.value) + " at the \(worst.name) corner")
        }
        if let limit = thresholds.rms, !(run.rms < limit) {
            failed.append("the RMS error is " + CameraCalibration.format(run.rms) + " px (under " + Thresholds.number(limit) + " px wanted)")
        }
        if let limit = thresholds.focalInterval {
            for parameter in ["fx", "fy"].compactMap(run.parameter)
            where !(parameter.interval95 < limit * abs(parameter.value)) {
                failed.append(
                    "\(parameter.name) is uncertain by " + String(format: "%.2f%%", 100 * parameter.interval95 / max(abs(parameter.value), .leastNonzeroMagnitude))
                        + " (under " + Thresholds.number(limit * 100) + "% wanted)")
            }
        }
        if !failed.isEmpty { return CalibrationVerdict(kind: .notGood, reasons: failed + missing) }
        if !missing.isEmpty { return CalibrationVerdict(kind: .notEnoughToJudge, reasons: missing) }
        var caveats: [String] = []
        for (name, value) in zip(UncertaintyMap.cornerNames, map.corners) where !(value <= cornerLevel) {
            caveats.append("the \(name) corner's projection uncertainty " + ProjectionWording.reaches(value))
        }
        return CalibrationVerdict(kind: .good, reasons: caveats)
    }
}
