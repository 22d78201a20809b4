/// Why two calibrations cannot be compared.
public enum ComparisonError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A calibration.json that cannot be read, or a folder without one.
    case unreadable(path: String, reason: String)
    /// The two were made for images of different sizes.
    case differentImageSizes(String, String)
    /// The two use different lens models.
    case differentModels(String, String)

    /// What went wrong, and what to do.
    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "cannot read \(path): \(reason)"
        case .differentImageSizes(let a, let b):
            "the calibrations are for different image sizes (\(a) and \(b)): only calibrations of one camera at one "
                + "resolution can be compared"
        case .differentModels(let a, let b):
            "the calibrations use different lens models (\(a) and \(b)): calibrate both with the same --model to compare them"
        }
    }
}
