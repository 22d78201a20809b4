/// Why a source could not be opened or can deliver no more, in a capture backend's own words
/// (`/dev/video0: VIDIOC_DQBUF failed: No such device (ENODEV): the camera was disconnected`).
public struct SourceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure it is, as far as a session cares.
    public enum Kind: Sendable, Equatable {
        /// The camera is gone: unplugged, its driver unbound.
        case gone
        /// The camera cannot be opened, or refused what was asked of it (a format, a size).
        case unavailable
        /// A camera control was refused (unknown, out of range, read-only).
        case controls
        /// Anything else that ends the source.
        case failed
    }

    /// What kind of failure it is.
    public let kind: Kind
    /// The backend's message, naming the device or file.
    public let description: String

    /// An error of `kind`, described as `description`.
    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
