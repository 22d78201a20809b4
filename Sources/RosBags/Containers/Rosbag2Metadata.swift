import Yams

/// A rosbag2 folder's `metadata.yaml`: what storage its files are, which files, how they are
/// compressed, and its topics. Read with Yams (libyaml); nothing in it is trusted: a file name that
/// leads out of the folder, a storage or compression this reader does not read, a document that
/// expands past ``nodeLimit`` nodes (aliases of aliases) is refused with the reason.
///
/// ```
/// rosbag2_bagfile_information:
///   version: 9
///   storage_identifier: sqlite3            # or mcap
///   relative_file_paths: [bag_0.db3]
///   compression_format: ""                 # or zstd
///   compression_mode: ""                   # or MESSAGE (FILE is not read)
///   topics_with_message_count:
///     - topic_metadata: {name: /cam/image_raw, type: sensor_msgs/msg/Image, serialization_format: cdr}
///       message_count: 120
/// ```
struct Rosbag2Metadata: Sendable, Equatable {
    /// The file's name in the folder.
    static let fileName = "metadata.yaml"
    /// The most YAML nodes a document may have, counting each alias's nodes again where it is used.
    static let nodeLimit = 200_000

    /// The storage of the files.
    enum Storage: String, Sendable {
        case sqlite3
        case mcap
    }

    /// One topic as the metadata lists it.
    struct Topic: Sendable, Equatable {
        var name: String
        var type: String
        var serialization: String
        var count: Int?
    }

    var storage: Storage
    /// The files, relative to the folder, in order.
    var files: [String]
    /// Whether each message is compressed with zstd (compression mode MESSAGE).
    var messagesCompressed: Bool
    var topics: [Topic]

    /// Reads the text of `metadata.yaml`.
    ///
    /// - Throws: ``Malformed`` (`reason` says what) for text that is not such a document;
    ///   ``Unsupported`` for a storage or compression this reader does not read.
    init(parsing text: String) throws(Rosbag2MetadataError) {
        let root: Node
        do {
            guard let node = try Yams.compose(yaml: text) else { throw Rosbag2MetadataError.malformed("it is empty") }
            root = node
        } catch let error as Rosbag2MetadataError {
            throw error
        } catch {
            throw .malformed("it is not YAML (\(error))")
        }
        var budget = Self.nodeLimit
        guard Self.count(root, budget: &budget) else {
            throw .malformed("it expands to more than \(Self.nodeLimit) YAML nodes")
        }
        guard let information = root["rosbag2_bagfile_information"], information.mapping != nil else {
            throw .malformed("it has no rosbag2_bagfile_information")
        }
        guard let identifier = information["storage_identifier"]?.string else {
            throw .malformed("rosbag2_bagfile_information has no storage_identifier")
        }
        guard let storage = Storage(rawValue: identifier) else {
            throw .unsupported("its storage is '\(identifier)'; sqlite3 and mcap are read")
        }
        self.storage = storage
        guard let paths = information["relative_file_paths"]?.sequence else {
            throw .malformed("rosbag2_bagfile_information has no list relative_file_paths")
        }
        var files: [String] = []
        for node in paths {
            guard let name = node.string else { throw .malformed("relative_file_paths holds something that is not a file name") }
            // A name is a plain file of the folder (rosbag2 writes NAME_0.db3 or NAME_0.mcap); older
            // writers prefixed the folder's own name, which is taken off by the reader.
            guard !name.isEmpty, !name.hasPrefix("/"), !name.split(separator: "/").contains(".."), !name.contains("\0") else {
                throw .malformed("relative_file_paths names '\(name)', which is not a file inside the folder")
            }
            files.append(name)
        }
        guard !files.isEmpty else { throw .malformed("relative_file_paths lists no file") }
        self.files = files
        let mode = (information["compression_mode"]?.string ?? "").uppercased()
        let format = information["compression_format"]?.string ?? ""
        switch mode {
        case "", "NONE":
            messagesCompressed = false
        case "MESSAGE":
            guard format == "zstd" else { throw .unsupported("its messages are compressed with '\(format)'; zstd is read") }
            messagesCompressed = true
        case "FILE":
            throw .unsupported("its files are compressed whole (compression_mode FILE), which is not read: "
                + "`ros2 bag convert` it to an uncompressed bag, or decompress its files with `zstd -d` and list them in metadata.yaml")
        default:
            throw .unsupported("its compression_mode is '\(mode)'; none and MESSAGE are read")
        }
        var topics: [Topic] = []
        for entry in information["topics_with_message_count"]?.sequence ?? [] {
            guard let metadata = entry["topic_metadata"], let name = metadata["name"]?.string, let type = metadata["type"]?.string else {
                throw .malformed("topics_with_message_count holds a topic without topic_metadata name and type")
            }
            topics.append(Topic(name: name, type: type, serialization: metadata["serialization_format"]?.string ?? "cdr",
                                count: entry["message_count"]?.int))
        }
        self.topics = topics
    }

    /// Counts `node`'s nodes against `budget`; false once it runs out.
    private static func count(_ node: Node, budget: inout Int) -> Bool {
        budget -= 1
        guard budget >= 0 else { return false }
        switch node {
        case .scalar:
            return true
        case .mapping(let mapping):
            for (key, value) in mapping where !count(key, budget: &budget) || !count(value, budget: &budget) { return false }
            return true
        case .sequence(let sequence):
            for item in sequence where !count(item, budget: &budget) { return false }
            return true
        }
    }
}

/// Why a `metadata.yaml` was refused.
enum Rosbag2MetadataError: Error, Sendable, Equatable {
    /// Not a rosbag2 metadata document.
    case malformed(String)
    /// A storage or compression this reader does not read.
    case unsupported(String)
}
