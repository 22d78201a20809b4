import FileFormats
import Foundation

extension RigReport {
    /// rig.json: every camera after the joint solve (intrinsics with standard deviations and 95%
    /// intervals, its pose relative to the first camera with the baseline, the translation, the
    /// rotation's angle and vector, each with its standard deviation and 95% interval, and the
    /// pose's covariance), every set (cameras, RMS) and every dropped one (reason), how the
    /// cameras were placed, each pair's rectification and the epipolar error of every set, the
    /// stereo matrices of two cameras, and the rules.
    ///
    /// Keys sorted, two spaces of indent; a number that is not finite is `null`.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        if let data = try? encoder.encode(RigFile(self)) {
            return String(decoding: data, as: UTF8.self) + "\n"
        }
        return "{\"error\": \"the report could not be encoded\"}\n"
    }
}

/// rig.json's fields, by their names in the file.
private struct RigFile: Encodable {
    /// A value: `std` is the one the 95% interval is 1.96 of (the corners' scatter and the
    /// spread between sets together), `noise_std` the scatter's part, `spread_std` the spread's
    /// beyond it (0 when the scatter explains it or it was not measured).
    struct Value: Encodable {
        let value: FiniteNumber
        let std: FiniteNumber
        let ci95: [FiniteNumber]
        let noise_std: FiniteNumber
        let spread_std: FiniteNumber

        init(_ value: RigExtrinsics.Value) {
            self.value = FiniteNumber(value.value)
            std = FiniteNumber(value.totalStandardDeviation)
            ci95 = FiniteNumber.list([value.value - value.interval95, value.value + value.interval95])
            noise_std = FiniteNumber(value.standardDeviation)
            spread_std = FiniteNumber(value.spread)
        }
    }

    struct Parameter: Encodable {
        let name: String
        let value: FiniteNumber
        let std: FiniteNumber
        let ci95: [FiniteNumber]
        let noise_std: FiniteNumber
        let spread_std: FiniteNumber

        init(_ parameter: CalibrationRun.Parameter) {
            name = parameter.name
            value = FiniteNumber(parameter.value)
            std = FiniteNumber(parameter.totalStandardDeviation)
            ci95 = FiniteNumber.list([parameter.value - parameter.interval95, parameter.value + parameter.interval95])
            noise_std = FiniteNumber(parameter.standardDeviation)
            spread_std = FiniteNumber(parameter.spread)
        }
    }

    /// The jackknife over groups of sets (``RigSpread``), or why it was not measured.
    struct SetSpread: Encodable {
        let groups: Int?
        let degrees_of_freedom: Int?
        let left_out: [[String]]?
        let not_measured: String?
    }

    struct Extrinsics: Encodable {
        let rotation_matrix: [FiniteNumber]
        let rotation_vector: [FiniteNumber]
        let translation: [FiniteNumber]
        let baseline: Value
        let rotation_angle_degrees: Value
        let rotation_vector_degrees: [Value]
        let translation_values: [Value]
        let covariance: [[FiniteNumber]]
    }

    struct DroppedCorners: Encodable {
        let set: String
        let ids: [Int]
    }

    struct Camera: Encodable {
        let name: String
        let distortion_model: String
        let image_width: Int
        let image_height: Int
        let camera_matrix: [FiniteNumber]
        let distortion_coefficients: [FiniteNumber]
        let parameters: [Parameter]
        let covariance: [[FiniteNumber]]
        let rms: FiniteNumber
        let corner_drop_threshold: FiniteNumber
        let corners_dropped: [DroppedCorners]
        let sets: [String]
        let extrinsics: Extrinsics
        let own_rms: FiniteNumber
        let own_views_used: Int
    }

    struct SolvedSet: Encodable {
        let name: String
        let cameras: [String]
        let rms: FiniteNumber
        let epipolar_error: FiniteNumber?
    }

    struct Rejected: Encodable {
        let name: String
        let reason: String
    }

    struct Link: Encodable {
        let camera: String
        let from: String
        let shared_sets: Int
    }

    struct EpipolarError: Encodable {
        let set: String
        let error: FiniteNumber
    }

    struct Pair: Encodable {
        let first: String
        let second: String
        let R1: [FiniteNumber]?
        let R2: [FiniteNumber]?
        let P1: [FiniteNumber]?
        let P2: [FiniteNumber]?
        let Q: [FiniteNumber]?
        let epipolar_errors: [EpipolarError]
        let mean_epipolar_error: FiniteNumber?
    }

    struct Stereo: Encodable {
        let R: [FiniteNumber]
        let T: [FiniteNumber]
        let E: [FiniteNumber]
        let F: [FiniteNumber]
    }

    let pattern: String
    let cameras: [Camera]
    let sets: [SolvedSet]
    let sets_dropped: [Rejected]
    let placement: [Link]
    let pairs: [Pair]
    let stereo: Stereo?
    let rms: FiniteNumber
    let first_rms: FiniteNumber
    let degrees_of_freedom: Int
    let intrinsics_refined: Bool
    let outlier_rule: String
    let corner_rule: String
    let epipolar_error_note: String
    let interval_note: String
    let set_spread: SetSpread
    let units_note: String

    init(_ report: RigReport) {
        let result = report.result
        let names = result.cameras.map(\.name)
        pattern = report.pattern
        cameras = result.cameras.map { camera in
            let solved = camera.camera, extrinsics = camera.extrinsics
            return Camera(
                name: camera.name, distortion_model: solved.model.rawValue, image_width: solved.imageSize.width,
                image_height: solved.imageSize.height, camera_matrix: FiniteNumber.list(solved.cameraMatrix),
                distortion_coefficients: FiniteNumber.list(solved.distortion),
                parameters: camera.parameters.map(Parameter.init),
                covariance: camera.covariance.map(FiniteNumber.list), rms: FiniteNumber(camera.rms),
                corner_drop_threshold: FiniteNumber(camera.dropThreshold),
                corners_dropped: camera.droppedCorners.sorted { $0.key < $1.key }.map { DroppedCorners(set: $0.key, ids: $0.value) },
                sets: camera.sets,
                extrinsics: Extrinsics(
                    rotation_matrix: FiniteNumber.list(extrinsics.pose.matrix),
                    rotation_vector: FiniteNumber.list(extrinsics.pose.rotation),
                    translation: FiniteNumber.list(extrinsics.pose.translation), baseline: Value(extrinsics.baseline),
                    rotation_angle_degrees: Value(extrinsics.angleDegrees),
                    rotation_vector_degrees: extrinsics.rotationDegrees.map(Value.init),
                    translation_values: extrinsics.translation.map(Value.init),
                    covariance: extrinsics.covariance.map(FiniteNumber.list)),
                own_rms: FiniteNumber(camera.single.run.rms), own_views_used: camera.single.run.views.count)
        }
        let firstPair = result.pairs.first
        sets = result.sets.map { set in
            SolvedSet(
                name: set.name, cameras: set.cameras.map { names[$0] }, rms: FiniteNumber(set.rms),
                epipolar_error: firstPair?.epipolarErrors[set.name].map(FiniteNumber.init))
        }
        sets_dropped = result.droppedSets.map { Rejected(name: $0.name, reason: $0.reason) }
        placement = result.links.map { Link(camera: names[$0.camera], from: names[$0.from], shared_sets: $0.sharedSets) }
        pairs = result.pairs.map { pair in
            let rectification = pair.rectification
            return Pair(
                first: names[pair.first], second: names[pair.second], R1: rectification.map { FiniteNumber.list($0.r1) },
                R2: rectification.map { FiniteNumber.list($0.r2) }, P1: rectification.map { FiniteNumber.list($0.p1) },
                P2: rectification.map { FiniteNumber.list($0.p2) }, Q: rectification.map { FiniteNumber.list($0.q) },
                epipolar_errors: pair.epipolarErrors.sorted { $0.key < $1.key }.map { EpipolarError(set: $0.key, error: FiniteNumber($0.value)) },
                mean_epipolar_error: pair.meanEpipolarError.map(FiniteNumber.init))
        }
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
        set_spread = SetSpread(
            groups: result.spread?.groups, degrees_of_freedom: result.spread?.degreesOfFreedom, left_out: result.spread?.leftOut,
            not_measured: result.spreadNotMeasured)
        let units = report.units
        units_note = "translations and baselines are in \(units)" + (units.isMetric ? "" : " (the target has no size)")
            + "; rotation vectors take the first camera's frame into each camera's"
    }
}
