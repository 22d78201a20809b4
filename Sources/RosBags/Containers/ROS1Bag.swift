/// A ROS 1 bag, format 2.0 (the ROS wiki's "Bags/Format/2.0"), read as it is stored.
///
/// ```
/// #ROSBAG V2.0\n
/// bag header record (op 0x03: index_pos, conn_count, chunk_count), padded to 4096 bytes
/// chunk records (op 0x05: compression none, bz2 or lz4, size), each followed by its index data (op 0x04)
/// at index_pos: connection records (op 0x07) and chunk info records (op 0x06)
/// ```
///
/// Every record is `header_len` (u32), a header of `field_len` (u32) `name=value` fields,
/// `data_len` (u32) and the data. Inside a chunk, connection records and message data records
/// (op 0x02: conn, time) follow one another. The connections and the message counts come from the
/// index section at the end; the messages from a walk over the chunks in file order (only the
/// chunks that hold a wanted connection, as the chunk infos say). An `lz4` chunk is LZ4's frame
/// format, as roslz4 writes it.
final class ROS1Bag: MessageContainer {
    /// `#ROSBAG V2.0\n`.
    static let magic = Array("#ROSBAG V2.0\n".utf8)

    /// Record op codes.
    enum Op: UInt8 {
        case messageData = 0x02
        case bagHeader = 0x03
        case indexData = 0x04
        case chunk = 0x05
        case chunkInfo = 0x06
        case connection = 0x07
    }

    let path: String
    let topics: [ContainerTopic]
    let file: BagFile
    /// Where the data section (the chunks) starts and ends (the index section's start).
    let dataStart: UInt64
    let dataEnd: UInt64
    /// The connections each chunk holds, by the chunk record's offset.
    let chunkConnections: [UInt64: Set<Int>]
    private let cache = ChunkCache()

    /// Opens a bag and reads its index section.
    ///
    /// - Throws: ``BagError``: `malformed` for a file that is not a ROS 1 bag or whose records do
    ///   not parse, `unsupported` for another version, `truncated` for a bag cut off (its index
    ///   section missing or short), `unreadable` when it cannot be read.
    init(path: String) throws(BagError) {
        let file = try BagFile(path: path)
        self.path = path
        self.file = file
        guard file.size >= UInt64(Self.magic.count) else {
            throw BagError(file.size == 0 ? .truncated : .malformed, path: path, "is not a ROS 1 bag: \(file.size) bytes, shorter than its magic line")
        }
        let start = try file.read(at: 0, count: UInt64(Self.magic.count), what: "the magic line")
        guard start == Self.magic else {
            if start.starts(with: Array("#ROSBAG V".utf8)) {
                let version = String(decoding: start.dropFirst(9).prefix { $0 != 0x0A }, as: UTF8.self)
                throw BagError(.unsupported, path: path, "is a ROS 1 bag of version \(version); only version 2.0 (ROS since 2010) is read")
            }
            throw BagError(.malformed, path: path, "is not a ROS 1 bag: it does not start with #ROSBAG V2.0")
        }
        let header = try Self.record(in: file, at: UInt64(Self.magic.count), end: file.size, what: "the bag header")
        let headerOp = try Self.op(header.fields, path: path, at: UInt64(Self.magic.count))
        guard headerOp == Op.bagHeader.rawValue else {
            throw BagError(.malformed, path: path, "the first record is not the bag header (op \(headerOp))")
        }
        let indexPosition: UInt64
        let connectionCount: UInt32
        let chunkCount: UInt32
        do {
            indexPosition = try header.fields.u64("index_pos")
            connectionCount = try header.fields.u32("conn_count")
            chunkCount = try header.fields.u32("chunk_count")
        } catch {
            throw BagError(.malformed, path: path, "bag header: \(error.reason)")
        }
        guard indexPosition != 0 else {
            throw BagError(.truncated, path: path,
                           "the bag was not closed: its index is missing (a recording cut off); `rosbag reindex` it first")
        }
        guard indexPosition >= header.end else {
            throw BagError(.malformed, path: path, "bag header: index_pos \(indexPosition) points inside the bag header")
        }
        guard indexPosition <= file.size else {
            throw BagError(.truncated, path: path, "truncated: its index should start at offset \(indexPosition), but the file ends at \(file.size)")
        }
        dataStart = header.end
        dataEnd = indexPosition

        // The index section: connections and chunk infos, read whole (it is small).
        let index = try file.read(at: indexPosition, count: file.size - indexPosition, what: "the index section", limit: BagLimits.indexBytes)
        var connections: [Int: ContainerTopic] = [:]
        var counts: [Int: Int] = [:]
        var chunks: [UInt64: Set<Int>] = [:]
        var chunkInfos = 0
        var position = 0
        while position < index.count {
            let offset = indexPosition + UInt64(position)
            let record: MemoryRecord
            do {
                record = try MemoryRecord(index, at: position)
            } catch {
                throw BagError(.truncated, path: path, "truncated: the index record at offset \(offset) is cut off (\(error.reason))")
            }
            do throws(Malformed) {
                switch try record.fields.op() {
                case Op.connection.rawValue:
                    let topic = try Self.connection(record)
                    connections[topic.id] = topic
                case Op.chunkInfo.rawValue:
                    chunkInfos += 1
                    guard try record.fields.u32("ver") == 1 else { throw Malformed("chunk info of a version other than 1") }
                    let chunkPosition = try record.fields.u64("chunk_pos")
                    let count = Int(try record.fields.u32("count"))
                    var data = ByteReader(index, range: record.data)
                    guard count <= data.remaining / 8 else { throw Malformed("chunk info counts \(count) connections in \(data.remaining) bytes") }
                    var held = Set<Int>()
                    for _ in 0..<count {
                        let connection = Int(try data.u32("a connection id"))
                        counts[connection, default: 0] += Int(try data.u32("a message count"))
                        held.insert(connection)
                    }
                    guard chunkPosition >= dataStart && chunkPosition < dataEnd else {
                        throw Malformed("chunk info points at offset \(chunkPosition), outside the chunks (\(dataStart)..<\(dataEnd))")
                    }
                    chunks[chunkPosition] = held
                default:
                    break
                }
            } catch {
                throw BagError(.malformed, path: path, "the index record at offset \(offset): \(error.reason)")
            }
            position = record.end
        }
        guard connections.count == Int(connectionCount) else {
            throw BagError(.truncated, path: path,
                           "its index holds \(connections.count) connections, not the \(connectionCount) its header counts: the index is incomplete")
        }
        guard chunkInfos == Int(chunkCount) else {
            throw BagError(.truncated, path: path,
                           "its index holds \(chunkInfos) chunk infos, not the \(chunkCount) its header counts: the index is incomplete")
        }
        topics = connections.values.sorted { $0.id < $1.id }.map { topic in
            var topic = topic
            topic.count = counts[topic.id] ?? 0
            return topic
        }
        chunkConnections = chunks
    }

    /// A connection record: its id and topic from the header, its type and MD5 sum from the
    /// connection header in its data.
    private static func connection(_ record: MemoryRecord) throws(Malformed) -> ContainerTopic {
        let id = Int(try record.fields.u32("conn"))
        let topic = try record.fields.string("topic")
        let header = try ROS1Fields(record.fields.bytes, range: record.data)
        let type = try header.string("type")
        let md5 = header.has("md5sum") ? try header.string("md5sum") : nil
        return ContainerTopic(id: id, name: topic, type: type, encoding: .ros1, md5: md5, count: nil)
    }

    func walk(topics: Set<Int>, complete: Bool) throws(BagError) -> any MessageWalker {
        ROS1Walker(bag: self, topics: topics, complete: complete)
    }

    func read(_ location: MessageLocation) throws(BagError) -> [UInt8] {
        switch location.place {
        case .file(let offset):
            return try file.read(at: offset, count: UInt64(location.length), what: "a message")
        case .chunk(let chunk, let within):
            return try cache.message(in: ChunkCache.Key(file: 0, offset: chunk), within: within, length: location.length, path: path) {
                () throws(BagError) in try self.chunk(at: chunk).records
            }
        case .row:
            throw BagError(.malformed, path: path, "a ROS 1 bag has no rows")
        }
    }

    /// The chunk whose record starts at `offset`: its records (decompressed), and where the record ends.
    func chunk(at offset: UInt64) throws(BagError) -> (records: ChunkRecords, end: UInt64) {
        let record = try Self.record(in: file, at: offset, end: dataEnd, what: "a chunk")
        guard try Self.op(record.fields, path: path, at: offset) == Op.chunk.rawValue else {
            throw BagError(.malformed, path: path, "the record at offset \(offset) is not a chunk")
        }
        let compression: String
        let size: UInt32
        do {
            compression = try record.fields.string("compression")
            size = try record.fields.u32("size")
        } catch {
            throw BagError(.malformed, path: path, "the chunk at offset \(offset): \(error.reason)")
        }
        if compression == "none" {
            guard UInt64(size) == record.dataLength else {
                throw BagError(.malformed, path: path, "the uncompressed chunk at offset \(offset) states \(size) bytes but holds \(record.dataLength)")
            }
            return (.file(start: record.dataOffset, end: record.end), record.end)
        }
        guard compression == "bz2" || compression == "lz4" else {
            throw BagError(.unsupported, path: path, "the chunk at offset \(offset) is compressed with '\(compression)'; none, bz2 and lz4 are read")
        }
        guard Int(size) <= BagLimits.chunkBytes else {
            throw BagError(.malformed, path: path, "the chunk at offset \(offset) states \(size) bytes, more than the \(BagLimits.chunkBytes) allowed")
        }
        let compressed = try file.read(at: record.dataOffset, count: record.dataLength, what: "a chunk's data")
        do {
            let records = compression == "bz2"
                ? try Decompression.bzip2(compressed, compressed.indices, expected: Int(size))
                : try Decompression.lz4Frame(compressed, compressed.indices, expected: Int(size))
            return (.memory(records), record.end)
        } catch {
            throw BagError(.malformed, path: path, "the \(compression) chunk at offset \(offset): \(error.reason)")
        }
    }

    /// A record's op code.
    static func op(_ fields: ROS1Fields, path: String, at offset: UInt64) throws(BagError) -> UInt8 {
        do {
            return try fields.op()
        } catch {
            throw BagError(.malformed, path: path, "the record at offset \(offset): \(error.reason)")
        }
    }

    /// A record in the file: its header fields, where its data is, and where it ends.
    struct FileRecord {
        var fields: ROS1Fields
        var dataOffset: UInt64
        var dataLength: UInt64
        var end: UInt64 { dataOffset + dataLength }
    }

    /// Reads the head of the record at `offset` (its header and data length), which must end by `end`.
    static func record(in file: BagFile, at offset: UInt64, end: UInt64, what: @autoclosure () -> String) throws(BagError) -> FileRecord {
        func cut(_ reason: String) -> BagError {
            BagError(end < file.size ? .malformed : .truncated, path: file.path,
                     end < file.size ? "\(what()) at offset \(offset): \(reason)" : "truncated: \(what()) at offset \(offset) is cut off (\(reason))")
        }
        guard offset <= end, end - offset >= 8 else { throw cut("\(end - min(offset, end)) bytes left, fewer than a record's two lengths") }
        let lengthBytes = try file.read(at: offset, count: 4, what: what())
        let headerLength = UInt64(UInt32(lengthBytes[0]) | UInt32(lengthBytes[1]) << 8 | UInt32(lengthBytes[2]) << 16 | UInt32(lengthBytes[3]) << 24)
        guard headerLength <= UInt64(BagLimits.headerBytes) else {
            throw BagError(.malformed, path: file.path, "\(what()) at offset \(offset) has a header of \(headerLength) bytes, more than the \(BagLimits.headerBytes) allowed")
        }
        guard headerLength + 8 <= end - offset else { throw cut("its header of \(headerLength) bytes runs past \(end)") }
        let head = try file.read(at: offset + 4, count: headerLength + 4, what: what())
        let fields: ROS1Fields
        do {
            fields = try ROS1Fields(head, range: 0..<Int(headerLength))
        } catch {
            throw BagError(.malformed, path: file.path, "\(what()) at offset \(offset): \(error.reason)")
        }
        let tail = Int(headerLength)
        let dataLength = UInt64(UInt32(head[tail]) | UInt32(head[tail + 1]) << 8 | UInt32(head[tail + 2]) << 16 | UInt32(head[tail + 3]) << 24)
        let dataOffset = offset + 8 + headerLength
        guard dataLength <= end - dataOffset else { throw cut("its data of \(dataLength) bytes runs past \(end)") }
        return FileRecord(fields: fields, dataOffset: dataOffset, dataLength: dataLength)
    }
}

/// A record inside a buffer (a decompressed chunk, the index section).
struct MemoryRecord {
    var fields: ROS1Fields
    var data: Range<Int>
    var end: Int { data.upperBound }

    /// Reads the record at `position` of `bytes`.
    init(_ bytes: [UInt8], at position: Int) throws(Malformed) {
        var reader = ByteReader(bytes, range: position..<bytes.count)
        let headerLength = try reader.length(try reader.u32("a record's header length"), "a record's header")
        let header = try reader.range(headerLength, "a record's header")
        let dataLength = try reader.length(try reader.u32("a record's data length"), "a record's data")
        data = try reader.range(dataLength, "a record's data")
        fields = try ROS1Fields(bytes, range: header)
    }
}

/// A ROS 1 record header (or connection header): `field_len` (u32) `name=value` fields, the values
/// as ranges of the buffer.
struct ROS1Fields {
    let bytes: [UInt8]
    private var values: [String: Range<Int>] = [:]

    init(_ bytes: [UInt8], range: Range<Int>) throws(Malformed) {
        self.bytes = bytes
        var reader = ByteReader(bytes, range: range)
        while !reader.isAtEnd {
            let length = try reader.length(try reader.u32("a header field's length"), "a header field")
            let field = try reader.range(length, "a header field")
            guard let equals = bytes[field].firstIndex(of: UInt8(ascii: "=")) else {
                throw Malformed("a header field has no '=' between its name and value")
            }
            values[String(decoding: bytes[field.lowerBound..<equals], as: UTF8.self)] = (equals + 1)..<field.upperBound
        }
    }

    func has(_ name: String) -> Bool { values[name] != nil }

    private func value(_ name: String, size: Int? = nil) throws(Malformed) -> Range<Int> {
        guard let range = values[name] else { throw Malformed("the header has no field '\(name)'") }
        if let size, range.count != size { throw Malformed("the header field '\(name)' has \(range.count) bytes, not \(size)") }
        return range
    }

    private func number<T: FixedWidthInteger & UnsignedInteger>(_ name: String, _: T.Type) throws(Malformed) -> T {
        let range = try value(name, size: MemoryLayout<T>.size)
        var reader = ByteReader(bytes, range: range)
        switch MemoryLayout<T>.size {
        case 1: return T(try reader.u8(name))
        case 4: return T(try reader.u32(name))
        default: return T(try reader.u64(name))
        }
    }

    func op() throws(Malformed) -> UInt8 { try number("op", UInt8.self) }
    func u32(_ name: String) throws(Malformed) -> UInt32 { try number(name, UInt32.self) }
    func u64(_ name: String) throws(Malformed) -> UInt64 { try number(name, UInt64.self) }
    func string(_ name: String) throws(Malformed) -> String { String(decoding: bytes[try value(name)], as: UTF8.self) }
}

/// A walk over a ROS 1 bag's chunks in file order, one chunk in memory at a time.
final class ROS1Walker: MessageWalker {
    private let bag: ROS1Bag
    private let topics: Set<Int>
    private let complete: Bool
    /// The next top-level record.
    private var cursor: UInt64
    /// The chunk being walked: its record's offset, its records, and the next record in it.
    private var chunk: (offset: UInt64, records: ChunkRecords, position: UInt64)?

    init(bag: ROS1Bag, topics: Set<Int>, complete: Bool) {
        self.bag = bag
        self.topics = topics
        self.complete = complete
        self.cursor = bag.dataStart
    }

    func next() throws(BagError) -> RawMessage? {
        while true {
            if let current = chunk {
                if let message = try nextInChunk(current) { return message }
                continue
            }
            guard cursor < bag.dataEnd else { return nil }
            let offset = cursor
            let record = try ROS1Bag.record(in: bag.file, at: offset, end: bag.dataEnd, what: "a record")
            cursor = record.end
            switch try op(record.fields, at: offset) {
            case ROS1Bag.Op.chunk.rawValue:
                // Skip a chunk that holds none of the topics (the chunk infos say which it holds).
                if let held = bag.chunkConnections[offset], held.isDisjoint(with: topics) { continue }
                let (records, _) = try bag.chunk(at: offset)
                switch records {
                case .memory: chunk = (offset, records, 0)
                case .file(let start, _): chunk = (offset, records, start)
                }
            case ROS1Bag.Op.messageData.rawValue:
                if let message = try message(record.fields, at: offset, data: .file(offset: record.dataOffset),
                                             length: Int(record.dataLength), read: { (count: UInt64) throws(BagError) -> [UInt8] in
                                                 try bag.file.read(at: record.dataOffset, count: count, what: "a message") }) {
                    return message
                }
            default:
                continue
            }
        }
    }

    private func op(_ fields: ROS1Fields, at offset: UInt64) throws(BagError) -> UInt8 {
        try ROS1Bag.op(fields, path: bag.path, at: offset)
    }

    /// The next wanted message of the chunk being walked, or `nil` once it has none left (then it is left).
    private func nextInChunk(_ current: (offset: UInt64, records: ChunkRecords, position: UInt64)) throws(BagError) -> RawMessage? {
        switch current.records {
        case .memory(let bytes):
            var position = Int(current.position)
            while position < bytes.count {
                let record: MemoryRecord
                do {
                    record = try MemoryRecord(bytes, at: position)
                } catch {
                    throw BagError(.malformed, path: bag.path, "the chunk at offset \(current.offset), \(position) bytes in: \(error.reason)")
                }
                position = record.end
                chunk?.position = UInt64(position)
                guard try op(record.fields, at: current.offset) == ROS1Bag.Op.messageData.rawValue else { continue }
                if let message = try message(record.fields, at: current.offset, data: .chunk(current.offset, within: record.data.lowerBound),
                                             length: record.data.count, read: { count in
                                                 Array(bytes[record.data.lowerBound..<(record.data.lowerBound + Int(count))]) }) {
                    return message
                }
            }
        case .file(_, let end):
            var position = current.position
            while position < end {
                let record = try ROS1Bag.record(in: bag.file, at: position, end: end, what: "a record of the chunk at offset \(current.offset)")
                position = record.end
                chunk?.position = position
                guard try op(record.fields, at: current.offset) == ROS1Bag.Op.messageData.rawValue else { continue }
                if let message = try message(record.fields, at: current.offset, data: .file(offset: record.dataOffset),
                                             length: Int(record.dataLength), read: { (count: UInt64) throws(BagError) -> [UInt8] in
                                                 try bag.file.read(at: record.dataOffset, count: count, what: "a message") }) {
                    return message
                }
            }
        }
        chunk = nil
        return nil
    }

    /// The message of a message data record, when its connection is wanted.
    private func message(_ fields: ROS1Fields, at offset: UInt64, data place: MessageLocation.Place, length: Int,
                         read: (UInt64) throws(BagError) -> [UInt8]) throws(BagError) -> RawMessage? {
        let connection: Int
        let time: UInt64
        do {
            connection = Int(try fields.u32("conn"))
            time = try fields.u64("time")
        } catch {
            throw BagError(.malformed, path: bag.path, "a message record near offset \(offset): \(error.reason)")
        }
        guard topics.contains(connection) else { return nil }
        let count = complete ? length : min(length, BagLimits.messagePrefixBytes)
        // ROS 1 time: seconds then nanoseconds, each a u32.
        let nanoseconds = (time & 0xFFFF_FFFF) * 1_000_000_000 + (time >> 32)
        return RawMessage(topic: connection, logTime: nanoseconds, location: MessageLocation(file: 0, place: place, length: length),
                          bytes: try read(UInt64(count)), isComplete: count == length, length: length)
    }
}
