import Synchronization

/// The decompressed chunks read last, shared by the threads that read messages by location: the
/// frames of a stretch lie in the same few chunks, so each chunk is decompressed about once
/// however many threads read it. Holds at most ``capacity`` chunks and ``byteBudget`` bytes (the
/// newest chunk is always kept), so memory stays bounded however large the recording.
final class ChunkCache: Sendable {
    /// A chunk: which file, and where its record starts.
    struct Key: Sendable, Hashable {
        var file: Int
        var offset: UInt64
    }

    private let entries = Mutex<[(key: Key, bytes: [UInt8])]>([])
    /// Chunks kept at most.
    let capacity: Int
    /// Bytes kept at most (beyond the newest chunk).
    let byteBudget: Int

    /// A cache of at most `capacity` chunks and `byteBudget` bytes.
    init(capacity: Int = 8, byteBudget: Int = 128 << 20) {
        self.capacity = capacity
        self.byteBudget = byteBudget
    }

    /// The chunk's decompressed bytes, from the cache or from `load` (called outside the lock, so
    /// two threads may both load a chunk neither found; both then keep the same bytes).
    func bytes(of key: Key, load: () throws(BagError) -> [UInt8]) throws(BagError) -> [UInt8] {
        if let found = entries.withLock({ entries -> [UInt8]? in
            guard let index = entries.firstIndex(where: { $0.key == key }) else { return nil }
            let entry = entries.remove(at: index)
            entries.append(entry)
            return entry.bytes
        }) {
            return found
        }
        let loaded = try load()
        entries.withLock { entries in
            entries.removeAll { $0.key == key }
            entries.append((key, loaded))
            var total = entries.reduce(0) { $0 + $1.bytes.count }
            while entries.count > 1, entries.count > capacity || total > byteBudget {
                total -= entries.removeFirst().bytes.count
            }
        }
        return loaded
    }

    /// The bytes of a message `length` long, `within` bytes into the records of the chunk `key`,
    /// checked to lie inside them; the records from the cache, or from `load` (a compressed chunk's).
    ///
    /// - Throws: What `load` throws; ``BagError`` (`malformed`) for a message outside the records.
    func message(in key: Key, within: Int, length: Int, path: String, load: () throws(BagError) -> ChunkRecords) throws(BagError) -> [UInt8] {
        let records = try bytes(of: key) { () throws(BagError) -> [UInt8] in
            guard case .memory(let bytes) = try load() else {
                throw BagError(.malformed, path: path, "the chunk at offset \(key.offset) is no longer compressed")
            }
            return bytes
        }
        guard within >= 0, within <= records.count, length <= records.count - within else {
            throw BagError(.malformed, path: path, "a message lies outside the chunk at offset \(key.offset)")
        }
        return Array(records[within..<(within + length)])
    }
}

/// Where a chunk's records are: in memory once decompressed, or in the file (uncompressed).
enum ChunkRecords {
    case memory([UInt8])
    case file(start: UInt64, end: UInt64)
}
