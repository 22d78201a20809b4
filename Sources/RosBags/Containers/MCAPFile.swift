/// An MCAP file (mcap.dev's specification, version 0), read as it is stored.
///
/// ```
/// magic (0x89 "MCAP0\r\n"), Header record, data section (Schema, Channel, Message, Chunk,
/// Message Index, Attachment, Metadata ... records), Data End record,
/// summary section (Schema, Channel, Statistics, Chunk Index ... records), Summary Offsets,
/// Footer record (summary_start, summary_offset_start, summary_crc), magic
/// ```
///
/// Every record is an opcode (u8), a length (u64) and its content; strings and byte arrays are
/// prefixed with a u32 length, maps with a u32 length in bytes. A Chunk holds Schema, Channel and
/// Message records, uncompressed, `zstd` or `lz4` (LZ4's frame format), with the CRC-32 of its
/// records when it is not zero. The topics come from the summary section (when the file has one:
/// its channels, schemas and message counts) or from a walk over the whole data section; the
/// messages from a walk over the data section in file order (skipping, when the summary's chunk
/// indexes say so, the chunks that hold none of the channels wanted). A file that does not end with
/// the magic is truncated (a recording cut off before its footer was written).
final class MCAPFile: MessageContainer {
    /// The magic at both ends.
    static let magic: [UInt8] = [0x89, 0x4D, 0x43, 0x41, 0x50, 0x30, 0x0D, 0x0A]
    /// Opcode (1), length (8) and content (20) of the footer.
    static let footerBytes: UInt64 = 29

    /// Record opcodes.
    enum Op: UInt8 {
        case header = 0x01
        case footer = 0x02
        case schema = 0x03
        case channel = 0x04
        case message = 0x05
        case chunk = 0x06
        case statistics = 0x0B
        case chunkIndex = 0x08
        case dataEnd = 0x0F
    }

    let topics: [ContainerTopic]
    /// The profile the header names (`ros1`, `ros2`, or another).
    let profile: String
    /// The data section and how to read its chunks.
    let data: MCAPData

    var path: String { data.path }

    /// Opens an MCAP file and reads its summary (or, without one, walks its data section for its channels).
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - fileIndex: Its place among a rosbag2 folder's files, for the locations of its messages.
    ///   - cache: Where decompressed chunks are kept for reading messages again.
    /// - Throws: ``BagError``: `malformed` for a file that is not MCAP or whose records do not
    ///   parse, `truncated` for a file cut off (no closing magic, a record past the end),
    ///   `unreadable` when it cannot be read.
    init(path: String, fileIndex: Int = 0, cache: ChunkCache = ChunkCache()) throws(BagError) {
        let file = try BagFile(path: path)
        let magic = UInt64(Self.magic.count)
        guard file.size >= magic, try file.read(at: 0, count: magic, what: "the magic") == Self.magic else {
            throw BagError(file.size < magic ? .truncated : .malformed, path: path, "is not an MCAP file: it does not start with MCAP's magic")
        }
        guard file.size >= 2 * magic + Self.footerBytes, try file.read(at: file.size - magic, count: magic, what: "the closing magic") == Self.magic else {
            throw BagError(.truncated, path: path,
                           "truncated: it does not end with MCAP's footer and magic (a recording cut off before it was closed; `mcap recover` mends one)")
        }
        let footerOffset = file.size - magic - Self.footerBytes
        var footer = ByteReader(try file.read(at: footerOffset, count: Self.footerBytes, what: "the footer"))
        let summaryStart: UInt64
        do throws(Malformed) {
            guard try footer.u8("the footer's opcode") == Op.footer.rawValue, try footer.u64("the footer's length") == 20 else {
                throw Malformed("the record before the closing magic is not a footer")
            }
            summaryStart = try footer.u64("summary_start")
        } catch {
            throw BagError(.malformed, path: path, error.reason)
        }
        let header = try Self.head(in: file, at: magic, end: footerOffset, what: "the header")
        guard header.op == Op.header.rawValue else {
            throw BagError(.malformed, path: path, "the first record is not a header (opcode \(header.op))")
        }
        var headerContent = ByteReader(try file.read(at: header.content, count: header.length, what: "the header", limit: BagLimits.headerBytes))
        let profile: String
        do {
            profile = try headerContent.text(try headerContent.length(try headerContent.u32("the profile's length"), "the profile"), "the profile")
        } catch {
            throw BagError(.malformed, path: path, "the header: \(error.reason)")
        }
        self.profile = profile
        let dataStart = header.end
        let dataEnd: UInt64
        if summaryStart != 0 {
            guard summaryStart >= dataStart, summaryStart <= footerOffset else {
                throw BagError(.malformed, path: path, "the footer's summary_start \(summaryStart) lies outside \(dataStart)...\(footerOffset)")
            }
            dataEnd = summaryStart
        } else {
            dataEnd = footerOffset
        }

        var schemas: [Int: Schema] = [:]
        var channels: [Int: Channel] = [:]
        var counts: [Int: Int]?
        var chunks: [UInt64: Set<Int>] = [:]
        if summaryStart != 0 {
            let summary = try file.read(at: summaryStart, count: footerOffset - summaryStart, what: "the summary section", limit: BagLimits.indexBytes)
            var reader = ByteReader(summary)
            while !reader.isAtEnd {
                let offset = summaryStart + UInt64(reader.position)
                do throws(Malformed) {
                    let op = try reader.u8("a record's opcode")
                    let content = try reader.range(try reader.length(try reader.u64("a record's length"), "a record"), "a record")
                    switch op {
                    case Op.schema.rawValue:
                        let schema = try Schema(summary, content)
                        schemas[schema.id] = schema
                    case Op.channel.rawValue:
                        let channel = try Channel(summary, content)
                        channels[channel.id] = channel
                    case Op.statistics.rawValue:
                        counts = try Self.channelCounts(summary, content)
                    case Op.chunkIndex.rawValue:
                        let (start, held) = try Self.chunkIndex(summary, content)
                        chunks[start] = held
                    default:
                        break
                    }
                } catch {
                    throw BagError(.malformed, path: path, "the summary record at offset \(offset): \(error.reason)")
                }
            }
        }
        data = MCAPData(file: file, fileIndex: fileIndex, dataStart: dataStart, dataEnd: dataEnd, chunkChannels: chunks, cache: cache)
        if summaryStart == 0 || channels.isEmpty {
            // No summary to say which channels there are: walk the data section for them.
            let walker = MCAPWalker(data: data, known: [], channels: nil, complete: false)
            var seen: [Int: Int] = [:]
            while let message = try walker.next() { seen[message.topic, default: 0] += 1 }
            schemas.merge(walker.schemas) { first, _ in first }
            channels.merge(walker.channels) { first, _ in first }
            counts = seen
        }
        topics = channels.values.sorted { $0.id < $1.id }.map { channel in
            ContainerTopic(id: channel.id, name: channel.topic, type: schemas[channel.schema]?.name ?? "",
                           encoding: MessageEncoding(name: channel.encoding), md5: nil, count: counts?[channel.id])
        }
    }

    /// A Schema record's id and name.
    struct Schema {
        var id: Int
        var name: String

        init(_ bytes: [UInt8], _ content: Range<Int>) throws(Malformed) {
            var reader = ByteReader(bytes, range: content)
            id = Int(try reader.u16("a schema's id"))
            name = try reader.text(try reader.length(try reader.u32("a schema's name length"), "a schema's name"), "a schema's name")
            let encodingLength = try reader.length(try reader.u32("a schema's encoding length"), "a schema's encoding")
            try reader.skip(encodingLength, "a schema's encoding")
            try reader.skip(try reader.length(try reader.u32("a schema's data length"), "a schema's data"), "a schema's data")
        }
    }

    /// A Channel record's id, schema, topic and message encoding.
    struct Channel {
        var id: Int
        var schema: Int
        var topic: String
        var encoding: String

        init(_ bytes: [UInt8], _ content: Range<Int>) throws(Malformed) {
            var reader = ByteReader(bytes, range: content)
            id = Int(try reader.u16("a channel's id"))
            schema = Int(try reader.u16("a channel's schema id"))
            topic = try reader.text(try reader.length(try reader.u32("a channel's topic length"), "a channel's topic"), "a channel's topic")
            encoding = try reader.text(try reader.length(try reader.u32("a channel's encoding length"), "a channel's message encoding"),
                                       "a channel's message encoding")
            try reader.skip(try reader.length(try reader.u32("a channel's metadata length"), "a channel's metadata"), "a channel's metadata")
        }
    }

    /// A Statistics record's message count of each channel.
    private static func channelCounts(_ bytes: [UInt8], _ content: Range<Int>) throws(Malformed) -> [Int: Int] {
        var reader = ByteReader(bytes, range: content)
        try reader.skip(8 + 2 + 4 + 4 + 4 + 4 + 8 + 8, "the statistics' counts")
        let length = try reader.length(try reader.u32("the channel counts' length"), "the channel counts")
        guard length % 10 == 0 else { throw Malformed("channel counts of \(length) bytes, not a whole number of 10-byte entries") }
        var counts: [Int: Int] = [:]
        for _ in 0..<(length / 10) {
            let channel = Int(try reader.u16("a channel id"))
            counts[channel] = Int(clamping: try reader.u64("a message count"))
        }
        return counts
    }

    /// A Chunk Index record's chunk offset and the channels its message index offsets name.
    private static func chunkIndex(_ bytes: [UInt8], _ content: Range<Int>) throws(Malformed) -> (UInt64, Set<Int>) {
        var reader = ByteReader(bytes, range: content)
        try reader.skip(16, "a chunk index's times")
        let start = try reader.u64("a chunk's offset")
        try reader.skip(8, "a chunk's length")
        let length = try reader.length(try reader.u32("the message index offsets' length"), "the message index offsets")
        guard length % 10 == 0 else { throw Malformed("message index offsets of \(length) bytes, not a whole number of 10-byte entries") }
        var channels = Set<Int>()
        for _ in 0..<(length / 10) {
            channels.insert(Int(try reader.u16("a channel id")))
            try reader.skip(8, "a message index offset")
        }
        return (start, channels)
    }

    /// A record's opcode, where its content starts, and its length.
    struct Head {
        var op: UInt8
        var content: UInt64
        var length: UInt64
        var end: UInt64 { content + length }
    }

    /// Reads the opcode and length of the record at `offset`, which must end by `end`.
    static func head(in file: BagFile, at offset: UInt64, end: UInt64, what: @autoclosure () -> String) throws(BagError) -> Head {
        func cut(_ reason: String) -> BagError {
            BagError(.malformed, path: file.path, "\(what()) at offset \(offset): \(reason)")
        }
        guard offset <= end, end - offset >= 9 else { throw cut("\(end - min(offset, end)) bytes left, fewer than a record's opcode and length") }
        var reader = ByteReader(try file.read(at: offset, count: 9, what: what()))
        let op: UInt8
        let length: UInt64
        do {
            op = try reader.u8("an opcode")
            length = try reader.u64("a length")
        } catch {
            throw cut(error.reason)
        }
        guard length <= end - offset - 9 else {
            throw cut("its content of \(length) bytes runs past \(end)")
        }
        return Head(op: op, content: offset + 9, length: length)
    }

    func walk(topics: Set<Int>, complete: Bool) throws(BagError) -> any MessageWalker {
        MCAPWalker(data: data, known: Set(self.topics.map(\.id)), channels: topics, complete: complete)
    }

    func read(_ location: MessageLocation) throws(BagError) -> [UInt8] { try data.read(location) }
}

/// An MCAP file's data section: where it lies, and its chunks and messages read by offset.
struct MCAPData: Sendable {
    let file: BagFile
    /// Which of a rosbag2 folder's files this is (0 alone).
    let fileIndex: Int
    /// Where the data section starts (after the header record) and ends.
    let dataStart: UInt64
    let dataEnd: UInt64
    /// The channels each chunk holds, by the chunk record's offset, when the summary has chunk indexes.
    let chunkChannels: [UInt64: Set<Int>]
    let cache: ChunkCache

    var path: String { file.path }

    func read(_ location: MessageLocation) throws(BagError) -> [UInt8] {
        switch location.place {
        case .file(let offset):
            return try file.read(at: offset, count: UInt64(location.length), what: "a message")
        case .chunk(let chunk, let within):
            return try cache.message(in: ChunkCache.Key(file: fileIndex, offset: chunk), within: within, length: location.length, path: path) {
                () throws(BagError) in try self.chunk(at: chunk).records
            }
        case .row:
            throw BagError(.malformed, path: path, "an MCAP file has no rows")
        }
    }

    /// The chunk whose record starts at `offset`: its records (decompressed and checked against
    /// their CRC), and where the record ends.
    func chunk(at offset: UInt64) throws(BagError) -> (records: ChunkRecords, end: UInt64) {
        let head = try MCAPFile.head(in: file, at: offset, end: dataEnd, what: "a chunk")
        guard head.op == MCAPFile.Op.chunk.rawValue else { throw BagError(.malformed, path: path, "the record at offset \(offset) is not a chunk") }
        // The fixed fields and the compression's name, read before the records.
        let fixed = try file.read(at: head.content, count: min(head.length, 4096), what: "a chunk's fields")
        var reader = ByteReader(fixed)
        let uncompressedSize: UInt64
        let crc: UInt32
        let compression: String
        let recordsLength: UInt64
        do {
            try reader.skip(16, "the chunk's times")
            uncompressedSize = try reader.u64("the chunk's uncompressed size")
            crc = try reader.u32("the chunk's CRC")
            compression = try reader.text(try reader.length(try reader.u32("the compression's length"), "the compression's name"),
                                          "the compression's name")
            recordsLength = try reader.u64("the records' length")
        } catch {
            throw BagError(.malformed, path: path, "the chunk at offset \(offset): \(error.reason)")
        }
        let recordsStart = head.content + UInt64(reader.position)
        guard recordsLength == head.end - recordsStart else {
            throw BagError(.malformed, path: path, "the chunk at offset \(offset) states \(recordsLength) bytes of records but holds \(head.end - recordsStart)")
        }
        guard uncompressedSize <= UInt64(BagLimits.chunkBytes) else {
            throw BagError(.malformed, path: path, "the chunk at offset \(offset) states \(uncompressedSize) bytes, more than the \(BagLimits.chunkBytes) allowed")
        }
        if compression.isEmpty {
            guard uncompressedSize == recordsLength else {
                throw BagError(.malformed, path: path, "the uncompressed chunk at offset \(offset) states \(uncompressedSize) bytes but holds \(recordsLength)")
            }
            if crc != 0 {
                // Checked for an uncompressed chunk too: read it whole, then walk it in memory.
                let records = try file.read(at: recordsStart, count: recordsLength, what: "a chunk's records")
                try check(crc, of: records, chunk: offset)
                return (.memory(records), head.end)
            }
            return (.file(start: recordsStart, end: head.end), head.end)
        }
        guard compression == "zstd" || compression == "lz4" else {
            throw BagError(.unsupported, path: path, "the chunk at offset \(offset) is compressed with '\(compression)'; zstd, lz4 and none are read")
        }
        let compressed = try file.read(at: recordsStart, count: recordsLength, what: "a chunk's records")
        let records: [UInt8]
        do {
            records = compression == "zstd"
                ? try Decompression.zstd(compressed, compressed.indices, expected: Int(uncompressedSize))
                : try Decompression.lz4Frame(compressed, compressed.indices, expected: Int(uncompressedSize))
        } catch {
            throw BagError(.malformed, path: path, "the \(compression) chunk at offset \(offset): \(error.reason)")
        }
        if crc != 0 { try check(crc, of: records, chunk: offset) }
        return (.memory(records), head.end)
    }

    private func check(_ crc: UInt32, of records: [UInt8], chunk offset: UInt64) throws(BagError) {
        let computed = Decompression.crc32(records, records.indices)
        guard computed == crc else {
            throw BagError(.malformed, path: path, "the chunk at offset \(offset) is corrupt: its records' CRC-32 is \(computed), not the \(crc) stored")
        }
    }
}


/// A walk over an MCAP file's data section in file order, one chunk in memory at a time.
final class MCAPWalker: MessageWalker {
    private let file: MCAPData
    /// The channels wanted; `nil` for all.
    private let wanted: Set<Int>?
    private let complete: Bool
    private var cursor: UInt64
    private var chunk: (offset: UInt64, records: ChunkRecords, position: UInt64)?
    /// The schemas and channels seen on the way.
    private(set) var schemas: [Int: MCAPFile.Schema] = [:]
    private(set) var channels: [Int: MCAPFile.Channel] = [:]
    private let known: Set<Int>

    /// A walk over `data` for the messages of `channels` (`nil`: all), whole or their first bytes;
    /// `known` are the channels the summary defines (others must be defined on the way).
    init(data: MCAPData, known: Set<Int>, channels: Set<Int>?, complete: Bool) {
        self.file = data
        self.wanted = channels
        self.complete = complete
        self.cursor = data.dataStart
        self.known = known
    }

    func next() throws(BagError) -> RawMessage? {
        while true {
            if let current = chunk {
                if let message = try nextInChunk(current) { return message }
                continue
            }
            guard cursor < file.dataEnd else { return nil }
            let offset = cursor
            let head = try MCAPFile.head(in: file.file, at: offset, end: file.dataEnd, what: "a record")
            cursor = head.end
            switch head.op {
            case MCAPFile.Op.dataEnd.rawValue:
                cursor = file.dataEnd
            case MCAPFile.Op.chunk.rawValue:
                if let wanted, let held = file.chunkChannels[offset], held.isDisjoint(with: wanted) { continue }
                let (records, _) = try file.chunk(at: offset)
                switch records {
                case .memory: chunk = (offset, records, 0)
                case .file(let start, _): chunk = (offset, records, start)
                }
            case MCAPFile.Op.schema.rawValue, MCAPFile.Op.channel.rawValue:
                let content = try file.file.read(at: head.content, count: head.length, what: "a record", limit: BagLimits.headerBytes)
                try register(head.op, content, content.indices, at: offset)
            case MCAPFile.Op.message.rawValue:
                if let message = try fileMessage(head, at: offset) { return message }
            default:
                continue
            }
        }
    }

    /// Registers a Schema or Channel record.
    private func register(_ op: UInt8, _ bytes: [UInt8], _ content: Range<Int>, at offset: UInt64) throws(BagError) {
        do {
            if op == MCAPFile.Op.schema.rawValue {
                let schema = try MCAPFile.Schema(bytes, content)
                schemas[schema.id] = schema
            } else {
                let channel = try MCAPFile.Channel(bytes, content)
                channels[channel.id] = channel
            }
        } catch {
            throw BagError(.malformed, path: file.path, "the record at offset \(offset): \(error.reason)")
        }
    }

    /// The message of a Message record in the file (not in a compressed chunk), when wanted.
    private func fileMessage(_ head: MCAPFile.Head, at offset: UInt64) throws(BagError) -> RawMessage? {
        let fields = try file.file.read(at: head.content, count: min(head.length, 22), what: "a message")
        let data = head.content + 22
        return try message(fields, length: head.length, at: offset, place: .file(offset: data)) { (count: UInt64) throws(BagError) -> [UInt8] in
            try file.file.read(at: data, count: count, what: "a message")
        }
    }

    private func nextInChunk(_ current: (offset: UInt64, records: ChunkRecords, position: UInt64)) throws(BagError) -> RawMessage? {
        switch current.records {
        case .memory(let bytes):
            var reader = ByteReader(bytes, range: Int(current.position)..<bytes.count)
            while !reader.isAtEnd {
                let op: UInt8
                let content: Range<Int>
                do {
                    op = try reader.u8("an opcode")
                    content = try reader.range(try reader.length(try reader.u64("a record's length"), "a record"), "a record")
                } catch {
                    throw BagError(.malformed, path: file.path, "the chunk at offset \(current.offset), \(reader.position) bytes in: \(error.reason)")
                }
                chunk?.position = UInt64(content.upperBound)
                switch op {
                case MCAPFile.Op.schema.rawValue, MCAPFile.Op.channel.rawValue:
                    try register(op, bytes, content, at: current.offset)
                case MCAPFile.Op.message.rawValue:
                    let fields = Array(bytes[content.lowerBound..<min(content.upperBound, content.lowerBound + 22)])
                    let data = content.lowerBound + 22
                    if let message = try message(fields, length: UInt64(content.count), at: current.offset,
                                                 place: .chunk(current.offset, within: data),
                                                 read: { count in Array(bytes[data..<(data + Int(count))]) }) {
                        return message
                    }
                default:
                    break
                }
            }
        case .file(_, let end):
            var position = current.position
            while position < end {
                let head = try MCAPFile.head(in: file.file, at: position, end: end, what: "a record of the chunk at offset \(current.offset)")
                position = head.end
                chunk?.position = position
                switch head.op {
                case MCAPFile.Op.schema.rawValue, MCAPFile.Op.channel.rawValue:
                    let content = try file.file.read(at: head.content, count: head.length, what: "a record", limit: BagLimits.headerBytes)
                    try register(head.op, content, content.indices, at: current.offset)
                case MCAPFile.Op.message.rawValue:
                    if let message = try fileMessage(head, at: current.offset) { return message }
                default:
                    break
                }
            }
        }
        chunk = nil
        return nil
    }

    /// The message of a Message record (`fields`: its first 22 bytes), when its channel is wanted.
    private func message(_ fields: [UInt8], length: UInt64, at offset: UInt64, place: MessageLocation.Place,
                         read: (UInt64) throws(BagError) -> [UInt8]) throws(BagError) -> RawMessage? {
        var reader = ByteReader(fields)
        let channel: Int
        let logTime: UInt64
        do throws(Malformed) {
            guard length >= 22 else { throw Malformed("a message record of \(length) bytes, fewer than its 22 bytes of fields") }
            channel = Int(try reader.u16("a message's channel"))
            try reader.skip(4, "a message's sequence")
            logTime = try reader.u64("a message's log time")
        } catch {
            throw BagError(.malformed, path: file.path, "a message near offset \(offset): \(error.reason)")
        }
        guard known.contains(channel) || channels[channel] != nil else {
            throw BagError(.malformed, path: file.path, "a message near offset \(offset) is on channel \(channel), which no Channel record defines")
        }
        if let wanted, !wanted.contains(channel) { return nil }
        let dataLength = length - 22
        guard dataLength <= UInt64(BagLimits.chunkBytes) else {
            throw BagError(.malformed, path: file.path, "a message near offset \(offset) has \(dataLength) bytes, more than the \(BagLimits.chunkBytes) allowed")
        }
        let count = complete ? dataLength : min(dataLength, UInt64(BagLimits.messagePrefixBytes))
        return RawMessage(topic: channel, logTime: logTime,
                          location: MessageLocation(file: file.fileIndex, place: place, length: Int(dataLength)),
                          bytes: try read(count), isComplete: count == dataLength, length: Int(dataLength))
    }
}
