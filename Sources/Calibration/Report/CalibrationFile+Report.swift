import FileFormats
import MarkerDetection

/// calibration.json (``CalibrationFile``, in FileFormats) filled from a report: everything
/// ``CalibrationReport/json`` writes.
extension CalibrationFile {
    init(_ report: CalibrationReport) {
        self.init()
        let result = report.result
        image_width = result.imageSize.width
        image_height = result.imageSize.height
        distortion_model = result.model.rawValue
        pattern = report.pattern
        camera_matrix = FiniteNumber.list(result.camera.cameraMatrix)
        distortion_coefficients = FiniteNumber.list(result.camera.distortion)
        avg_reprojection_error = FiniteNumber(result.run.rms)
        per_view_errors = result.run.views.map { FiniteNumber($0.rms) }
        views_used = result.run.views.map(\.view.name)
        views_rejected = result.rejected.map { Rejected(name: $0.name, reason: $0.reason) }
        outlier_rule = CameraCalibration.outlierRule
        let refinement = result.run.refinement
        corner_rule = refinement?.cornerRule
        distortion_refined = refinement.map { !$0.holdsDistortion(of: result.model) }
        regularization = refinement.map { refinement in
            var regularization = Regularization()
            regularization.weight_px = FiniteNumber(refinement.regularization)
            regularization.coefficients = refinement.regularizedCoefficients(of: result.model)
            regularization.weights_px = refinement.coefficientWeights(of: result.model)?.map(FiniteNumber.init)
            regularization.radial_guard_weight = result.model == .rational && !refinement.holdsDistortion(of: .rational)
                && refinement.guardWeight > 0 ? FiniteNumber(refinement.guardWeight) : nil
            return regularization
        }
        interval_note = CalibrationRefinement.intervalNote(spread: result.run.spread, notMeasured: result.run.spreadNotMeasured)
        corners_dropped = result.run.views.filter { !$0.droppedCorners.isEmpty }.map {
            DroppedCorners(name: $0.view.name, ids: $0.droppedCorners)
        }
        first_run = Run(result.firstRun)
        final_run = result.finalRun.map(Run.init)
        coverage.fraction = FiniteNumber(report.coverage.fraction)
        coverage.columns = report.coverage.columns
        coverage.rows = report.coverage.rows
        coverage.minimum_corners = report.coverage.minimumCorners
        coverage.counts = report.coverage.counts
        advice = report.advice
        uncertainty = Dictionary(uniqueKeysWithValues: result.run.parameters.map { parameter in
            var uncertainty = Uncertainty()
            uncertainty.std = FiniteNumber(parameter.totalStandardDeviation)
            uncertainty.ci95_half_width = FiniteNumber(parameter.interval95)
            uncertainty.noise_ci95_half_width = FiniteNumber(parameter.noiseInterval95)
            uncertainty.spread_ci95_half_width = FiniteNumber(parameter.spreadInterval95)
            return (parameter.name, uncertainty)
        })
        projection_uncertainty = report.uncertainty.map {
            ProjectionUncertainty($0, noise: report.noiseUncertainty, spread: report.spreadUncertainty)
        }
        cross_validation = report.crossValidation.map(CrossValidation.init)
        richer_model_check = report.richerModelCheck.map(CrossValidation.init)
        verdict = Verdict(report.verdict, thresholds: report.thresholds)
    }
}

extension CalibrationFile.Parameter {
    init(_ parameter: CalibrationRun.Parameter) {
        self.init()
        name = parameter.name
        value = FiniteNumber(parameter.value)
        std = FiniteNumber(parameter.totalStandardDeviation)
        ci95 = FiniteNumber.list([parameter.value - parameter.interval95, parameter.value + parameter.interval95])
        noise_std = FiniteNumber(parameter.standardDeviation)
        spread_std = FiniteNumber(parameter.spread)
        spread_dof = parameter.spreadDegreesOfFreedom
    }
}

extension CalibrationFile.Run {
    init(_ run: CalibrationRun) {
        self.init()
        rms = FiniteNumber(run.rms)
        camera_matrix = FiniteNumber.list(run.camera.cameraMatrix)
        distortion_coefficients = FiniteNumber.list(run.camera.distortion)
        parameters = run.parameters.map(CalibrationFile.Parameter.init)
        views = run.views.map { solved in
            var view = CalibrationFile.View()
            view.name = solved.view.name
            view.rms = FiniteNumber(solved.rms)
            view.tilt_degrees = FiniteNumber(solved.tiltDegrees)
            view.corners = solved.view.points.count
            view.corners_dropped = solved.droppedCorners
            return view
        }
        covariance = run.covariance.map(FiniteNumber.list)
        corners_used = run.keptCornerCount
        corners_dropped = run.droppedCornerCount
        corner_drop_threshold = FiniteNumber(run.refinement == nil ? .nan : run.dropThreshold)
        degrees_of_freedom = run.degreesOfFreedom
        solver = run.refinement == nil ? "opencv" : run.startedFromClosedForm ? "closed-form+ceres" : "opencv+ceres"
        opencv_start.rms = FiniteNumber(run.openCVRMS)
        opencv_start.camera_matrix = FiniteNumber.list(run.openCVCamera.cameraMatrix)
        opencv_start.distortion_coefficients = FiniteNumber.list(run.openCVCamera.distortion)
        view_spread = CalibrationFile.ViewSpread(run)
    }
}

extension CalibrationFile.ViewSpread {
    /// The jackknife over `run`'s views (``ViewSpread``), or why it was not measured; `nil` when it
    /// was not asked for.
    init?(_ run: CalibrationRun) {
        self.init()
        if let spread = run.spread {
            groups = spread.groups
            degrees_of_freedom = spread.degreesOfFreedom
            left_out = spread.leftOut
            jackknife_std = spread.variances.map { FiniteNumber($0 >= 0 ? $0.squareRoot() : .nan) }
        } else if let reason = run.spreadNotMeasured {
            not_measured = reason
        } else {
            return nil
        }
    }
}

extension CalibrationFile.Verdict {
    init(_ verdict: CalibrationVerdict, thresholds: CalibrationVerdict.Thresholds) {
        self.init()
        kind = verdict.kind.rawValue
        sentence = verdict.description
        reasons = verdict.reasons
        self.thresholds = thresholds.description
    }
}

extension CalibrationFile.CrossValidation {
    init(_ check: CrossValidation) {
        self.init()
        let number = CalibrationFile.ProjectionUncertainty.number
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
        splits = check.splits.map { split in
            var written = Split()
            written.halves = split.halves
            written.difference_mean_px = number(split.difference.mean)
            written.difference_p95_px = number(split.difference.percentile95)
            written.explained_p95_px = number(split.explained95)
            written.held_out_rms_px = number(split.heldOutRMS)
            written.verdict_key = split.verdict.key
            return written
        }
    }
}

extension CalibrationFile.ProjectionUncertainty {
    init(_ map: UncertaintyMap, noise: UncertaintyMap? = nil, spread: UncertaintyMap? = nil) {
        self.init()
        let number = Self.number
        distance = number(map.distance)
        distance_note = "each pixel's point is placed at the boards' mean distance from the camera, in the target's units"
        centre_px = number(map.centre)
        let worst = map.worstCorner
        worst_corner = Corner(name: worst.name, px: number(worst.value))
        corners_px = map.corners.map(number)
        share_under_0_5_px = number(map.share())
        share_under_1_px = number(map.share(under: 1))
        grid = Grid(columns: map.columns, rows: map.rows, px: map.values.map(number))
        self.noise = noise.map(Self.part)
        self.spread = spread.map(Self.part)
        parts_note = spread == nil ? nil
            : "the map is the root of the sum of the squares of its parts: noise, the corners' scatter (the covariance of the "
                + "solve), and spread, the views' spread beyond it (the jackknife's cameras), scaled so that 1.96 times the map "
                + "is a 95% interval"
        null_note = map.values.contains { !$0.isFinite } || !map.centre.isFinite || map.corners.contains { !$0.isFinite }
            ? "null: no bound, where the lens model folds and says nothing of where a point appears" : nil
    }

    private static func part(_ map: UncertaintyMap) -> Part {
        Part(centre_px: number(map.centre), corners_px: map.corners.map(number), grid_px: map.values.map(number))
    }

    /// The map again, for an image of `size` (`null` read as no bound), or `nil` when the grid is
    /// not one.
    func map(imageSize size: ImageSize) -> UncertaintyMap? {
        let points = grid.columns.multipliedReportingOverflow(by: grid.rows)
        guard grid.columns >= 2, grid.rows >= 2, !points.overflow, grid.px.count == points.partialValue, corners_px.count == 4 else { return nil }
        return UncertaintyMap(
            imageSize: size, distance: distance ?? .nan, columns: grid.columns, rows: grid.rows,
            values: grid.px.map { $0 ?? .infinity }, centre: centre_px ?? .infinity, corners: corners_px.map { $0 ?? .infinity })
    }
}
