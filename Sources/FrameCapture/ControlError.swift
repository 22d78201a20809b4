/// Why a camera control could not be set: the control, what was asked, and what it allows.
///
/// The description reads like `/dev/video0: gain=300 is out of range: gain takes 0...255`.
public struct ControlError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure.
    public enum Kind: Sendable, Equatable {
        /// The text is not `NAME=VALUE`, `auto` or a number.
        case malformed
        /// The device has no control of that name; ``ControlError/detail`` lists the ones it has.
        case unknownControl
        /// The value is outside the control's range, off its step, or not a menu entry;
        /// ``ControlError/detail`` gives what the control takes.
        case outOfRange
        /// The control cannot be set (read-only, or not a number).
        case notSettable
        /// The device refused or failed the call; ``ControlError/cause`` says how.
        case device
    }

    /// The kind of failure.
    public let kind: Kind
    /// The device path, or empty before a device is involved.
    public let device: String
    /// The control (or the text) it is about.
    public let control: String
    /// What is allowed, or more about the failure.
    public let detail: String
    /// The device error behind a ``Kind/device`` failure.
    public let cause: CaptureError?

    init(_ kind: Kind, device: String = "", control: String, detail: String, cause: CaptureError? = nil) {
        self.kind = kind
        self.device = device
        self.control = control
        self.detail = detail
        self.cause = cause
    }

    public var description: String {
        let prefix = device.isEmpty ? "" : device + ": "
        switch kind {
        case .malformed: return prefix + "'\(control)' is not understood: \(detail)"
        case .unknownControl: return prefix + "no control named '\(control)'; the camera has \(detail)"
        case .outOfRange: return prefix + "\(control) is out of range: \(detail)"
        case .notSettable: return prefix + "\(control) cannot be set: \(detail)"
        case .device: return "\(cause.map { "\($0)" } ?? prefix + detail) (setting \(control))"
        }
    }
}
