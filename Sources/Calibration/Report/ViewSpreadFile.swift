import FileFormats

/// calibration.json's `view_spread` of a run: the jackknife over its views (``ViewSpread``), or why
/// it was not measured; `null` when it was not asked for.
struct ViewSpreadFile: Encodable {
    let groups: Int?
    let degrees_of_freedom: Int?
    let left_out: [[String]]?
    /// Each parameter's jackknife standard deviation (the scatter and the spread together), in the
    /// order of the run's parameters.
    let jackknife_std: [FiniteNumber]?
    let not_measured: String?

    init?(_ run: CalibrationRun) {
        if let spread = run.spread {
            groups = spread.groups
            degrees_of_freedom = spread.degreesOfFreedom
            left_out = spread.leftOut
            jackknife_std = spread.variances.map { FiniteNumber($0 >= 0 ? $0.squareRoot() : .nan) }
            not_measured = nil
        } else if let reason = run.spreadNotMeasured {
            groups = nil
            degrees_of_freedom = nil
            left_out = nil
            jackknife_std = nil
            not_measured = reason
        } else {
            return nil
        }
    }
}
