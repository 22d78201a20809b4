/// Where the pictures of a rig's sets go in the picture folder, and the names cameras may have.
///
/// ```
/// PICTURES/set_0001.json          the set's sidecar (RigSetSidecar)
/// PICTURES/left/set_0001.png      the left camera's frame of set set_0001, lossless
/// PICTURES/left/set_0001.json     its ordinary single-camera sidecar (PictureSidecar)
/// PICTURES/right/set_0001.png
/// PICTURES/right/set_0001.json
/// ```
///
/// Each camera's folder is an ordinary picture folder: `calibrate PICTURES/left` reads it alone.
public struct RigPictureLayout: Sendable, Equatable {
    /// The picture folder.
    public let folder: String

    /// The longest name a camera may have.
    public static let maximumCameraNameLength = 32

    /// A layout in `folder`.
    public init(folder: String) { self.folder = folder }

    /// The folder of camera `camera`'s pictures.
    public func cameraFolder(_ camera: String) -> String { Self.join(folder, camera) }

    /// Camera `camera`'s frame of set `stem`.
    public func image(camera: String, stem: String) -> String { Self.join(cameraFolder(camera), stem + ".png") }

    /// The single-camera sidecar beside that frame.
    public func cameraSidecar(camera: String, stem: String) -> String { Self.join(cameraFolder(camera), stem + ".json") }

    /// The set's sidecar.
    public func setSidecar(stem: String) -> String { Self.join(folder, stem + ".json") }

    /// The frame's path relative to the picture folder, as the set's sidecar names it (`left/set_0001.png`).
    public static func relativeImage(camera: String, stem: String) -> String { camera + "/" + stem + ".png" }

    /// The camera sidecar's path relative to the picture folder (`left/set_0001.json`).
    public static func relativeSidecar(camera: String, stem: String) -> String { camera + "/" + stem + ".json" }

    /// Why `name` cannot name a camera (letters, digits, `-` and `_`, 1 to 32 characters), or `nil`
    /// when it can. A camera's name is a folder's name, so nothing else is allowed.
    public static func cameraNameProblem(_ name: String) -> String? {
        if name.isEmpty { return "is empty: a camera's name has 1 to \(maximumCameraNameLength) characters" }
        if name.count > maximumCameraNameLength {
            return "has \(name.count) characters, more than the \(maximumCameraNameLength) a camera's name may have"
        }
        let allowed = name.unicodeScalars.allSatisfy { scalar in
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_"
        }
        return allowed ? nil : "may hold only letters, digits, \"-\" and \"_\""
    }

    private static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}
