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

    /// Reads `path`: a calibration.json, or a folder holding one, of at most
    /// ``DocumentReader/maximumBytes``.
    ///
    /// - Throws: ``ComparisonError/unreadable(path:reason:)`` for a file that is missing, too large,
    ///   a special file, not JSON, or lacks a camera's fields, naming the field at fault and what is
    ///   wrong with it (missing, not a number, out of range); an uncertainty map that cannot be one
    ///   is refused the same way.
    public init(path: String) throws(ComparisonError) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw .unreadable(path: path, reason: "no such file or folder")
        }
        let file = isFolder.boolValue ? (path as NSString).appendingPathComponent("calibration.json") : path
        if isFolder.boolValue, !FileManager.default.fileExists(atPath: file) {
            throw .unreadable(path: path, reason: "the folder has no calibration.json")
        }
        let decoded: CalibrationFile.Camera
        do {
            decoded = try CalibrationFile.read(try DocumentReader.contents(of: file))
        } catch let error as ComparisonError {
            throw error
        } catch {
            throw .unreadable(path: file, reason: "\(error)")
        }
        guard let model = CameraModel(rawValue: decoded.distortion_model) else {
            throw .unreadable(
                path: file,
                reason: "field distortion_model is '\(decoded.distortion_model)', not one of "
                    + CameraModel.allCases.map(\.rawValue).joined(separator: ", "))
        }
        let k = decoded.camera_matrix
        guard decoded.distortion_coefficients.count == model.distortionNames.count else {
            throw .unreadable(
                path: file,
                reason: "field distortion_coefficients holds \(decoded.distortion_coefficients.count) numbers: the \(model.rawValue) model has "
                    + "\(model.distortionNames.count) (\(model.distortionNames.joined(separator: ", ")))")
        }
        let size = ImageSize(width: decoded.image_width, height: decoded.image_height)
        let camera = Camera(model: model, imageSize: size, fx: k[0], fy: k[4], cx: k[2], cy: k[5], distortion: decoded.distortion_coefficients)
        if let problem = CameraLimits.problem(camera) { throw .unreadable(path: file, reason: problem) }
        if let map = decoded.projection_uncertainty, let problem = Self.problem(map) {
            throw .unreadable(path: file, reason: problem)
        }
        self.path = file
        self.camera = camera
        uncertainty = decoded.projection_uncertainty?.map(imageSize: size)
        verdict = decoded.verdict.map { String($0.sentence.prefix(400)) }
    }

    /// The grid points an uncertainty map may have each way: `calibrate` writes 32 across.
    static let mapSides = 2...1000

    /// What is wrong with an uncertainty map read from a file, naming the field, or `nil`: a grid
    /// of 2 to 1000 points each way with a value for each, four corners, a distance that is a
    /// length, and values that are lengths in pixels or `null` (no bound).
    static func problem(_ map: CalibrationFile.ProjectionUncertainty) -> String? {
        let field = "field projection_uncertainty"
        guard let distance = map.distance, distance.isFinite, distance > 0 else {
            return "\(field).distance is \(map.distance.map { "\($0)" } ?? "null"): the map's distance is a length above 0"
        }
        for (name, side) in [("columns", map.grid.columns), ("rows", map.grid.rows)] where !mapSides.contains(side) {
            return "\(field).grid.\(name) is \(side): a map has \(mapSides.lowerBound) to \(mapSides.upperBound) points each way"
        }
        guard map.grid.px.count == map.grid.columns * map.grid.rows else {
            return "\(field).grid.px holds \(map.grid.px.count) values: its \(map.grid.columns) x \(map.grid.rows) grid has "
                + "\(map.grid.columns * map.grid.rows)"
        }
        guard map.corners_px.count == 4 else { return "\(field).corners_px holds \(map.corners_px.count) values, not the 4 corners" }
        for (name, values) in [("grid.px", map.grid.px), ("corners_px", map.corners_px), ("centre_px", [map.centre_px])] {
            if let index = values.firstIndex(where: { $0.map { !($0.isFinite && $0 >= 0) } ?? false }) {
                return "\(field).\(name)\(name == "centre_px" ? "" : "[\(index)]") is \(values[index]!): "
                    + "an uncertainty is a number of pixels, 0 or more (or null for no bound)"
            }
        }
        return nil
    }
}
