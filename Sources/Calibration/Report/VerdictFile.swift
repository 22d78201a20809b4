/// calibration.json's `verdict` (``CalibrationVerdict``): its kind, its line, its reasons, and the
/// limits it was judged by.
struct VerdictFile: Encodable {
    let kind: String
    let sentence: String
    let reasons: [String]
    let thresholds: String

    init(_ verdict: CalibrationVerdict, thresholds: CalibrationVerdict.Thresholds) {
        kind = verdict.kind.rawValue
        sentence = verdict.description
        reasons = verdict.reasons
        self.thresholds = thresholds.description
    }
}
