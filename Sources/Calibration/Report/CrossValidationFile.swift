/// calibration.json's `cross_validation`. Numbers that are not finite are `null`.
struct CrossValidationFile: Encodable {
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
    }
}
