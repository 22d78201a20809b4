import Foundation

extension SavedCalibration {
    /// Reads a calibration as `compare` names it: `PATH` or `PATH:CAMERA`.
    ///
    /// `PATH` is a calibration.json this tool wrote (or the folder holding one: its uncertainty map
    /// is read too), a rig folder (its rig.yaml, with a camera by name), or a file of another tool:
    /// an OpenCV FileStorage calibration (YAML, JSON or XML, read by OpenCV's own parser), ROS
    /// camera_info, a Kalibr camchain (a camera as `cam1`, or by its rostopic's name), an mrcal
    /// `.cameramodel` (OpenCV4, 5 or 8). Those files have no uncertainty map. `CAMERA` picks one
    /// camera of a file that holds several; a path that exists as written is never split at `:`.
    ///
    /// - Throws: ``ComparisonError/unreadable(path:reason:)`` for a file that is missing, a special
    ///   file, of no format read, without a camera, or holding several and none named.
    public init(reading argument: String) throws(ComparisonError) {
        var path = argument
        var name: String?
        if !FileManager.default.fileExists(atPath: argument), let colon = argument.lastIndex(of: ":"),
           FileManager.default.fileExists(atPath: String(argument[..<colon])) {
            path = String(argument[..<colon])
            name = String(argument[argument.index(after: colon)...])
        }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw .unreadable(path: path, reason: "no such file or folder")
        }
        var file = path
        if isFolder.boolValue {
            let json = (path as NSString).appendingPathComponent("calibration.json")
            let rig = (path as NSString).appendingPathComponent("rig.yaml")
            if FileManager.default.fileExists(atPath: json) {
                file = json
            } else if FileManager.default.fileExists(atPath: rig) {
                file = rig
            } else {
                throw .unreadable(
                    path: path, reason: "the folder has no calibration.json (one camera) or rig.yaml (a rig): name a calibration file")
            }
        }
        // This tool's calibration.json, with its map; a regular file of sane size and nesting first.
        // A file that is this tool's (named calibration.json, or with its plain list of a camera
        // matrix and its distortion_model) and cannot be read says why in this tool's terms; any
        // other JSON is tried as another tool's.
        var ownProblem: ComparisonError?
        if (file as NSString).lastPathComponent.lowercased().hasSuffix(".json"), name == nil,
           NestingGuard.json(try DocumentReader.contents(of: file)) == nil {
            do {
                self = try SavedCalibration(path: file)
                return
            } catch {
                if try Self.isOwnFormat(file) { throw error }
                ownProblem = error
            }
        }
        let found: ForeignCalibration
        do {
            found = try ForeignCalibration(try DocumentReader.read(file).value, path: file)
        } catch {
            throw ownProblem ?? error
        }
        let chosen: ForeignCalibration.NamedCamera
        if let name {
            guard let camera = found.cameras.first(where: { $0.name == name || $0.aliases.contains(name) }) else {
                let names = found.cameras.compactMap(\.name)
                throw .unreadable(
                    path: file,
                    reason: "no camera \(name) in this \(found.format)"
                        + (names.isEmpty ? " (it holds one camera: leave out ':\(name)')" : " (it has \(names.joined(separator: ", ")))"))
            }
            chosen = camera
        } else if found.cameras.count == 1 {
            chosen = found.cameras[0]
        } else {
            throw .unreadable(
                path: file,
                reason: "this \(found.format) holds \(found.cameras.count) cameras (\(found.cameras.compactMap(\.name).joined(separator: ", "))): "
                    + "name one as \(path):NAME")
        }
        self.init(
            path: file + (name.map { ":" + $0 } ?? ""), camera: chosen.camera, uncertainty: nil)
        format = found.format
    }

    /// Whether the JSON file `path` is this tool's calibration.json: so named, or holding
    /// `distortion_model` and a `camera_matrix` that is a plain list (OpenCV's JSON holds a matrix
    /// object, ROS's YAML a map).
    private static func isOwnFormat(_ path: String) throws(ComparisonError) -> Bool {
        if (path as NSString).lastPathComponent == "calibration.json" { return true }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(try DocumentReader.contents(of: path)))) as? [String: Any] else {
            return false
        }
        return object["distortion_model"] != nil && (object["camera_matrix"] == nil || object["camera_matrix"] is [Any])
    }
}
