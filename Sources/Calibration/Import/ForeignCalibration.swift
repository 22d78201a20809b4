import Foundation
import MarkerDetection

/// The cameras of a calibration file another tool wrote (or this one, in another tool's format),
/// read with that format's own rules: an OpenCV FileStorage file (YAML, JSON or XML: `camera_matrix`
/// or `cameraMatrix` or `K`, `distortion_coefficients` or `dist_coeffs` or `D`, and the image size),
/// ROS camera_info, Kalibr's camchain (a camera per `camN`), mrcal's `.cameramodel`, and this tool's
/// rig.yaml (a camera per name).
struct ForeignCalibration {
    /// One camera of the file.
    struct NamedCamera {
        /// Its name in the file (`cam1`, `left`), or `nil` when the file holds one camera only.
        var name: String?
        /// Other names it answers to (Kalibr's rostopic `/left/image_raw` as `left`).
        var aliases: [String] = []
        var camera: Camera
    }

    /// What the file is, for messages: `ROS camera_info`, `Kalibr camchain`, ...
    let format: String
    let cameras: [NamedCamera]

    /// Recognises the format of `document`, read from `path`.
    ///
    /// - Throws: ``ComparisonError/unreadable(path:reason:)`` naming what is missing or not a camera.
    init(_ document: DocumentValue, path: String) throws(ComparisonError) {
        func bad(_ reason: String) -> ComparisonError { .unreadable(path: path, reason: reason) }
        if let lensModel = document["lensmodel"]?.string {
            format = "mrcal cameramodel"
            cameras = [NamedCamera(name: nil, camera: try Self.mrcal(document, lensModel: lensModel, bad: bad))]
        } else if !document.keys.isEmpty, document.keys.allSatisfy({ $0.hasPrefix("cam") && Int($0.dropFirst(3)) != nil }),
                  document.keys.allSatisfy({ document[$0]?["intrinsics"] != nil }) {
            format = "Kalibr camchain"
            cameras = try document.keys.sorted { Int($0.dropFirst(3))! < Int($1.dropFirst(3))! }.map { (key) throws(ComparisonError) in
                let entry = document[key]!
                var aliases: [String] = []
                if let topic = entry["rostopic"]?.string {
                    aliases.append(topic)
                    let parts = topic.split(separator: "/")
                    if parts.count >= 2, parts.last == "image_raw" { aliases.append(String(parts[parts.count - 2])) }
                }
                return NamedCamera(name: key, aliases: aliases, camera: try Self.kalibr(entry, key: key, bad: bad))
            }
        } else if case .list(let list) = document["cameras"] ?? .null, document["camera_count"] != nil {
            format = "rig.yaml"
            cameras = try list.enumerated().map { (index, entry) throws(ComparisonError) in
                let name = entry["name"]?.string ?? "camera \(index)"
                let model = entry["model"]?.string
                let camera = try Self.camera(
                    matrix: entry["K"]?.matrix, distortion: try Self.coefficients(entry["D"], what: "camera \(name)", bad: bad),
                    width: entry["image_width"]?.integer,
                    height: entry["image_height"]?.integer, model: model, fisheyeFlag: false, what: "camera \(name)", bad: bad)
                return NamedCamera(name: name, camera: camera)
            }
        } else if let matrix = Self.first(document, ["camera_matrix", "cameraMatrix", "K", "M", "intrinsic_matrix"])?.matrix {
            let model = document["distortion_model"]?.string
            let ros = model.map { ["plumb_bob", "rational_polynomial", "equidistant"].contains($0) } ?? false
            format = ros || document["camera_name"] != nil ? "ROS camera_info" : "OpenCV FileStorage"
            var width = document["image_width"]?.integer, height = document["image_height"]?.integer
            if width == nil, let size = Self.first(document, ["image_size", "imageSize", "cameraResolution", "resolution"])?.numbers,
               size.count == 2 {
                width = Int(exactly: size[0])
                height = Int(exactly: size[1])
            }
            let fisheye = (document["fisheye_model"]?.number ?? 0) != 0
            let distortion = try Self.coefficients(
                Self.first(document, ["distortion_coefficients", "dist_coeffs", "distCoeffs", "distortion", "D"]), what: "the camera", bad: bad) ?? []
            let camera = try Self.camera(
                matrix: matrix, distortion: distortion, width: width, height: height, model: model, fisheyeFlag: fisheye, what: "the camera",
                bad: bad)
            cameras = [NamedCamera(name: document["camera_name"]?.string, camera: camera)]
        } else {
            throw bad(
                "no camera in it: expected an OpenCV FileStorage calibration (camera_matrix, distortion_coefficients, image size), "
                    + "ROS camera_info, a Kalibr camchain, an mrcal .cameramodel or a rig.yaml")
        }
    }

    /// Distortion coefficients: `nil` when the file has none, refused when they are there but not
    /// a list of numbers (never read as none).
    private static func coefficients(_ value: DocumentValue?, what: String, bad: (String) -> ComparisonError) throws(ComparisonError) -> [Double]? {
        guard let value else { return nil }
        guard let numbers = value.matrix else { throw bad("\(what)'s distortion coefficients are not a list of numbers") }
        return numbers
    }

    private static func first(_ document: DocumentValue, _ keys: [String]) -> DocumentValue? {
        keys.lazy.compactMap { document[$0] }.first
    }

    /// A camera from a matrix, coefficients, a size and a model name (this tool's, ROS's, or none:
    /// then by the number of coefficients).
    static func camera(
        matrix: [Double]?, distortion: [Double]?, width: Int?, height: Int?, model name: String?, fisheyeFlag: Bool, what: String,
        bad: (String) -> ComparisonError
    ) throws(ComparisonError) -> Camera {
        guard let k = matrix, k.count == 9 else { throw bad("\(what) has no 3x3 camera matrix") }
        guard let width, let height else {
            throw bad("\(what) has no image size (image_width and image_height, or image_size), which a comparison needs")
        }
        let coefficients = distortion ?? []
        let model: CameraModel
        switch name {
        case .some(let text):
            if let ours = CameraModel(rawValue: text) {
                model = ours
            } else {
                switch text {
                case "plumb_bob", "radtan": model = coefficients.count <= 4 ? .pinholeRadtan : .pinhole
                case "rational_polynomial": model = .rational
                case "equidistant", "fisheye": model = .fisheye
                default: throw bad("\(what) has the distortion model '\(text)', which is not one of OpenCV's (plumb_bob, rational_polynomial, equidistant)")
                }
            }
        case .none:
            switch coefficients.count {
            case _ where fisheyeFlag: model = .fisheye
            case 0, 4: model = .pinholeRadtan
            case 5: model = .pinhole
            case 8: model = .rational
            default:
                throw bad("\(what) has \(coefficients.count) distortion coefficients: OpenCV's 4, 5 or 8 (or the fisheye's 4) are read")
            }
        }
        let expected = model.distortionNames.count
        guard coefficients.count <= expected || coefficients.dropFirst(expected).allSatisfy({ $0 == 0 }),
              model != .fisheye || coefficients.count == 4
        else {
            throw bad("\(what) has \(coefficients.count) distortion coefficients for the \(model) model (\(expected))")
        }
        guard k[1] == 0, k[3] == 0, k[6] == 0, k[7] == 0, k[8] == 1 else {
            throw bad("\(what): its camera matrix has skew or is not [fx 0 cx; 0 fy cy; 0 0 1]")
        }
        let camera = Camera(
            model: model, imageSize: ImageSize(width: width, height: height), fx: k[0], fy: k[4], cx: k[2], cy: k[5],
            distortion: Array(coefficients.prefix(expected)))
        if let problem = CameraLimits.problem(camera) { throw bad("\(what): \(problem)") }
        return camera
    }

    private static func kalibr(_ entry: DocumentValue, key: String, bad: (String) -> ComparisonError) throws(ComparisonError) -> Camera {
        let cameraModel = entry["camera_model"]?.string ?? "pinhole"
        guard cameraModel == "pinhole" else {
            throw bad("\(key) is Kalibr's \(cameraModel) camera: only its pinhole cameras (radtan, equidistant) are OpenCV's")
        }
        let distortion = entry["distortion_model"]?.string ?? "none"
        guard ["radtan", "equidistant", "none"].contains(distortion) else {
            throw bad("\(key) has Kalibr's \(distortion) distortion: only radtan and equidistant are OpenCV's")
        }
        guard let intrinsics = entry["intrinsics"]?.numbers, intrinsics.count == 4 else { throw bad("\(key) has no intrinsics [fu, fv, pu, pv]") }
        let resolution = entry["resolution"]?.numbers ?? []
        return try camera(
            matrix: [intrinsics[0], 0, intrinsics[2], 0, intrinsics[1], intrinsics[3], 0, 0, 1],
            distortion: try coefficients(entry["distortion_coeffs"], what: key, bad: bad) ?? [], width: resolution.count == 2 ? Int(exactly: resolution[0]) : nil,
            height: resolution.count == 2 ? Int(exactly: resolution[1]) : nil,
            model: distortion == "equidistant" ? "equidistant" : "radtan", fisheyeFlag: false, what: key, bad: bad)
    }

    private static func mrcal(_ document: DocumentValue, lensModel: String, bad: (String) -> ComparisonError) throws(ComparisonError) -> Camera {
        let models: [String: CameraModel] = ["LENSMODEL_OPENCV4": .pinholeRadtan, "LENSMODEL_OPENCV5": .pinhole, "LENSMODEL_OPENCV8": .rational]
        guard let model = models[lensModel] else {
            throw bad("mrcal's \(lensModel) is not one of OpenCV's models (LENSMODEL_OPENCV4, OPENCV5, OPENCV8 are read)")
        }
        guard let intrinsics = document["intrinsics"]?.numbers, intrinsics.count == 4 + [CameraModel.pinholeRadtan: 4, .pinhole: 5, .rational: 8][model]! else {
            throw bad("its intrinsics are not the \(lensModel) model's fx, fy, cx, cy and coefficients")
        }
        let size = document["imagersize"]?.numbers ?? []
        return try camera(
            matrix: [intrinsics[0], 0, intrinsics[2], 0, intrinsics[1], intrinsics[3], 0, 0, 1], distortion: Array(intrinsics.dropFirst(4)),
            width: size.count == 2 ? Int(exactly: size[0]) : nil, height: size.count == 2 ? Int(exactly: size[1]) : nil,
            model: model.rawValue, fisheyeFlag: false, what: "the camera", bad: bad)
    }
}
