import Glibc
import SystemCalls

/// Why capture failed: the device, the call that failed, errno, and what it means.
///
/// The description reads like `/dev/video0: VIDIOC_DQBUF failed: No such device (ENODEV)`.
public struct CaptureError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure.
    public enum Kind: Sendable, Equatable {
        /// A call failed with ``CaptureError/errno``.
        case callFailed
        /// The device went away (ENODEV): unplugged, or its driver unbound.
        case disconnected
        /// No frame arrived within the configured timeout.
        case timedOut
        /// `poll` reported an error condition and `VIDIOC_DQBUF` had no frame to explain it.
        case pollFailed
        /// The file is not a video capture device that supports streaming.
        case notACaptureDevice
        /// The driver granted a format the grabber cannot use.
        case formatRefused
        /// The settings asked for something impossible.
        case invalidSettings
        /// `frames()` was called a second time, or after the camera stopped.
        case notStreamable
        /// The camera was stopped or closed before the call.
        case closed
    }

    /// The kind of failure.
    public let kind: Kind
    /// The device path given to ``Camera/init(path:settings:)``.
    public let device: String
    /// The call that failed (`open`, `VIDIOC_DQBUF`, `poll`, ...).
    public let call: String
    /// The errno the call reported, or 0.
    public let errno: Int32
    /// More about the failure, or empty.
    public let detail: String

    /// Makes an error; prefer the factory methods.
    public init(kind: Kind, device: String, call: String, errno: Int32 = 0, detail: String = "") {
        self.kind = kind
        self.device = device
        self.call = call
        self.errno = errno
        self.detail = detail
    }

    /// The error for `call` failing with `errno` (ENODEV becomes ``Kind/disconnected``).
    static func failed(device: String, call: String, errno: Int32) -> CaptureError {
        CaptureError(
            kind: errno == ENODEV ? .disconnected : .callFailed, device: device, call: call, errno: errno,
            detail: errno == ENODEV ? "the camera was disconnected" : "")
    }

    public var description: String {
        var text = errno != 0 ? SystemCallError(call: call, path: device, errno: errno).description : "\(device): \(call)"
        if !detail.isEmpty { text += errno != 0 ? ": \(detail)" : " \(detail)" }
        return text
    }

    /// The system's text for `errno` (`strerror`).
    public static func message(_ errno: Int32) -> String { SystemCallError.text(of: errno) }

    /// The symbolic name of `errno` (`ENODEV`), or `errno N` when it is not a common one.
    public static func name(_ errno: Int32) -> String { SystemCallError.name(of: errno) }
}
