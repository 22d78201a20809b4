import Foundation
import Synchronization

/// A rosbag2 folder: `metadata.yaml` (``Rosbag2Metadata``) and the files it lists, each a `.db3`
/// SQLite database (`topics` and `messages` tables, as rosbag2's sqlite3 storage writes them) or an
/// MCAP file (``MCAPFile``). Messages compressed one by one with zstd (compression mode MESSAGE)
/// are decompressed as they are read. The topics are the metadata's, and any others a file holds;
/// each file's own topic ids or channels are mapped onto them by name.
final class Rosbag2Folder: MessageContainer {
    let path: String
    let topics: [ContainerTopic]
    let metadata: Rosbag2Metadata
    private let files: [StoredFile]

    /// One of the folder's files.
    enum StoredFile: Sendable {
        /// A `.db3`: its path, its topic ids mapped onto the folder's, and a connection for reads by row.
        case sqlite(path: String, topics: [Int64: Int], reader: SharedDatabase)
        /// An MCAP file and its channels mapped onto the folder's topics.
        case mcap(MCAPFile, channels: [Int: Int])
    }

    /// Whether `path` is a folder with a `metadata.yaml`.
    static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
            && FileManager.default.fileExists(atPath: (path as NSString).appendingPathComponent(Rosbag2Metadata.fileName))
    }

    /// Opens the folder: reads its metadata, opens every file it lists, and maps their topics.
    ///
    /// - Throws: ``BagError`` naming `metadata.yaml` or the file that is wrong.
    init(path: String) throws(BagError) {
        self.path = path
        let metadataPath = (path as NSString).appendingPathComponent(Rosbag2Metadata.fileName)
        let file = try BagFile(path: metadataPath)
        let bytes = try file.read(at: 0, count: file.size, what: "metadata.yaml", limit: BagLimits.metadataBytes)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw BagError(.malformed, path: metadataPath, "is not UTF-8 text")
        }
        do {
            metadata = try Rosbag2Metadata(parsing: text)
        } catch {
            switch error {
            case .malformed(let reason): throw BagError(.malformed, path: metadataPath, reason)
            case .unsupported(let reason): throw BagError(.unsupported, path: metadataPath, reason)
            }
        }
        var topics = metadata.topics.enumerated().map { index, topic in
            ContainerTopic(id: index, name: topic.name, type: topic.type, encoding: MessageEncoding(name: topic.serialization),
                           md5: nil, count: topic.count)
        }
        func global(_ name: String, type: String, encoding: MessageEncoding) -> Int {
            if let known = topics.first(where: { $0.name == name }) { return known.id }
            topics.append(ContainerTopic(id: topics.count, name: name, type: type, encoding: encoding, md5: nil, count: nil))
            return topics.count - 1
        }
        var files: [StoredFile] = []
        let cache = ChunkCache()
        for (index, name) in metadata.files.enumerated() {
            var filePath = (path as NSString).appendingPathComponent(name)
            if !FileManager.default.fileExists(atPath: filePath), name.contains("/") {
                // Older rosbag2 named the files with the folder in front.
                filePath = (path as NSString).appendingPathComponent((name as NSString).lastPathComponent)
            }
            switch metadata.storage {
            case .mcap:
                let mcap = try MCAPFile(path: filePath, fileIndex: index, cache: cache)
                var channels: [Int: Int] = [:]
                for channel in mcap.topics { channels[channel.id] = global(channel.name, type: channel.type, encoding: channel.encoding) }
                files.append(.mcap(mcap, channels: channels))
            case .sqlite3:
                try Self.checkSize(of: try BagFile(path: filePath))
                let database = try SQLiteDatabase(path: filePath)
                let statement = try SQLiteDatabase.Statement(database, "SELECT id, name, type, serialization_format FROM topics",
                                                             what: "cannot read its topics table")
                var mapped: [Int64: Int] = [:]
                while try statement.step() {
                    mapped[statement.int64(0)] = global(statement.text(1), type: statement.text(2),
                                                        encoding: MessageEncoding(name: statement.text(3)))
                }
                files.append(.sqlite(path: filePath, topics: mapped, reader: SharedDatabase(database)))
            }
        }
        self.topics = topics
        self.files = files
    }

    /// Refuses a `.db3` shorter than its header says: SQLite would read the pages past the end as
    /// zeros and give rows whose data are cut.
    ///
    /// SQLite's header: "SQLite format 3\0", the page size (u16, big-endian, at 16; 1 for 65536),
    /// the change counter (u32 at 24), the database's size in pages (u32 at 28), valid when the
    /// version-valid-for number (u32 at 92) equals the change counter.
    static func checkSize(of file: BagFile) throws(BagError) {
        guard file.size >= 100 else { throw BagError(.truncated, path: file.path, "truncated: \(file.size) bytes, shorter than an SQLite header") }
        let header = try file.read(at: 0, count: 100, what: "the SQLite header")
        guard header.starts(with: Array("SQLite format 3\0".utf8)) else {
            throw BagError(.malformed, path: file.path, "is not an SQLite database")
        }
        func number(_ offset: Int, _ count: Int) -> UInt64 { header[offset..<(offset + count)].reduce(0) { $0 << 8 | UInt64($1) } }
        let pageSize = number(16, 2) == 1 ? 65_536 : number(16, 2)
        let pages = number(28, 4)
        guard number(24, 4) == number(92, 4), pages > 0 else { return }
        guard file.size >= pages * pageSize else {
            throw BagError(.truncated, path: file.path,
                           "truncated: its header counts \(pages) pages of \(pageSize) bytes, but the file has \(file.size) bytes")
        }
    }

    func walk(topics: Set<Int>, complete: Bool) throws(BagError) -> any MessageWalker {
        Rosbag2Walker(folder: self, topics: topics, complete: complete)
    }

    func read(_ location: MessageLocation) throws(BagError) -> [UInt8] {
        guard files.indices.contains(location.file) else { throw BagError(.malformed, path: path, "no file \(location.file)") }
        let stored: [UInt8]
        switch files[location.file] {
        case .mcap(let file, _):
            stored = try file.read(location)
        case .sqlite(let path, _, let reader):
            guard case .row(let row) = location.place else { throw BagError(.malformed, path: path, "a .db3 message has a row") }
            stored = try reader.database.withLock { database throws(BagError) in
                try database.readBlob(table: "messages", column: "data", row: row, count: location.length)
            }
        }
        return try decompressed(stored, file: location.file)
    }

    /// A message as stored, decompressed when the folder's messages are.
    fileprivate func decompressed(_ bytes: [UInt8], file: Int) throws(BagError) -> [UInt8] {
        guard metadata.messagesCompressed else { return bytes }
        do {
            return try Decompression.zstd(bytes, bytes.indices, limit: BagLimits.chunkBytes)
        } catch {
            throw BagError(.malformed, path: filePath(file), "a message compressed with zstd: \(error.reason)")
        }
    }

    /// The path of file `index`.
    fileprivate func filePath(_ index: Int) -> String {
        switch files[index] {
        case .mcap(let file, _): file.path
        case .sqlite(let path, _, _): path
        }
    }

    fileprivate var fileCount: Int { files.count }

    /// A walk over file `index`'s messages of `topics` (the folder's ids), and the map back.
    fileprivate func walk(file index: Int, topics wanted: Set<Int>, complete: Bool) throws(BagError) -> (any MessageWalker, [Int: Int]) {
        switch files[index] {
        case .mcap(let file, let channels):
            let local = Set(channels.filter { wanted.contains($0.value) }.keys)
            return (try file.walk(topics: local, complete: complete), channels)
        case .sqlite(let path, let mapped, _):
            let local = Set(mapped.filter { wanted.contains($0.value) }.keys)
            let walker = try SQLiteWalker(path: path, file: index, topics: local, complete: complete)
            return (walker, Dictionary(uniqueKeysWithValues: mapped.map { (Int($0.key), $0.value) }))
        }
    }
}

/// A walk over a rosbag2 folder's files in order.
final class Rosbag2Walker: MessageWalker {
    private let folder: Rosbag2Folder
    private let topics: Set<Int>
    private let complete: Bool
    private var file = -1
    private var current: (walker: any MessageWalker, topics: [Int: Int])?

    init(folder: Rosbag2Folder, topics: Set<Int>, complete: Bool) {
        self.folder = folder
        self.topics = topics
        self.complete = complete
    }

    func next() throws(BagError) -> RawMessage? {
        while true {
            if let current, var message = try current.walker.next() {
                guard let topic = current.topics[message.topic] else { continue }
                message.topic = topic
                if folder.metadata.messagesCompressed {
                    // Compressed one by one: the whole message is needed to learn anything of it.
                    let stored = message.isComplete ? message.bytes : try folder.read(message.location)
                    message.bytes = try folder.decompressed(stored, file: message.location.file)
                    message.length = message.bytes.count
                    message.isComplete = true
                }
                return message
            }
            file += 1
            guard file < folder.fileCount else {
                current = nil
                return nil
            }
            current = try folder.walk(file: file, topics: topics, complete: complete || folder.metadata.messagesCompressed)
        }
    }
}

/// A walk over a `.db3` file's `messages` table in the order of its rows (the order they were
/// recorded), with a connection of its own.
final class SQLiteWalker: MessageWalker {
    private let database: SQLiteDatabase
    private let statement: SQLiteDatabase.Statement
    private let file: Int
    private let topics: Set<Int64>
    private let complete: Bool

    init(path: String, file: Int, topics: Set<Int64>, complete: Bool) throws(BagError) {
        database = try SQLiteDatabase(path: path)
        statement = try SQLiteDatabase.Statement(database, "SELECT id, topic_id, timestamp, length(data) FROM messages ORDER BY id",
                                                 what: "cannot read its messages table")
        self.file = file
        self.topics = topics
        self.complete = complete
    }

    func next() throws(BagError) -> RawMessage? {
        while try statement.step() {
            let topic = statement.int64(1)
            guard topics.contains(topic) else { continue }
            let row = statement.int64(0)
            let time = statement.int64(2)
            let length = Int(statement.int64(3))
            guard length >= 0, length <= BagLimits.chunkBytes else {
                throw BagError(.malformed, path: database.path, "messages row \(row) holds \(length) bytes, more than the \(BagLimits.chunkBytes) allowed")
            }
            let count = complete ? length : min(length, BagLimits.messagePrefixBytes)
            let bytes = try database.readBlob(table: "messages", column: "data", row: row, count: count)
            return RawMessage(topic: Int(topic), logTime: UInt64(max(0, time)),
                              location: MessageLocation(file: file, place: .row(row), length: length),
                              bytes: bytes, isComplete: count == length, length: length)
        }
        return nil
    }
}

/// A database connection that threads take turns with.
final class SharedDatabase: Sendable {
    let database: Mutex<SQLiteDatabase>
    init(_ database: sending SQLiteDatabase) { self.database = Mutex(database) }
}
