/// calibration.json's `cross_validation`: the median split's figures (as the summary gives them),
/// the verdict most splits give, and every split. Numbers that are not finite are `null`.
struct CrossValidationFile: Encodable {
    struct Split: Encodable {
        let halves: [[String]]
        let difference_mean_px: Double?
        let difference_p95_px: Double?
        let explained_p95_px: Double?
        let held_out_rms_px: Double?
        let verdict_key: String

        init(_ split: CrossValidation.Split) {
            let number = ProjectionUncertaintyFile.number
            halves = split.halves
            difference_mean_px = number(split.difference.mean)
            difference_p95_px = number(split.difference.percentile95)
            explained_p95_px = number(split.explained95)
            held_out_rms_px = number(split.heldOutRMS)
            verdict_key = split.verdict.key
        }
    }

    let halves: [[String]]
    let difference_mean_px: Double?
    let difference_p95_px: Double?
    let difference_centre_px: Double?
    let difference_corners_px: [Double?]
    let fitted_rotation: [Double?]
    let explained_p95_px: Double?
    let halves_rms_px: [Double?]
    let held_out_rms_px: Double?
    let verdict: String
    let verdict_key: String
    /// The smallest and largest of the splits' differences (95th percentile).
    let difference_p95_range_px: [Double?]
    let split_rule: String
    let splits: [Split]

    init(_ check: CrossValidation) {
        let number = ProjectionUncertaintyFile.number
        halves = check.halves
        difference_mean_px = number(check.difference.mean)
        difference_p95_px = number(check.difference.percentile95)
        difference_centre_px = number(check.difference.centre)
        difference_corners_px = check.difference.corners.map(number)
        fitted_rotation = check.difference.rotation.map(number)
        explained_p95_px = number(check.explained95)
        halves_rms_px = check.halvesRMS.map(number)
        held_out_rms_px = number(check.heldOutRMS)
        verdict = check.verdict.description
        verdict_key = check.verdict.key
        difference_p95_range_px = check.differenceRange.map { [number($0.lowerBound), number($0.upperBound)] } ?? [nil, nil]
        split_rule = "each split halves the views at random from a fixed seed (the same halves on every run); "
            + "the top-level figures are the median split's, the verdict the one most splits give"
        splits = check.splits.map(Split.init)
    }
}
