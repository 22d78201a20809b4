/// Bytes that do not hold what the format says they hold: the reason, without the file's name
/// (the container that reads them adds it, and where they are).
struct Malformed: Error, Sendable, Equatable {
    /// What is wrong.
    let reason: String
    init(_ reason: String) { self.reason = reason }
}

/// Reads little-endian (or, for big-endian CDR, big-endian) fields from a buffer, each checked
/// against the bytes left before it is read: a length is never trusted before it is compared with
/// what remains.
struct ByteReader {
    /// The buffer (shared, not copied).
    let bytes: [UInt8]
    /// The next byte to read.
    private(set) var position: Int
    /// One past the last byte this reader may read.
    let end: Int
    /// Where CDR's alignment counts from (the byte after the encapsulation header).
    var alignmentOrigin: Int
    /// Whether multi-byte numbers are big-endian (CDR_BE).
    var bigEndian = false

    /// Reads `range` of `bytes` (all of them unless given).
    init(_ bytes: [UInt8], range: Range<Int>? = nil) {
        let range = range ?? 0..<bytes.count
        precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count, "\(range) outside 0..<\(bytes.count)")
        self.bytes = bytes
        self.position = range.lowerBound
        self.end = range.upperBound
        self.alignmentOrigin = range.lowerBound
    }

    /// Bytes left.
    var remaining: Int { end - position }

    /// Whether every byte has been read.
    var isAtEnd: Bool { position >= end }

    /// Fails unless `count` more bytes are there.
    private func need(_ count: Int, _ what: @autoclosure () -> String) throws(Malformed) {
        guard count >= 0, count <= remaining else {
            throw Malformed("\(what()) needs \(count) bytes, but \(remaining) are left")
        }
    }

    /// One byte.
    mutating func u8(_ what: @autoclosure () -> String) throws(Malformed) -> UInt8 {
        try need(1, what())
        defer { position += 1 }
        return bytes[position]
    }

    /// An unsigned number of `size` bytes.
    private mutating func number<T: FixedWidthInteger & UnsignedInteger>(_: T.Type, _ what: @autoclosure () -> String) throws(Malformed) -> T {
        let size = MemoryLayout<T>.size
        try need(size, what())
        let value = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: position, as: T.self) }
        position += size
        return bigEndian ? T(bigEndian: value) : T(littleEndian: value)
    }

    mutating func u16(_ what: @autoclosure () -> String) throws(Malformed) -> UInt16 { try number(UInt16.self, what()) }
    mutating func u32(_ what: @autoclosure () -> String) throws(Malformed) -> UInt32 { try number(UInt32.self, what()) }
    mutating func u64(_ what: @autoclosure () -> String) throws(Malformed) -> UInt64 { try number(UInt64.self, what()) }

    /// Skips `count` bytes.
    mutating func skip(_ count: Int, _ what: @autoclosure () -> String) throws(Malformed) {
        try need(count, what())
        position += count
    }

    /// The range of the next `count` bytes (checked), which are then skipped.
    mutating func range(_ count: Int, _ what: @autoclosure () -> String) throws(Malformed) -> Range<Int> {
        try need(count, what())
        defer { position += count }
        return position..<(position + count)
    }

    /// A length given as a `UInt32` or `UInt64`, as an `Int` no larger than the bytes left.
    mutating func length<T: FixedWidthInteger & UnsignedInteger>(_ value: T, _ what: @autoclosure () -> String) throws(Malformed) -> Int {
        guard value <= UInt64(remaining) else {
            throw Malformed("\(what()) claims \(value) bytes, but \(remaining) are left")
        }
        return Int(value)
    }

    /// The next `count` bytes as text (UTF-8, with any bytes that are not replaced).
    mutating func text(_ count: Int, _ what: @autoclosure () -> String) throws(Malformed) -> String {
        let range = try range(count, what())
        return String(decoding: bytes[range], as: UTF8.self)
    }

    /// Skips to the next multiple of `alignment` from ``alignmentOrigin`` (CDR's rule).
    mutating func align(_ alignment: Int, _ what: @autoclosure () -> String) throws(Malformed) {
        let misalignment = (position - alignmentOrigin) % alignment
        if misalignment != 0 { try skip(alignment - misalignment, what()) }
    }
}
