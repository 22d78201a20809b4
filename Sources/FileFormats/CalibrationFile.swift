import Foundation

/// `calibration.json`, as `calibrate` and `live --calibrate` write it and `compare` reads it back:
/// the one place its keys are named.
///
/// Written whole from a ``CalibrationFile`` (``text``): keys sorted, two spaces of indent, a number
/// that is not finite `null`, `final_run` `null` when there was no second run. Read by
/// ``read(_:)`` as untrusted input, for the camera it describes and its uncertainty map only
/// (``Camera``): an older file without the newer parts still reads, and a file that is not a
/// camera is a ``CalibrationFileError`` saying what is wrong (one nested deeper than
/// ``JSONNesting/maximumDepth`` is refused before the decoder sees it).
package struct CalibrationFile: SortedJSONFile, Sendable {
    /// An intrinsic (or, in ``RigFile``, any value with an interval): `std` is what the 95%
    /// interval `ci95` is 1.96 of (the corners' scatter and the views' spread together),
    /// `noise_std` the scatter's part, `spread_std` the spread's beyond it and `spread_dof` its
    /// degrees of freedom (0: not measured).
    package struct Parameter: Codable, Sendable {
        /// Left out for a value its key names (rig.json's extrinsics).
        package var name: String?
        package var value = FiniteNumber(0)
        package var std = FiniteNumber(0)
        package var ci95: [FiniteNumber] = []
        package var noise_std = FiniteNumber(0)
        package var spread_std = FiniteNumber(0)
        package var spread_dof = 0
        package init() {}

        private enum CodingKeys: String, CodingKey {
            case name, value, std, ci95, noise_std, spread_std, spread_dof
        }

        /// Reads a parameter; one written before `spread_dof` existed has 0 (not measured).
        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decodeIfPresent(String.self, forKey: .name)
            value = try container.decode(FiniteNumber.self, forKey: .value)
            std = try container.decode(FiniteNumber.self, forKey: .std)
            ci95 = try container.decode([FiniteNumber].self, forKey: .ci95)
            noise_std = try container.decode(FiniteNumber.self, forKey: .noise_std)
            spread_std = try container.decode(FiniteNumber.self, forKey: .spread_std)
            spread_dof = try container.decodeIfPresent(Int.self, forKey: .spread_dof) ?? 0
        }
    }

    /// A view used: its RMS, tilt, corners and the corners dropped.
    package struct View: Encodable, Sendable {
        package var name = ""
        package var rms = FiniteNumber(0)
        package var tilt_degrees = FiniteNumber(0)
        package var corners = 0
        package var corners_dropped: [Int] = []
        package init() {}
    }

    /// OpenCV's solve the refinement started from.
    package struct Start: Encodable, Sendable {
        package var rms = FiniteNumber(0)
        package var camera_matrix: [FiniteNumber] = []
        package var distortion_coefficients: [FiniteNumber] = []
        package init() {}
    }

    /// The views' spread of a run (a jackknife over groups of views), or why it was not measured.
    package struct ViewSpread: Encodable, Sendable {
        package var groups: Int?
        package var degrees_of_freedom: Int?
        package var left_out: [[String]]?
        /// Each parameter's jackknife standard deviation, in the order of the run's parameters.
        package var jackknife_std: [FiniteNumber]?
        package var not_measured: String?
        package init() {}
    }

    /// A run (the first with every view, or the final one).
    package struct Run: Encodable, Sendable {
        package var rms = FiniteNumber(0)
        package var camera_matrix: [FiniteNumber] = []
        package var distortion_coefficients: [FiniteNumber] = []
        package var parameters: [Parameter] = []
        package var views: [View] = []
        package var covariance: [[FiniteNumber]] = []
        package var corners_used = 0
        package var corners_dropped = 0
        /// `null` for OpenCV's solve alone.
        package var corner_drop_threshold = FiniteNumber(.nan)
        package var degrees_of_freedom = 0
        package var solver = ""
        package var opencv_start = Start()
        package var view_spread: ViewSpread?
        package init() {}
    }

    /// A view left out (or, in ``RigFile``, a set), with why.
    package struct Rejected: Codable, Sendable {
        package var name: String
        package var reason: String
        package init(name: String, reason: String) {
            self.name = name
            self.reason = reason
        }
    }

    /// How much of the image the corners cover.
    package struct Coverage: Encodable, Sendable {
        package var fraction = FiniteNumber(0)
        package var columns = 0
        package var rows = 0
        package var minimum_corners = 0
        package var counts: [Int] = []
        package init() {}
    }

    /// The pull of the higher distortion terms towards 0.
    package struct Regularization: Encodable, Sendable {
        package var weight_px = FiniteNumber(0)
        package var coefficients: [String] = []
        /// The rational model's weight per coefficient of `coefficients`, when it has its own.
        package var weights_px: [FiniteNumber]?
        /// The rational model's radial guard weight, when it has one.
        package var radial_guard_weight: FiniteNumber?
        package init() {}
    }

    /// The corners a view lost to the corner rule.
    package struct DroppedCorners: Encodable, Sendable {
        package var name: String
        package var ids: [Int]
        package init(name: String, ids: [Int]) {
            self.name = name
            self.ids = ids
        }
    }

    /// A parameter's uncertainty by its name.
    package struct Uncertainty: Encodable, Sendable {
        package var std = FiniteNumber(0)
        package var ci95_half_width = FiniteNumber(0)
        package var noise_ci95_half_width = FiniteNumber(0)
        package var spread_ci95_half_width = FiniteNumber(0)
        package init() {}
    }

    /// The projection-uncertainty map's numbers (the corners' scatter and the views' spread
    /// together), with each part's; `null` stands for no bound, where the lens model folds.
    package struct ProjectionUncertainty: Codable, Sendable {
        package struct Corner: Codable, Sendable {
            package var name: String
            package var px: Double?
            package init(name: String, px: Double?) {
                self.name = name
                self.px = px
            }
        }

        package struct Grid: Codable, Sendable {
            package var columns: Int
            package var rows: Int
            /// Row by row from the top, the first and last points on the image's edges.
            package var px: [Double?]
            package init(columns: Int, rows: Int, px: [Double?]) {
                self.columns = columns
                self.rows = rows
                self.px = px
            }
        }

        /// One part of the map: its centre, corners and grid.
        package struct Part: Codable, Sendable {
            package var centre_px: Double?
            package var corners_px: [Double?]
            package var grid_px: [Double?]
            package init(centre_px: Double?, corners_px: [Double?], grid_px: [Double?]) {
                self.centre_px = centre_px
                self.corners_px = corners_px
                self.grid_px = grid_px
            }
        }

        package var measure = "worstdirection-stdev"
        package var distance: Double?
        package var distance_note = ""
        package var centre_px: Double?
        package var worst_corner = Corner(name: "", px: nil)
        package var corners_px: [Double?] = []
        package var share_under_0_5_px: Double?
        package var share_under_1_px: Double?
        package var grid = Grid(columns: 0, rows: 0, px: [])
        package var parts_note: String?
        /// The corners' scatter's part, and the views' spread's part beyond it.
        package var noise: Part?
        package var spread: Part?
        package var null_note: String?
        package init() {}

        /// A number, or `nil` (written `null`) for one that is not finite.
        package static func number(_ value: Double) -> Double? { value.isFinite ? value : nil }
    }

    /// A cross-validation: the median split's figures, the verdict most splits give, every split.
    package struct CrossValidation: Encodable, Sendable {
        package struct Split: Encodable, Sendable {
            package var halves: [[String]] = []
            package var difference_mean_px: Double?
            package var difference_p95_px: Double?
            package var explained_p95_px: Double?
            package var held_out_rms_px: Double?
            package var verdict_key = ""
            package init() {}
        }

        package var halves: [[String]] = []
        package var difference_mean_px: Double?
        package var difference_p95_px: Double?
        package var difference_centre_px: Double?
        package var difference_corners_px: [Double?] = []
        package var fitted_rotation: [Double?] = []
        package var explained_p95_px: Double?
        package var halves_rms_px: [Double?] = []
        package var held_out_rms_px: Double?
        package var verdict = ""
        package var verdict_key = ""
        /// The smallest and largest of the splits' differences (95th percentile).
        package var difference_p95_range_px: [Double?] = []
        package var split_rule = ""
        package var splits: [Split] = []
        package init() {}
    }

    /// The verdict: its kind, its line, its reasons and the limits it was judged by.
    package struct Verdict: Codable, Sendable {
        package var kind = ""
        package var sentence = ""
        package var reasons: [String] = []
        package var thresholds = ""
        package init() {}
    }

    package var image_width = 0
    package var image_height = 0
    package var distortion_model = ""
    package var pattern = ""
    package var camera_matrix: [FiniteNumber] = []
    package var distortion_coefficients: [FiniteNumber] = []
    package var avg_reprojection_error = FiniteNumber(0)
    package var per_view_errors: [FiniteNumber] = []
    package var views_used: [String] = []
    package var views_rejected: [Rejected] = []
    package var outlier_rule = ""
    /// `null` (as are the two below) for OpenCV's solve alone.
    package var corner_rule: String?
    package var distortion_refined: Bool?
    package var regularization: Regularization?
    package var interval_note = ""
    package var corners_dropped: [DroppedCorners] = []
    package var first_run = Run()
    /// `null` when there was no second run.
    package var final_run: Run?
    package var coverage = Coverage()
    package var advice: [String] = []
    package var uncertainty: [String: Uncertainty] = [:]
    package var projection_uncertainty: ProjectionUncertainty?
    package var cross_validation: CrossValidation?
    package var richer_model_check: CrossValidation?
    package var verdict = Verdict()

    package init() {}

    private enum CodingKeys: String, CodingKey {
        case image_width, image_height, distortion_model, pattern, camera_matrix, distortion_coefficients
        case avg_reprojection_error, per_view_errors, views_used, views_rejected, outlier_rule, first_run, final_run
        case corner_rule, distortion_refined, regularization, interval_note, corners_dropped
        case coverage, advice, uncertainty, projection_uncertainty, cross_validation, richer_model_check, verdict
    }

    /// Every key, `null` included: a reader sees which parts a run did not have.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(image_width, forKey: .image_width)
        try container.encode(image_height, forKey: .image_height)
        try container.encode(distortion_model, forKey: .distortion_model)
        try container.encode(pattern, forKey: .pattern)
        try container.encode(camera_matrix, forKey: .camera_matrix)
        try container.encode(distortion_coefficients, forKey: .distortion_coefficients)
        try container.encode(avg_reprojection_error, forKey: .avg_reprojection_error)
        try container.encode(per_view_errors, forKey: .per_view_errors)
        try container.encode(views_used, forKey: .views_used)
        try container.encode(views_rejected, forKey: .views_rejected)
        try container.encode(outlier_rule, forKey: .outlier_rule)
        try container.encode(corner_rule, forKey: .corner_rule)
        try container.encode(distortion_refined, forKey: .distortion_refined)
        try container.encode(regularization, forKey: .regularization)
        try container.encode(interval_note, forKey: .interval_note)
        try container.encode(corners_dropped, forKey: .corners_dropped)
        try container.encode(first_run, forKey: .first_run)
        try container.encode(final_run, forKey: .final_run)
        try container.encode(coverage, forKey: .coverage)
        try container.encode(advice, forKey: .advice)
        try container.encode(uncertainty, forKey: .uncertainty)
        try container.encode(projection_uncertainty, forKey: .projection_uncertainty)
        try container.encode(cross_validation, forKey: .cross_validation)
        try container.encode(richer_model_check, forKey: .richer_model_check)
        try container.encode(verdict, forKey: .verdict)
    }

    /// What a reader takes from the file: the camera and its uncertainty map.
    package struct Camera: Decodable, Sendable {
        package struct Verdict: Decodable, Sendable {
            package var sentence: String
        }

        package var image_width: Int
        package var image_height: Int
        package var distortion_model: String
        package var camera_matrix: [Double]
        package var distortion_coefficients: [Double]
        package var projection_uncertainty: ProjectionUncertainty?
        package var verdict: Verdict?
    }

    /// Reads the camera of a calibration.json's `bytes`: an image of 2 pixels or more each way, a
    /// camera matrix of 9 finite numbers with positive focal lengths, finite distortion
    /// coefficients. The distortion model's name and its number of coefficients are left to the
    /// caller, which knows the models.
    ///
    /// - Throws: ``CalibrationFileError`` saying what is wrong.
    package static func read(_ bytes: [UInt8]) throws(CalibrationFileError) -> Camera {
        if let problem = JSONNesting.problem(bytes) { throw .notACalibration(problem) }
        let camera: Camera
        do {
            camera = try JSONDecoder().decode(Camera.self, from: Data(bytes))
        } catch {
            throw .notACalibration(DecodingProblem.sentence(error, in: Data(bytes)))
        }
        let k = camera.camera_matrix
        guard k.count == 9 else { throw .notACamera("field camera_matrix holds \(k.count) numbers, not the 9 of a 3x3 matrix") }
        for (field, side) in [("image_width", camera.image_width), ("image_height", camera.image_height)] where side < 2 {
            throw .notACamera("field \(field) is \(side): an image is 2 pixels or more each way")
        }
        for (field, values) in [("camera_matrix", k), ("distortion_coefficients", camera.distortion_coefficients)] {
            if let index = values.firstIndex(where: { !$0.isFinite }) {
                throw .notACamera("field \(field)[\(index)] is \(values[index]), not a finite number")
            }
        }
        for (name, index) in [("fx", 0), ("fy", 4)] where k[index] <= 0 {
            throw .notACamera("field camera_matrix[\(index)], the focal length \(name), is \(k[index]): it must be above 0")
        }
        return camera
    }
}

/// Why a calibration.json cannot be read.
package enum CalibrationFileError: Error, Equatable, CustomStringConvertible {
    /// It is not JSON with the fields of a camera (what the decoder said).
    case notACalibration(String)
    /// Its camera_matrix, distortion_coefficients or image size are not a camera: which field, and why.
    case notACamera(String)

    package var description: String {
        switch self {
        case .notACalibration(let reason): "not a calibration.json written by calibrate (\(reason))"
        case .notACamera(let reason): reason
        }
    }
}
