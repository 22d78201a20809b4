import Foundation

/// A recording of camera images as ROS records them: a ROS 1 bag (`.bag`, format 2.0), an MCAP file
/// (`.mcap`), or a rosbag2 folder (`metadata.yaml` with `.db3` or `.mcap` files), read as its
/// published specification describes it, with Debian's libzstd, liblz4, libbz2 and libsqlite3.
///
/// Opening reads only what names the topics (a ROS 1 bag's index section, an MCAP file's summary, a
/// rosbag2 folder's metadata and topic tables). The messages are then read in a walk that holds one
/// chunk at a time (``frames(of:)``), or indexed once (``index(of:progress:)``) and read again by
/// their place, a few decompressed chunks kept for the threads that read them: memory stays flat
/// however large the recording.
///
/// ```swift
/// let bag = try ImageBag(path: "calibration.bag")
/// let topics = try bag.imageTopics(named: ["/camera/image_raw"])
/// let frames = try bag.frames(of: topics)
/// while let frame = try frames.next() {
///     let pixels = try frame.message.pixels()          // BGR24, gray8 for mono8
///     print(frame.topic, frame.stamp, pixels.width)
/// }
/// ```
public final class ImageBag: Sendable {
    /// What kind of recording it is.
    public enum Container: String, Sendable {
        case ros1Bag = "ROS 1 bag"
        case mcap = "MCAP file"
        case rosbag2 = "rosbag2 folder"
    }

    /// The path, as the user named it.
    public let path: String
    /// What kind of recording it is.
    public let container: Container
    /// Every topic, in name order.
    public let topics: [BagTopic]
    let storage: any MessageContainer

    /// Whether `path` is a recording this type opens: a folder with a `metadata.yaml`, a file
    /// named `.bag`, `.mcap` or `.db3`, or a file that starts with a ROS 1 bag's or MCAP's magic.
    public static func isBag(_ path: String) -> Bool {
        if Rosbag2Folder.isFolder(path) { return true }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { return false }
        if ["bag", "mcap", "db3"].contains((path as NSString).pathExtension.lowercased()) { return true }
        guard let file = try? BagFile(path: path), file.size >= 8, let start = try? file.read(at: 0, count: 8, what: "the start") else {
            return false
        }
        return start == MCAPFile.magic || start.starts(with: Array("#ROSBAG".utf8))
    }

    /// Opens the recording at `path`.
    ///
    /// - Throws: ``BagError`` naming the file: one that is neither kind, truncated, malformed, or
    ///   of a version or compression this reader does not read.
    public init(path: String) throws(BagError) {
        self.path = path
        if Rosbag2Folder.isFolder(path) {
            storage = try Rosbag2Folder(path: path)
            container = .rosbag2
        } else {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw BagError(.unreadable, path: path, "no such file or folder")
            }
            if isDirectory.boolValue {
                throw BagError(.unreadable, path: path, "is a folder without \(Rosbag2Metadata.fileName): not a rosbag2 folder")
            }
            let file = try BagFile(path: path)
            let start = try file.read(at: 0, count: min(file.size, 16), what: "the start")
            if start.starts(with: MCAPFile.magic) || (path as NSString).pathExtension.lowercased() == "mcap" {
                storage = try MCAPFile(path: path)
                container = .mcap
            } else if start.starts(with: Array("#ROSBAG".utf8)) || (path as NSString).pathExtension.lowercased() == "bag" {
                storage = try ROS1Bag(path: path)
                container = .ros1Bag
            } else if start.starts(with: Array("SQLite format 3".utf8)) {
                throw BagError(.unsupported, path: path,
                               "is an SQLite database: a rosbag2 .db3 file is read from its folder; name the folder that holds its \(Rosbag2Metadata.fileName)")
            } else {
                throw BagError(.malformed, path: path, "is neither a ROS 1 bag nor an MCAP file (it starts with neither's magic)")
            }
        }
        var byName: [String: [ContainerTopic]] = [:]
        for topic in storage.topics { byName[topic.name, default: []].append(topic) }
        topics = byName.keys.sorted().map { name in
            let parts = byName[name]!
            let counts = parts.compactMap(\.count)
            return BagTopic(name: name, type: parts[0].type, count: counts.count == parts.count ? counts.reduce(0, +) : nil,
                            imageKind: ImageMessage.kind(ofType: parts[0].type), ids: parts.map(\.id), encoding: parts[0].encoding)
        }
    }

    /// The image topics (`sensor_msgs/Image` and `sensor_msgs/CompressedImage`).
    public var imageTopics: [BagTopic] { topics.filter { $0.imageKind != nil } }

    /// The topics named, checked: each must be in the recording and carry images. With no name,
    /// the recording's one image topic.
    ///
    /// - Throws: ``BagError``: `missingTopic` for a name the recording does not have (or, with no
    ///   name, for a recording with no image topic or several), `notImages` for a topic of another
    ///   type, `unsupported` for an image topic whose messages are serialized otherwise, or whose
    ///   ROS 1 definition is not the standard one.
    public func imageTopics(named names: [String]) throws(BagError) -> [BagTopic] {
        func listed(_ topics: [BagTopic]) -> String {
            topics.isEmpty ? "none" : topics.map(\.description).joined(separator: ", ")
        }
        if names.isEmpty {
            let images = imageTopics
            guard images.count == 1 else {
                throw BagError(.missingTopic, path: path, images.isEmpty
                    ? "it has no image topic (sensor_msgs/Image or sensor_msgs/CompressedImage); its topics: \(listed(topics))"
                    : "it has \(images.count) image topics: choose with --topic (\(listed(images)))")
            }
            return try imageTopics(named: [images[0].name])
        }
        var chosen: [BagTopic] = []
        for name in names {
            guard let topic = topics.first(where: { $0.name == name }) else {
                throw BagError(.missingTopic, path: path, "it has no topic \(name); its image topics: \(listed(imageTopics))")
            }
            guard let kind = topic.imageKind else {
                throw BagError(.notImages, path: path,
                               "topic \(name) carries \(topic.type), not images (sensor_msgs/Image or sensor_msgs/CompressedImage)")
            }
            if case .other(let encoding) = topic.encoding {
                throw BagError(.unsupported, path: path, "topic \(name) is serialized as '\(encoding)'; ros1 and cdr are read")
            }
            for id in topic.ids {
                if let md5 = storage.topics.first(where: { $0.id == id })?.md5, md5 != "*", md5 != ImageMessage.ros1MD5[kind] {
                    throw BagError(.unsupported, path: path,
                                   "topic \(name) has a \(topic.type) whose definition is not the standard one (MD5 \(md5))")
                }
            }
            guard !chosen.contains(topic) else { throw BagError(.missingTopic, path: path, "topic \(name) is named twice") }
            chosen.append(topic)
        }
        return chosen
    }

    /// A walk over the messages of `topics` in the order they are stored, each whole and decoded
    /// as an image message (its pixels decoded on demand).
    ///
    /// - Throws: ``BagError`` when the walk cannot start.
    public func frames(of topics: [BagTopic]) throws(BagError) -> BagFrameIterator {
        try BagFrameIterator(bag: self, topics: topics)
    }

    /// The topic of a container id among `topics`.
    func topic(of id: Int, in topics: [BagTopic]) -> Int? {
        topics.firstIndex { $0.ids.contains(id) }
    }

    /// Deserializes a message of `topic`.
    ///
    /// - Parameter label: Which message it is, for the error (`message 12`).
    /// - Throws: ``BagError`` (`malformed`) naming the topic and the message.
    func message(_ bytes: [UInt8], length: Int, of topic: BagTopic, label: @autoclosure () -> String) throws(BagError) -> ImageMessage {
        do {
            return try ImageMessage(bytes, length: length, kind: topic.imageKind ?? .raw, encoding: topic.encoding)
        } catch {
            throw BagError(.malformed, path: path, "topic \(topic.name), \(label()): \(error.reason)")
        }
    }
}
