import Calibration
public import MarkerShutter
public import Pixels

/// The newest background calibration (`live --calibrate`) as the browser view and the preview
/// window show it: the views, the RMS error, the verdict in the terminal's words (the one
/// ``CalibrationVerdict`` of the solve, never judged again here), fx fy cx cy with their 95%
/// intervals, the advice and the projection-uncertainty map, drawn once per solve as
/// uncertainty.png draws it.
public struct ViewCalibration: Sendable {
    /// A parameter and its 95% interval (`nil` when it is no finite number).
    public struct Parameter: Sendable, Hashable {
        /// `fx`, `fy`, `cx` or `cy`.
        public var name: String
        /// Its value, in pixels.
        public var value: Double
        /// Half the width of its 95% interval, in pixels.
        public var interval95: Double?

        /// Makes a parameter; an interval that is no finite number is kept as `nil`.
        public init(name: String, value: Double, interval95: Double?) {
            self.name = name
            self.value = value
            self.interval95 = interval95.flatMap { $0.isFinite ? $0 : nil }
        }
    }

    /// The views in the solve.
    public var views: Int
    /// The pictures given to the solve (some may have been set aside); `nil` when not known.
    public var pictures: Int?
    /// The RMS reprojection error, in pixels.
    public var rms: Double
    /// The verdict: `good`, `not-good` or `not-enough-to-judge` (``CalibrationVerdict/Kind``).
    public var kind: String
    /// The verdict as the terminal prints it after `verdict: ` (``CalibrationVerdict/description``).
    public var verdict: String
    /// The verdict's reasons.
    public var reasons: [String]
    /// fx, fy, cx and cy.
    public var parameters: [Parameter]
    /// What to capture next; empty when nothing is weak.
    public var advice: [String]
    /// The projection-uncertainty map, when it could be drawn.
    public var map: PixelBuffer?

    /// A calibration of plain values.
    public init(views: Int, pictures: Int? = nil, rms: Double, kind: String, verdict: String, reasons: [String],
                parameters: [Parameter], advice: [String], map: PixelBuffer?) {
        self.views = views
        self.pictures = pictures
        self.rms = rms
        self.kind = kind
        self.verdict = verdict
        self.reasons = reasons
        self.parameters = parameters
        self.advice = advice
        self.map = map
    }

    /// The calibration of a background solve, with its verdict as the solve gave it.
    public init(_ update: LiveCalibration.Update) {
        self.init(
            views: update.views, pictures: update.pictures, rms: update.rms, kind: update.verdict.kind.rawValue, verdict: update.verdict.description,
            reasons: update.verdict.reasons,
            parameters: update.parameters.map {
                Parameter(name: $0.name, value: $0.value, interval95: $0.interval95)
            },
            advice: update.advice, map: update.uncertaintyMap)
    }

    /// `calibration: 8 views, RMS 0.214 px`.
    public var headline: String {
        "calibration: \(views) view\(views == 1 ? "" : "s"), RMS " + (rms.isFinite ? String(format: "%.3f px", rms) : "unknown")
    }

    /// `fx 601.3 ± 2.5`, or `fx 601.3` without a finite interval; `plusMinus` is the sign between.
    public static func text(_ parameter: Parameter, plusMinus: String = "±") -> String {
        let value = parameter.value.isFinite ? String(format: "%.1f", parameter.value) : "unknown"
        return parameter.name + " " + value + (parameter.interval95.map { " \(plusMinus) " + String(format: "%.1f", $0) } ?? "")
    }
}
