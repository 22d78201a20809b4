import FileFormats

/// rig.json (``RigFile``, in FileFormats) filled from a report: everything ``RigReport/json`` writes.
extension RigFile {
    init(_ report: RigReport) {
        self.init()
        let result = report.result
        let names = result.cameras.map(\.name)
        pattern = report.pattern
        cameras = result.cameras.map(Camera.init)
        let firstPair = result.pairs.first
        sets = result.sets.map { set in
            SolvedSet(
                name: set.name, cameras: set.cameras.map { names[$0] }, rms: FiniteNumber(set.rms),
                epipolar_error: firstPair?.epipolarErrors[set.name].map(FiniteNumber.init))
        }
        sets_dropped = result.droppedSets.map { CalibrationFile.Rejected(name: $0.name, reason: $0.reason) }
        placement = result.links.map { Link(camera: names[$0.camera], from: names[$0.from], shared_sets: $0.sharedSets) }
        pairs = result.pairs.map { Pair($0, names: names) }
        stereo = report.stereo.map { stereo in
            Stereo(
                R: FiniteNumber.list(stereo.r), T: FiniteNumber.list(stereo.t), E: FiniteNumber.list(stereo.e),
                F: FiniteNumber.list(stereo.f))
        }
        rms = FiniteNumber(result.rms)
        first_rms = FiniteNumber(result.firstRMS)
        degrees_of_freedom = result.degreesOfFreedom
        intrinsics_refined = result.refinesIntrinsics
        outlier_rule = RigCalibration.outlierRule
        corner_rule = result.refinement.cornerRule + ", camera by camera"
        epipolar_error_note =
            "the mean absolute difference of a corner's rows in the two rectified pictures, over the corners both saw (ROS cameracheck's measure)"
        interval_note = CalibrationRefinement.intervalNote(spreadMeasured: result.spread != nil, notMeasured: result.spreadNotMeasured, between: "set")
        set_spread.groups = result.spread?.groups
        set_spread.degrees_of_freedom = result.spread?.degreesOfFreedom
        set_spread.left_out = result.spread?.leftOut
        set_spread.not_measured = result.spreadNotMeasured
        let units = report.units
        units_note = "translations and baselines are in \(units)" + (units.isMetric ? "" : " (the target has no size)")
            + "; rotation vectors take the first camera's frame into each camera's"
    }
}

extension RigFile.Camera {
    init(_ camera: RigCalibrationResult.CameraResult) {
        self.init()
        let solved = camera.camera, extrinsics = camera.extrinsics
        name = camera.name
        distortion_model = solved.model.rawValue
        image_width = solved.imageSize.width
        image_height = solved.imageSize.height
        camera_matrix = FiniteNumber.list(solved.cameraMatrix)
        distortion_coefficients = FiniteNumber.list(solved.distortion)
        parameters = camera.parameters.map(CalibrationFile.Parameter.init)
        covariance = camera.covariance.map(FiniteNumber.list)
        rms = FiniteNumber(camera.rms)
        corner_drop_threshold = FiniteNumber(camera.dropThreshold)
        corners_dropped = camera.droppedCorners.sorted { $0.key < $1.key }.map { RigFile.DroppedCorners(set: $0.key, ids: $0.value) }
        sets = camera.sets
        self.extrinsics.rotation_matrix = FiniteNumber.list(extrinsics.pose.matrix)
        self.extrinsics.rotation_vector = FiniteNumber.list(extrinsics.pose.rotation)
        self.extrinsics.translation = FiniteNumber.list(extrinsics.pose.translation)
        self.extrinsics.baseline = CalibrationFile.Parameter(extrinsics.baseline)
        self.extrinsics.rotation_angle_degrees = CalibrationFile.Parameter(extrinsics.angleDegrees)
        self.extrinsics.rotation_vector_degrees = extrinsics.rotationDegrees.map(CalibrationFile.Parameter.init)
        self.extrinsics.translation_values = extrinsics.translation.map(CalibrationFile.Parameter.init)
        self.extrinsics.covariance = extrinsics.covariance.map(FiniteNumber.list)
        own_rms = FiniteNumber(camera.single.run.rms)
        own_views_used = camera.single.run.views.count
    }
}

extension RigFile.Pair {
    init(_ pair: RigCalibrationResult.Pair, names: [String]) {
        self.init()
        let rectification = pair.rectification
        first = names[pair.first]
        second = names[pair.second]
        R1 = rectification.map { FiniteNumber.list($0.r1) }
        R2 = rectification.map { FiniteNumber.list($0.r2) }
        P1 = rectification.map { FiniteNumber.list($0.p1) }
        P2 = rectification.map { FiniteNumber.list($0.p2) }
        Q = rectification.map { FiniteNumber.list($0.q) }
        epipolar_errors = pair.epipolarErrors.sorted { $0.key < $1.key }.map { RigFile.EpipolarError(set: $0.key, error: FiniteNumber($0.value)) }
        mean_epipolar_error = pair.meanEpipolarError.map(FiniteNumber.init)
    }
}

extension CalibrationFile.Parameter {
    /// A value of the extrinsics: nameless, its key names it.
    init(_ value: RigExtrinsics.Value) {
        self.init()
        self.value = FiniteNumber(value.value)
        std = FiniteNumber(value.totalStandardDeviation)
        ci95 = FiniteNumber.list([value.value - value.interval95, value.value + value.interval95])
        noise_std = FiniteNumber(value.standardDeviation)
        spread_std = FiniteNumber(value.spread)
        spread_dof = value.spreadDegreesOfFreedom
    }
}
