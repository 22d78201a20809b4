import SystemCalls

/// Why a detector could not be made, could not detect, or could not draw.
public enum DetectionError: Error, Hashable, CustomStringConvertible {
    /// The image is smaller than a detector can use.
    case imageTooSmall(width: Int, height: Int, minimum: Int)
    /// Image geometry the detector cannot read (for example a size beyond 32-bit pixel counts).
    case invalidImage(reason: String)
    /// A dictionary file that could not be opened; `errno` says why.
    case dictionaryUnreadable(path: String, errno: Int32)
    /// A dictionary file that OpenCV cannot read as a marker dictionary.
    case invalidDictionary(path: String, reason: String)
    /// A pattern OpenCV cannot build (a board with more markers than its dictionary holds, a
    /// marker not smaller than its square, ...).
    case invalidPattern(reason: String)
    /// A target that cannot be drawn as asked (loose markers, or an image too small for the board).
    case cannotRender(reason: String)
    /// OpenCV failed unexpectedly.
    case openCV(reason: String)
    /// Memory ran out, or something failed that has no more specific case.
    case internalError(reason: String)

    /// A sentence a user can act on.
    public var description: String {
        switch self {
        case .imageTooSmall(let width, let height, let minimum):
            "image of \(width)x\(height) pixels is too small to detect in (at least \(minimum)x\(minimum))"
        case .invalidImage(let reason): "invalid image: \(reason)"
        case .dictionaryUnreadable(let path, let code):
            "cannot read dictionary file '\(path)': \(SystemCallError.explanation(of: code))"
        case .invalidDictionary(_, let reason): reason
        case .invalidPattern(let reason): "invalid pattern: \(reason)"
        case .cannotRender(let reason): "cannot draw target: \(reason)"
        case .openCV(let reason): reason
        case .internalError(let reason): reason
        }
    }
}
