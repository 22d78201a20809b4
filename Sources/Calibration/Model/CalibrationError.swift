/// Why a calibration could not be made or written.
public enum CalibrationError: Error, Equatable, CustomStringConvertible {
    /// Fewer usable views than the model needs; the reasons views were set aside are listed.
    case tooFewViews(usable: Int, needed: Int, model: CameraModel, rejected: [RejectedView])
    /// The views come from images of different sizes.
    case mixedImageSizes([String])
    /// A pattern with no fixed layout (loose markers) cannot be calibrated against.
    case patternWithoutLayout(String)
    /// The input could not be read: a folder, a picture or a sidecar.
    case unreadableInput(path: String, reason: String)
    /// Output could not be written.
    case output(path: String, reason: String)
    /// OpenCV refused the problem or failed to solve it.
    case openCV(String)

    public var description: String {
        switch self {
        case .tooFewViews(let usable, let needed, let model, let rejected):
            var text = "\(usable) usable view\(usable == 1 ? "" : "s"), but the \(model) model needs at least \(needed)"
            if !rejected.isEmpty {
                let reasons = Dictionary(grouping: rejected, by: \.reason).sorted { $0.value.count > $1.value.count }
                text += "; set aside: " + reasons.map { "\($0.value.count) (\($0.key))" }.joined(separator: ", ")
            }
            return text + ". Take more pictures of the whole target from different positions and angles."
        case .mixedImageSizes(let sizes):
            return "the pictures have different sizes (\(sizes.joined(separator: ", "))); "
                + "a calibration is for one camera at one resolution: keep only pictures of one size"
        case .patternWithoutLayout(let pattern):
            return "pattern \(pattern) is loose markers, whose places on the target are unknown; "
                + "calibration needs a board: charuco, chessboard, gridboard or aprilgrid"
        case .unreadableInput(let path, let reason):
            return "cannot read \(path): \(reason)"
        case .output(let path, let reason):
            return "cannot write \(path): \(reason); nothing was written"
        case .openCV(let reason):
            return "the solve failed: \(reason)"
        }
    }
}

/// A view left out of a solve, and why.
public struct RejectedView: Sendable, Hashable {
    /// The picture's name.
    public var name: String
    /// Why, in a few words ("only 4 corners (6 needed)").
    public var reason: String

    /// Makes a rejected view.
    public init(name: String, reason: String) {
        self.name = name
        self.reason = reason
    }
}
