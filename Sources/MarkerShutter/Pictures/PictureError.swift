public import FileFormats

/// Why a picture was not saved.
public enum PictureError: Error, Equatable, CustomStringConvertible {
    /// The shutter is disabled: no valid frame is held.
    case shutterDisabled
    /// The rig is disabled (for one camera: its frames stopped, or it is gone), and why.
    case rigDisabled(RigRefusal)
    /// `pending` pictures asked for earlier are still waiting to be written; a request is refused
    /// until fewer wait, so that a flood of requests cannot queue frames without end.
    case busy(pending: Int)
    /// The held observation has no pixels.
    case noFrame
    /// The frame could not be encoded.
    case encoding(String)
    /// A file could not be written.
    case write(OutputError)

    public var description: String {
        switch self {
        case .shutterDisabled: "shutter disabled: no valid detection is held, so no picture was taken"
        case .rigDisabled(let refusal): "\(refusal)"
        case .busy(let pending): "\(pending) pictures are still being written, so no picture was taken; ask again once they are saved"
        case .noFrame: "no frame is held to save"
        case .encoding(let reason): "the frame could not be encoded: \(reason)"
        case .write(let error): "\(error); pictures already taken are untouched"
        }
    }
}
