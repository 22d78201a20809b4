/// Why a recording (a ROS 1 bag, an MCAP file or a rosbag2 folder) or one of its messages could
/// not be read: a sentence naming the file or the topic, and what to do where there is something.
public struct BagError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Kind: Sendable, Hashable {
        /// The path cannot be opened or read (missing, not a regular file, a read that failed).
        case unreadable
        /// The file ends before its structure does: cut off while recording or copying.
        case truncated
        /// A length, an offset, a checksum or a field that the format's specification does not allow.
        case malformed
        /// Well formed, but something this reader does not read (a compression, a version, an encoding).
        case unsupported
        /// A topic asked for that the recording does not have.
        case missingTopic
        /// A topic asked for whose messages are not images.
        case notImages
    }

    /// What kind of problem it is.
    public let kind: Kind
    /// The file (or folder) the problem is in, as the user named it.
    public let path: String
    /// What is wrong, without the path.
    public let reason: String

    /// Describes a problem with `path`.
    public init(_ kind: Kind, path: String, _ reason: String) {
        self.kind = kind
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}
