import FileFormats
import Foundation
import MarkerDetection

/// A calibration read back from the calibration.json that `calibrate` or `live --calibrate` wrote:
/// its camera and, when it has one, its projection-uncertainty map.
public struct SavedCalibration: Sendable {
    /// The calibration.json read.
    public var path: String
    /// The camera.
    public var camera: Camera
    /// The uncertainty map, when the file has one.
    public var uncertainty: UncertaintyMap?
    /// The verdict the file gives itself (``CalibrationVerdict``'s line), when it has one.
    public var verdict: String?
    /// What the file is: `calibration.json`, `ROS camera_info`, `Kalibr camchain`, `mrcal
    /// cameramodel`, `OpenCV FileStorage`, `rig.yaml`.
    public var format = "calibration.json"

    /// A calibration from its parts.
    public init(path: String, camera: Camera, uncertainty: UncertaintyMap?) {
        self.path = path
        self.camera = camera
        self.uncertainty = uncertainty
    }

    /// Reads `path`: a calibration.json, or a folder holding one.
    ///
    /// - Throws: ``ComparisonError/unreadable(path:reason:)`` for a file that is missing, is not
    ///   JSON, or lacks the camera's fields.
    public init(path: String) throws(ComparisonError) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw .unreadable(path: path, reason: "no such file or folder")
        }
        let file = isFolder.boolValue ? (path as NSString).appendingPathComponent("calibration.json") : path
        guard let data = FileManager.default.contents(atPath: file) else {
            throw .unreadable(path: file, reason: isFolder.boolValue ? "the folder has no readable calibration.json" : "the file cannot be read")
        }
        let decoded: CalibrationFile.Camera
        do {
            decoded = try CalibrationFile.read([UInt8](data))
        } catch {
            throw .unreadable(path: file, reason: "\(error)")
        }
        guard let model = CameraModel(rawValue: decoded.distortion_model) else {
            throw .unreadable(path: file, reason: "unknown distortion_model '\(decoded.distortion_model)'")
        }
        let k = decoded.camera_matrix
        guard decoded.distortion_coefficients.count == model.distortionNames.count else {
            throw .unreadable(path: file, reason: "\(CalibrationFileError.notACamera)")
        }
        let size = ImageSize(width: decoded.image_width, height: decoded.image_height)
        self.path = file
        camera = Camera(model: model, imageSize: size, fx: k[0], fy: k[4], cx: k[2], cy: k[5], distortion: decoded.distortion_coefficients)
        uncertainty = decoded.projection_uncertainty?.map(imageSize: size)
        verdict = decoded.verdict.map { String($0.sentence.prefix(400)) }
    }
}
