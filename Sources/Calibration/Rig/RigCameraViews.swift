import MarkerDetection

/// One camera's pictures of a rig: its name, lens model and views. A view's set is its name
/// without the extension: views of different cameras with the same stem were taken together.
public struct RigCameraViews: Sendable {
    /// The camera's name (its folder's name, or the name given with `--camera NAME=DIR`).
    public var name: String
    /// The lens model.
    public var model: CameraModel
    /// Its views in which the target was found.
    public var views: [CalibrationView]
    /// Its pictures already left out (no target found).
    public var setAside: [RejectedView]

    /// Makes a camera's views.
    public init(name: String, model: CameraModel, views: [CalibrationView], setAside: [RejectedView] = []) {
        self.name = name
        self.model = model
        self.views = views
        self.setAside = setAside
    }

    /// The set a view belongs to: its name without the extension.
    public static func set(of name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }
}
