public import FileFormats

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
    /// The results could not be written, or their folder was refused (see ``OutputError``).
    case output(OutputError)
    /// OpenCV or Ceres Solver refused the problem or failed to solve, project, undistort or draw.
    case openCV(String)
    /// The calibration shim refused what it was given: a problem, a camera or pixels no solve,
    /// projection or drawing can use.
    case invalidInput(String)
    /// Memory ran out inside OpenCV.
    case outOfMemory
    /// The calibration shim failed in a way it does not expect (a bug); the message says where.
    case internalError(String)
    /// The solve ended, but with a value that is no number (NaN), infinite, or a negative variance,
    /// or with a focal length whose standard deviation is over half of it: the views do not
    /// determine the camera. Names the first such value (`fx = nan`).
    case nonFiniteSolve(String)
    /// One camera of a rig could not be calibrated on its own; the error says why.
    indirect case inCamera(String, CalibrationError)
    /// The rig's cameras do not all see the target together with another: the sentence names them.
    case rigNotConnected(String)
    /// The cameras, names or pictures given cannot make a rig (fewer than two cameras, a name
    /// twice, one folder for two cameras): the sentence says why.
    case rigInput(String)

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
        case .output(let error):
            return error.description
        case .openCV(let reason):
            return "the solve failed: \(reason)"
        case .invalidInput(let reason):
            return "OpenCV cannot use this input: \(reason)"
        case .outOfMemory:
            return "out of memory"
        case .internalError(let reason):
            return reason
        case .nonFiniteSolve(let value):
            return "the solve gave \(value), not a camera: these views do not determine one (points piled up or "
                + "every view alike); take pictures of the whole target from different positions and angles"
        case .inCamera(let camera, let error):
            return "camera \(camera): \(error)"
        case .rigNotConnected(let reason):
            return reason
        case .rigInput(let reason):
            return reason
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
