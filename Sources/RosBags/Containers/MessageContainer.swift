/// How a topic's messages are serialized.
enum MessageEncoding: Sendable, Hashable {
    /// ROS 1's serialization (ROS 1 bags; MCAP's `ros1` encoding).
    case ros1
    /// ROS 2's CDR (rosbag2; MCAP's `cdr` encoding).
    case cdr
    /// Anything else, by the name the container gives it.
    case other(String)

    /// The encoding an MCAP channel or a rosbag2 topic names.
    init(name: String) {
        switch name {
        case "ros1": self = .ros1
        case "cdr": self = .cdr
        default: self = .other(name)
        }
    }
}

/// One connection (ROS 1), channel (MCAP) or topic (rosbag2) of a container, as the container names it.
struct ContainerTopic: Sendable, Hashable {
    /// The container's own id for it (several connections of a ROS 1 bag may share a topic).
    var id: Int
    /// The topic's name.
    var name: String
    /// The message type, as the container spells it (`sensor_msgs/Image`, `sensor_msgs/msg/Image`).
    var type: String
    /// How its messages are serialized.
    var encoding: MessageEncoding
    /// The MD5 sum of the message definition, where the container gives one (ROS 1).
    var md5: String?
    /// How many messages it has, where the container says.
    var count: Int?
}

/// Where a message's bytes are, so that it can be read again without walking the container.
struct MessageLocation: Sendable, Hashable {
    /// Where in its file.
    enum Place: Sendable, Hashable {
        /// The message's bytes start at this offset of the file (an uncompressed chunk).
        case file(offset: UInt64)
        /// In the compressed chunk whose record starts at `chunk`, from `within` bytes into its
        /// decompressed records.
        case chunk(UInt64, within: Int)
        /// The row of rosbag2's `messages` table with this id.
        case row(Int64)
    }

    /// Which of the container's files (a rosbag2 folder has several; others one).
    var file: Int
    /// Where in that file.
    var place: Place
    /// How many bytes the message has, as stored (before rosbag2's per-message decompression).
    var length: Int
}

/// A message as a container walks past it.
struct RawMessage: Sendable {
    /// The ``ContainerTopic/id`` of its connection, channel or topic.
    var topic: Int
    /// When it was recorded (the receive time), nanoseconds since the Unix epoch.
    var logTime: UInt64
    /// Where it is.
    var location: MessageLocation
    /// Its bytes: all of them, or only the first ``BagLimits/messagePrefixBytes`` when the walker
    /// was asked for prefixes (`isComplete` says which).
    var bytes: [UInt8]
    /// Whether ``bytes`` holds the whole message.
    var isComplete: Bool
    /// The message's whole length.
    var length: Int
}

/// A ROS 1 bag, an MCAP file or a rosbag2 folder: its topics, a walk over its messages in the
/// order they are stored, and any message read again by its location.
protocol MessageContainer: Sendable {
    /// The path the user named.
    var path: String { get }
    /// Every connection, channel or topic.
    var topics: [ContainerTopic] { get }
    /// A walk over the messages of `topics` (by ``ContainerTopic/id``), in the order they are
    /// stored, each whole (`complete`) or only its first bytes.
    func walk(topics: Set<Int>, complete: Bool) throws(BagError) -> any MessageWalker
    /// The bytes of the message at `location`, as a walk gave it.
    func read(_ location: MessageLocation) throws(BagError) -> [UInt8]
}

/// A walk over a container's messages, one at a time, holding at most one chunk in memory.
protocol MessageWalker: AnyObject {
    /// The next message, or `nil` at the end.
    ///
    /// - Throws: ``BagError`` naming the file and where it went wrong (a truncated file is
    ///   `truncated`); the walk cannot go on after an error.
    func next() throws(BagError) -> RawMessage?
}
