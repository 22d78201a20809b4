/// Where a pattern's markers come from: one of OpenCV's predefined dictionaries or a dictionary file.
public enum MarkerDictionary: Sendable, Hashable, CustomStringConvertible {
    /// A predefined ArUco or AprilTag dictionary.
    case predefined(PredefinedDictionary)
    /// A custom dictionary in OpenCV's FileStorage format (YAML, XML or JSON with `nmarkers`,
    /// `markersize` and `marker_0`, `marker_1`, ... bit strings), read when a detector is made; a
    /// relative path is taken from the current directory at that time.
    case file(path: String)

    /// The file extensions a dictionary file may have (compared without regard to case).
    public static let fileExtensions = [".yml", ".yaml", ".xml", ".json"]

    /// The predefined name or the path, as written in pattern strings.
    public var description: String {
        switch self {
        case .predefined(let name): name.rawValue
        case .file(let path): path
        }
    }
}
