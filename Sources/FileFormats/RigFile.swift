import Foundation

/// `rig.json`, as `calibrate` of a rig and `live --calibrate` of a rig write it: the one place its
/// keys are named.
///
/// Written whole from a ``RigFile`` (``text``): keys sorted, two spaces of indent, a number that is
/// not finite `null`, and a part the rig has not (`stereo` beyond two cameras, a pair's
/// rectification that failed, a set's epipolar error when the first two cameras did not both see
/// it) left out. Read by ``read(_:)`` as untrusted input: at most ``maximumBytes`` bytes nested at
/// most ``JSONNesting/maximumDepth`` deep, checked before a decoder sees them; every field of the
/// right type, every matrix of its shape, the numbers a solve gives finite and the spreads not
/// negative, every camera named in the file one of its cameras; anything else is a
/// ``RigFileError`` naming the field. A file written before `spread_dof` existed reads with 0 (not
/// measured).
package struct RigFile: Codable, SortedJSONFile, Sendable {
    /// A value with its interval (``CalibrationFile/Parameter``, nameless for the extrinsics,
    /// which their keys name).
    package typealias Parameter = CalibrationFile.Parameter

    /// Where a camera sits relative to the first: the pose that takes a point of the first
    /// camera's frame into this one's, and what follows from it with its interval.
    package struct Extrinsics: Codable, Sendable {
        /// 3x3, row by row.
        package var rotation_matrix: [FiniteNumber] = []
        /// The Rodrigues vector, in radians.
        package var rotation_vector: [FiniteNumber] = []
        package var translation: [FiniteNumber] = []
        package var baseline = Parameter()
        package var rotation_angle_degrees = Parameter()
        package var rotation_vector_degrees: [Parameter] = []
        package var translation_values: [Parameter] = []
        /// 6x6, of the rotation vector and the translation.
        package var covariance: [[FiniteNumber]] = []
        package init() {}
    }

    /// The corners of a set the joint solve dropped.
    package struct DroppedCorners: Codable, Sendable {
        package var set: String
        package var ids: [Int]
        package init(set: String, ids: [Int]) {
            self.set = set
            self.ids = ids
        }
    }

    /// A camera after the joint solve.
    package struct Camera: Codable, Sendable {
        package var name = ""
        package var distortion_model = ""
        package var image_width = 0
        package var image_height = 0
        /// 3x3, row by row.
        package var camera_matrix: [FiniteNumber] = []
        package var distortion_coefficients: [FiniteNumber] = []
        /// fx, fy, cx, cy and each distortion coefficient.
        package var parameters: [Parameter] = []
        /// The parameters' covariance, row by row.
        package var covariance: [[FiniteNumber]] = []
        package var rms = FiniteNumber(0)
        package var corner_drop_threshold = FiniteNumber(0)
        package var corners_dropped: [DroppedCorners] = []
        /// The sets it saw in the joint solve.
        package var sets: [String] = []
        package var extrinsics = Extrinsics()
        /// The RMS and the views of its own solve.
        package var own_rms = FiniteNumber(0)
        package var own_views_used = 0
        package init() {}
    }

    /// A set of the joint solve: the cameras that saw the target in it, its RMS and, when the
    /// first two cameras both saw it, its epipolar error between them.
    package struct SolvedSet: Codable, Sendable {
        package var name: String
        package var cameras: [String]
        package var rms: FiniteNumber
        package var epipolar_error: FiniteNumber?
        package init(name: String, cameras: [String], rms: FiniteNumber, epipolar_error: FiniteNumber?) {
            self.name = name
            self.cameras = cameras
            self.rms = rms
            self.epipolar_error = epipolar_error
        }
    }

    /// How a camera was first placed: from the camera it shares the most sets with.
    package struct Link: Codable, Sendable {
        package var camera: String
        package var from: String
        package var shared_sets: Int
        package init(camera: String, from: String, shared_sets: Int) {
            self.camera = camera
            self.from = from
            self.shared_sets = shared_sets
        }
    }

    /// A set's epipolar error in a pair.
    package struct EpipolarError: Codable, Sendable {
        package var set: String
        package var error: FiniteNumber
        package init(set: String, error: FiniteNumber) {
            self.set = set
            self.error = error
        }
    }

    /// The first camera and another, rectified (`stereoRectify`; the matrices are left out when
    /// the rectification failed), with the epipolar error of every set both saw.
    package struct Pair: Codable, Sendable {
        package var first = ""
        package var second = ""
        /// 3x3 each.
        package var R1: [FiniteNumber]?
        package var R2: [FiniteNumber]?
        /// 3x4 each.
        package var P1: [FiniteNumber]?
        package var P2: [FiniteNumber]?
        /// 4x4.
        package var Q: [FiniteNumber]?
        package var epipolar_errors: [EpipolarError] = []
        package var mean_epipolar_error: FiniteNumber?
        package init() {}
    }

    /// The stereo matrices of a rig of two cameras, as `cv2.stereoCalibrate` names them.
    package struct Stereo: Codable, Sendable {
        package var R: [FiniteNumber]
        package var T: [FiniteNumber]
        package var E: [FiniteNumber]
        package var F: [FiniteNumber]
        package init(R: [FiniteNumber], T: [FiniteNumber], E: [FiniteNumber], F: [FiniteNumber]) {
            self.R = R
            self.T = T
            self.E = E
            self.F = F
        }
    }

    /// The spread between sets (a jackknife over groups of sets), or why it was not measured.
    package struct SetSpread: Codable, Sendable {
        package var groups: Int?
        package var degrees_of_freedom: Int?
        package var left_out: [[String]]?
        package var not_measured: String?
        package init() {}
    }

    package var pattern = ""
    package var cameras: [Camera] = []
    package var sets: [SolvedSet] = []
    package var sets_dropped: [CalibrationFile.Rejected] = []
    package var placement: [Link] = []
    package var pairs: [Pair] = []
    /// Left out beyond two cameras.
    package var stereo: Stereo?
    package var rms = FiniteNumber(0)
    /// Before sets were dropped.
    package var first_rms = FiniteNumber(0)
    package var degrees_of_freedom = 0
    package var intrinsics_refined = false
    package var outlier_rule = ""
    package var corner_rule = ""
    package var epipolar_error_note = ""
    package var interval_note = ""
    package var set_spread = SetSpread()
    package var units_note = ""

    package init() {}

    /// The file's name in a rig calibration's folder.
    package static let fileName = "rig.json"
    /// The largest file ``read(_:)`` takes: a rig of 64 cameras and thousands of sets is a few
    /// megabytes.
    package static let maximumBytes = 16 << 20
    /// How many cameras a rig may have.
    package static let cameraCounts: ClosedRange<Int> = 2...64
    /// The sides an image may have, in pixels.
    package static let imageSides: ClosedRange<Int> = 2...65_536
    /// The most distortion coefficients a lens model has (OpenCV's rational model with its thin
    /// prism and tilt terms).
    package static let maximumCoefficients = 14

    /// Reads a rig.json's `bytes` as untrusted input (see ``RigFile``).
    ///
    /// - Throws: ``RigFileError`` naming what is wrong: too large, nested too deep, not JSON, a
    ///   field missing or of the wrong type, a number out of range, a matrix of the wrong shape, a
    ///   camera that is not one of the rig's.
    package static func read(_ bytes: [UInt8]) throws(RigFileError) -> RigFile {
        guard bytes.count <= maximumBytes else {
            throw RigFileError("\(fileName) is \(bytes.count) bytes, more than the \(maximumBytes >> 20) MiB it may have")
        }
        if let problem = JSONNesting.problem(bytes) { throw RigFileError("\(fileName): \(problem)") }
        let file: RigFile
        do {
            file = try JSONDecoder().decode(RigFile.self, from: Data(bytes))
        } catch let error as DecodingError {
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty,
               (try? JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed)) != nil {
                // JSON whose decoding failed on a number Foundation names no field for.
                throw RigFileError("\(fileName): a whole number in it is not one (a fraction, or too large)")
            }
            throw RigFileError("\(fileName): \(Self.describe(error))")
        } catch {
            throw RigFileError("\(fileName) is not JSON (\(error))")
        }
        try file.check()
        return file
    }

    /// The checks of ``read(_:)`` beyond the types.
    private func check() throws(RigFileError) {
        guard Self.cameraCounts.contains(cameras.count) else {
            throw RigFileError("\(Self.fileName): cameras has \(cameras.count) cameras; a rig has "
                + "\(Self.cameraCounts.lowerBound) to \(Self.cameraCounts.upperBound)")
        }
        var names = Set<String>()
        for (index, camera) in cameras.enumerated() {
            guard !camera.name.isEmpty, names.insert(camera.name).inserted else {
                throw RigFileError("\(Self.fileName): cameras[\(index)].name is \(camera.name.isEmpty ? "empty" : "given twice")")
            }
        }
        var check = Checker(cameras: names)
        for (index, camera) in cameras.enumerated() {
            check.path = "cameras[\(index)]"
            try check.camera(camera)
        }
        for (index, set) in sets.enumerated() {
            check.path = "sets[\(index)]"
            for camera in set.cameras { try check.camera(named: camera, "cameras") }
            try check.spread(set.rms, "rms")
            if let error = set.epipolar_error { try check.spread(error, "epipolar_error") }
        }
        for (index, link) in placement.enumerated() {
            check.path = "placement[\(index)]"
            try check.camera(named: link.camera, "camera")
            try check.camera(named: link.from, "from")
            try check.count(link.shared_sets, "shared_sets")
        }
        for (index, pair) in pairs.enumerated() {
            check.path = "pairs[\(index)]"
            try check.pair(pair)
        }
        if let stereo {
            check.path = "stereo"
            try check.matrix(stereo.R, 9, "R")
            try check.matrix(stereo.T, 3, "T")
            try check.matrix(stereo.E, 9, "E")
            try check.matrix(stereo.F, 9, "F")
        }
        check.path = ""
        guard rms.value.isFinite else { throw check.failure("rms", "is null: the joint solve's RMS is a number") }
        try check.spread(rms, "rms")
        try check.spread(first_rms, "first_rms")
        try check.count(degrees_of_freedom, "degrees_of_freedom")
        check.path = "set_spread"
        if let groups = set_spread.groups { try check.count(groups, "groups") }
        if let degrees = set_spread.degrees_of_freedom { try check.count(degrees, "degrees_of_freedom") }
    }

    /// Names a field by its coding path: `cameras[1].extrinsics.baseline.std`.
    private static func path(_ keys: [any CodingKey]) -> String {
        if keys.isEmpty { return "it" }
        var text = ""
        for key in keys {
            if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
        }
        return text
    }

    /// What `JSONDecoder` found wrong, with the field's name.
    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])) is missing"
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)) is not \(kind(type))"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)) is null, not \(kind(type))"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "it is not JSON (\(context.debugDescription))"
                : "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    private static func kind(_ type: Any.Type) -> String {
        switch type {
        case is Double.Type, is FiniteNumber.Type: "a number"
        case is Int.Type: "a whole number"
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is [Any].Type: "a list"
        case is [String: Any].Type: "an object"
        default: "\(type)"
        }
    }
}

/// The range and shape checks of ``RigFile/read(_:)``, naming the field at `path`.
private struct Checker {
    let cameras: Set<String>
    var path = ""

    func failure(_ field: String, _ problem: String) -> RigFileError {
        RigFileError("\(RigFile.fileName): \(path.isEmpty ? field : path + "." + field) \(problem)")
    }

    func camera(_ camera: RigFile.Camera) throws(RigFileError) {
        for (side, field) in [(camera.image_width, "image_width"), (camera.image_height, "image_height")]
        where !RigFile.imageSides.contains(side) {
            throw failure(field, "is \(side); an image side is \(RigFile.imageSides.lowerBound) to \(RigFile.imageSides.upperBound) pixels")
        }
        try nonEmpty(camera.distortion_model, "distortion_model")
        try matrix(camera.camera_matrix, 9, "camera_matrix")
        guard camera.camera_matrix[0].value > 0, camera.camera_matrix[4].value > 0 else {
            throw failure("camera_matrix", "has a focal length that is not positive")
        }
        guard camera.distortion_coefficients.count <= RigFile.maximumCoefficients else {
            throw failure("distortion_coefficients", "has \(camera.distortion_coefficients.count) numbers; a lens model has at most \(RigFile.maximumCoefficients)")
        }
        try matrix(camera.distortion_coefficients, camera.distortion_coefficients.count, "distortion_coefficients")
        guard camera.parameters.count <= 4 + RigFile.maximumCoefficients else {
            throw failure("parameters", "has \(camera.parameters.count) parameters; a camera has at most \(4 + RigFile.maximumCoefficients)")
        }
        for (index, parameter) in camera.parameters.enumerated() {
            guard let name = parameter.name, !name.isEmpty else { throw failure("parameters[\(index)].name", "is missing or empty") }
            try self.parameter(parameter, "parameters[\(index)]")
        }
        try square(camera.covariance, camera.parameters.count, "covariance", orEmpty: true)
        try spread(camera.rms, "rms")
        try spread(camera.corner_drop_threshold, "corner_drop_threshold")
        for (index, dropped) in camera.corners_dropped.enumerated() {
            if let id = dropped.ids.first(where: { $0 < 0 }) { throw failure("corners_dropped[\(index)].ids", "holds \(id), not a corner's id") }
        }
        let extrinsics = camera.extrinsics
        try matrix(extrinsics.rotation_matrix, 9, "extrinsics.rotation_matrix")
        try matrix(extrinsics.rotation_vector, 3, "extrinsics.rotation_vector")
        try matrix(extrinsics.translation, 3, "extrinsics.translation")
        try parameter(extrinsics.baseline, "extrinsics.baseline")
        try parameter(extrinsics.rotation_angle_degrees, "extrinsics.rotation_angle_degrees")
        for (values, field) in [(extrinsics.rotation_vector_degrees, "rotation_vector_degrees"), (extrinsics.translation_values, "translation_values")] {
            guard values.count == 3 else { throw failure("extrinsics.\(field)", "has \(values.count) values, not 3") }
            for (index, value) in values.enumerated() { try parameter(value, "extrinsics.\(field)[\(index)]") }
        }
        try square(extrinsics.covariance, 6, "extrinsics.covariance", orEmpty: false)
        try spread(camera.own_rms, "own_rms")
        try count(camera.own_views_used, "own_views_used")
    }

    func pair(_ pair: RigFile.Pair) throws(RigFileError) {
        try camera(named: pair.first, "first")
        try camera(named: pair.second, "second")
        for (matrix, count, field) in [(pair.R1, 9, "R1"), (pair.R2, 9, "R2"), (pair.P1, 12, "P1"), (pair.P2, 12, "P2"), (pair.Q, 16, "Q")] {
            if let matrix { try self.matrix(matrix, count, field) }
        }
        for (index, error) in pair.epipolar_errors.enumerated() {
            try spread(error.error, "epipolar_errors[\(index)].error")
        }
        if let mean = pair.mean_epipolar_error { try spread(mean, "mean_epipolar_error") }
    }

    /// A value a solve gives (finite) with its standard deviations and interval (not negative, or
    /// null).
    func parameter(_ parameter: RigFile.Parameter, _ field: String) throws(RigFileError) {
        guard parameter.value.value.isFinite else { throw failure(field + ".value", "is null: a solved value is a number") }
        try spread(parameter.std, field + ".std")
        try spread(parameter.noise_std, field + ".noise_std")
        try spread(parameter.spread_std, field + ".spread_std")
        guard parameter.ci95.count == 2 else { throw failure(field + ".ci95", "has \(parameter.ci95.count) numbers, not 2") }
        try count(parameter.spread_dof, field + ".spread_dof")
    }

    /// `count` numbers, each finite.
    func matrix(_ numbers: [FiniteNumber], _ count: Int, _ field: String) throws(RigFileError) {
        guard numbers.count == count else { throw failure(field, "has \(numbers.count) numbers, not \(count)") }
        if let index = numbers.firstIndex(where: { !$0.value.isFinite }) { throw failure("\(field)[\(index)]", "is null, not a number") }
    }

    /// `size` rows of `size` finite numbers (or none, when `orEmpty`).
    func square(_ rows: [[FiniteNumber]], _ size: Int, _ field: String, orEmpty: Bool) throws(RigFileError) {
        if orEmpty && rows.isEmpty { return }
        guard rows.count == size else { throw failure(field, "has \(rows.count) rows, not \(size)") }
        for (index, row) in rows.enumerated() { try matrix(row, size, "\(field)[\(index)]") }
    }

    /// A standard deviation, an RMS or an error: not negative, or null.
    func spread(_ number: FiniteNumber, _ field: String) throws(RigFileError) {
        guard !(number.value < 0) else { throw failure(field, "is \(number.value), below 0") }
    }

    func count(_ number: Int, _ field: String) throws(RigFileError) {
        guard number >= 0 else { throw failure(field, "is \(number), below 0") }
    }

    func nonEmpty(_ text: String, _ field: String) throws(RigFileError) {
        guard !text.isEmpty else { throw failure(field, "is empty") }
    }

    func camera(named name: String, _ field: String) throws(RigFileError) {
        guard cameras.contains(name) else { throw failure(field, "names camera \(JSONObjectText.string(name)), which is not one of the rig's") }
    }
}

/// A `rig.json` that cannot be read, and why.
package struct RigFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, with the field.
    package let description: String

    init(_ description: String) { self.description = description }
}
