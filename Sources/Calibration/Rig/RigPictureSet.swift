import FileFormats
import Foundation
#if canImport(Glibc)
import Glibc
#endif
public import MarkerDetection

/// A rig's pictures: each camera's folder, read as a ``PictureSet`` (its sidecars' stored
/// detections, or the pattern detected), in the rig's camera order (the first is the reference).
///
/// Pictures of different cameras with the same stem were taken together (one set). A rig picture
/// folder, as live rig capture writes it, holds one subfolder per camera
/// (`PICTURES/NAME/STEM.png`, each with that camera's sidecar `STEM.json`) and each set's sidecar
/// `PICTURES/STEM.json`; its cameras come in the rig's order as the first readable set sidecar gives
/// it (so the reference is the camera `live` named first), else in name order.
public struct RigPictureSet: Sendable {
    /// The cameras' names, in order.
    public let names: [String]
    /// Each camera's pictures, in the same order.
    public let pictures: [PictureSet]
    /// The pattern every camera's views are of.
    public let pattern: Pattern

    /// Reads each camera's folder.
    ///
    /// - Parameters:
    ///   - cameras: Each camera's name and folder, the reference first.
    ///   - pattern: The target, for folders without sidecars.
    /// - Throws: ``CalibrationError/rigInput(_:)`` for fewer than two cameras, two with one folder, a name that is
    ///   repeated, empty, holds a `/`, is `.` or `..` or one of ``RigReport/reservedNames``;
    ///   ``CalibrationError/unreadableInput(path:reason:)`` for cameras whose folders name
    ///   different patterns; what ``PictureSet/init(folder:pattern:)`` throws.
    public init(cameras: [(name: String, folder: String)], pattern: Pattern?) throws(CalibrationError) {
        guard cameras.count >= 2 else { throw .rigInput("a rig needs at least two cameras, not \(cameras.count)") }
        for camera in cameras {
            try Self.checkName(camera.name)
            if cameras.filter({ $0.name == camera.name }).count > 1 { throw .rigInput("two cameras are named \(camera.name)") }
        }
        try Self.checkFoldersDistinct(cameras)
        var pictures: [PictureSet] = []
        for camera in cameras { pictures.append(try PictureSet(folder: camera.folder, pattern: pattern)) }
        try self.init(names: cameras.map(\.name), pictures: pictures)
    }

    /// Refuses two cameras with one folder (under two paths too, links resolved): their sets would
    /// be one camera's pictures twice, a rig with no baseline.
    private static func checkFoldersDistinct(_ cameras: [(name: String, folder: String)]) throws(CalibrationError) {
        var seen: [(name: String, folder: String, device: UInt64, inode: UInt64)] = []
        for camera in cameras {
            var status = stat()
            guard stat(camera.folder, &status) == 0 else { continue }  // PictureSet says why it cannot be read
            if let first = seen.first(where: { $0.device == UInt64(status.st_dev) && $0.inode == UInt64(status.st_ino) }) {
                let same = first.folder == camera.folder ? "one folder, \(camera.folder)" : "one folder (\(first.folder) and \(camera.folder))"
                throw .rigInput(
                    "cameras \(first.name) and \(camera.name) name \(same): each camera of a rig needs its own pictures")
            }
            seen.append((camera.name, camera.folder, UInt64(status.st_dev), UInt64(status.st_ino)))
        }
    }

    /// Cameras whose pictures are already read, the reference first; pictures of different cameras
    /// with the same name were taken together.
    ///
    /// - Throws: ``CalibrationError/rigInput(_:)`` for fewer than two cameras or a name that
    ///   cannot name a folder of the results (see ``init(cameras:pattern:)``);
    ///   ``CalibrationError/unreadableInput(path:reason:)`` for cameras of different patterns.
    public init(names: [String], pictures: [PictureSet]) throws(CalibrationError) {
        guard names.count >= 2, names.count == pictures.count else {
            throw .rigInput("a rig needs at least two cameras, each with its pictures, not \(names.count)")
        }
        for name in names {
            try Self.checkName(name)
            if names.filter({ $0 == name }).count > 1 { throw .rigInput("two cameras are named \(name)") }
        }
        let patterns = Set(pictures.map(\.pattern))
        guard patterns.count == 1, let common = patterns.first else {
            throw .unreadableInput(
                path: pictures[0].folder,
                reason: "the cameras' pictures are of different patterns (\(pictures.map(\.pattern.description).joined(separator: ", ")))")
        }
        self.names = names
        self.pictures = pictures
        self.pattern = common
    }

    /// Reads a rig picture folder (see ``isRigFolder(_:)``): one camera per subfolder, in the
    /// rig's order (``rigOrder(_:in:)``).
    ///
    /// - Throws: What ``init(cameras:pattern:)`` throws.
    public init(rigFolder folder: String, pattern: Pattern?) throws(CalibrationError) {
        let cameras = Self.rigOrder(Self.cameraFolders(folder) ?? [], in: folder)
        try self.init(cameras: cameras.map { ($0, (folder as NSString).appendingPathComponent($0)) }, pattern: pattern)
    }

    /// `cameras` (subfolders, in name order) in the order the first set sidecar of `folder` (in
    /// name order) that can be read names them, when it names exactly these cameras; else as they are.
    static func rigOrder(_ cameras: [String], in folder: String) -> [String] {
        guard let entries = try? FolderEntry.list(folder) else { return cameras }
        for entry in entries where entry.bytes == nil && entry.text.hasSuffix(".json") {
            let path = (folder as NSString).appendingPathComponent(entry.text)
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                  attributes[.type] as? FileAttributeType == .typeRegular,
                  (attributes[.size] as? Int ?? .max) <= RigSetSidecar.maximumBytes,
                  let data = FileManager.default.contents(atPath: path),
                  let sidecar = try? RigSetSidecar(parsing: data) else { continue }
            let names = sidecar.cameras.map(\.name)
            return Set(names) == Set(cameras) && names.count == cameras.count ? names : cameras
        }
        return cameras
    }

    /// Whether `folder` is a rig picture folder: besides hidden entries and `.json` files (the
    /// sets' sidecars) it holds only subfolders, at least two, each with pictures.
    public static func isRigFolder(_ folder: String) -> Bool { (cameraFolders(folder)?.count ?? 0) >= 2 }

    /// The camera subfolders of a rig picture folder, in name order, or `nil` when it is not one.
    private static func cameraFolders(_ folder: String) -> [String]? {
        guard let entries = try? FolderEntry.list(folder) else { return nil }
        var cameras: [String] = []
        for entry in entries where entry.bytes == nil {
            let path = (folder as NSString).appendingPathComponent(entry.text)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return nil }
            if isFolder.boolValue {
                let files = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
                guard files.contains(where: { PictureSet.imageExtensions.contains(($0 as NSString).pathExtension.lowercased()) }) else {
                    return nil
                }
                cameras.append(entry.text)
            } else if !entry.text.hasSuffix(".json") {
                return nil
            }
        }
        guard entries.allSatisfy({ $0.bytes == nil }) else { return nil }
        return cameras
    }

    /// Refuses a camera name that cannot be a subfolder of the results.
    static func checkName(_ name: String) throws(CalibrationError) {
        if name.isEmpty || name.contains("/") || name == "." || name == ".." || name.hasPrefix(".")
            || RigReport.reservedNames.contains(name)
        {
            throw .rigInput(
                "camera name \"\(name)\" cannot name a folder of the results: use letters, digits, - and _ "
                    + "(and not \(RigReport.reservedNames.sorted().joined(separator: ", ")))")
        }
    }

    /// Each camera's views with its model: `models[name]`, or `model` for a camera not named there.
    public func cameras(models: [String: CameraModel], model: CameraModel) -> [RigCameraViews] {
        zip(names, pictures).map { name, pictures in
            RigCameraViews(name: name, model: models[name] ?? model, views: pictures.views, setAside: pictures.empty)
        }
    }
}
