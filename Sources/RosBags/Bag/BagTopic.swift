/// A topic of a recording: its name, its message type, how many messages it has (where the
/// recording says), and whether it is an image topic.
public struct BagTopic: Sendable, Hashable, CustomStringConvertible {
    /// The topic's name (`/camera/image_raw`).
    public let name: String
    /// Its message type as the recording spells it (`sensor_msgs/Image`, `sensor_msgs/msg/CompressedImage`).
    public let type: String
    /// How many messages it has, where the recording says.
    public let count: Int?
    /// Which image type its messages are, or `nil` for a topic that is not images.
    public let imageKind: ImageMessage.Kind?
    /// The container's ids of its connections (a ROS 1 bag may have several for a topic).
    let ids: [Int]
    /// How its messages are serialized.
    let encoding: MessageEncoding

    /// The topic as `NAME (TYPE, N messages)`.
    public var description: String {
        "\(name) (\(type)" + (count.map { ", \($0) message\($0 == 1 ? "" : "s")" } ?? "") + ")"
    }
}
