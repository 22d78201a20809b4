package import SystemCalls
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads the lines of a shard file (see ``ShardLine``) one at a time, in chunks of
/// ``chunkBytes``, so that reading a file of any size holds one chunk and one line in memory,
/// never the file.
///
/// A line longer than ``maximumLineBytes`` (far above any line `process --shard` writes) and a
/// last line without its newline (a file cut short) are errors, not lines.
package final class ShardLineReader {
    /// How much is read from the file at a time.
    package static let chunkBytes = 1 << 20
    /// The longest line read: a header is at most 1 MiB (``ShardLine/Header/init(parsing:)``), a
    /// frame's line a few hundred bytes.
    package static let maximumLineBytes = 4 << 20

    /// Why a line cannot be read.
    package enum Failure: Error, Equatable {
        /// The file cannot be opened or read: the call and the system's reason.
        case unreadable(SystemCallError)
        /// Line `line` (from 1) is longer than ``ShardLineReader/maximumLineBytes``.
        case tooLong(line: Int)
        /// The file ends in the middle of line `line`: its last line has no newline.
        case noNewlineAtEnd(line: Int)
    }

    private let descriptor: Int32
    private var buffer: [UInt8] = []
    /// What one `read` fills.
    private var chunk = [UInt8](repeating: 0, count: chunkBytes)
    /// Where the unread part of ``buffer`` starts.
    private var start = 0
    private var atEnd = false
    /// The number of the line ``next()`` returned last, from 1.
    package private(set) var lineNumber = 0

    /// Opens `path` for reading.
    ///
    /// - Throws: ``Failure/unreadable(_:)`` (`open`).
    package init(path: String) throws(Failure) {
        do {
            descriptor = try SystemCall.retrying("open", path: path) { open(path, O_RDONLY | O_CLOEXEC) }
        } catch {
            throw .unreadable(error)
        }
        buffer.reserveCapacity(Self.chunkBytes)
    }

    deinit { close(descriptor) }

    /// The next line, without its newline; `nil` at the end of the file.
    ///
    /// - Throws: ``Failure`` for a read that fails, a line too long, or a last line cut short.
    package func next() throws(Failure) -> String? {
        var searched = start
        while true {
            if let newline = Self.newline(in: buffer, from: searched) {
                lineNumber += 1
                guard newline - start <= Self.maximumLineBytes else { throw .tooLong(line: lineNumber) }
                let line = String(decoding: buffer[start..<newline], as: UTF8.self)
                start = newline + 1
                return line
            }
            searched = buffer.count
            guard buffer.count - start <= Self.maximumLineBytes else { throw .tooLong(line: lineNumber + 1) }
            if atEnd {
                guard start == buffer.count else { throw .noNewlineAtEnd(line: lineNumber + 1) }
                return nil
            }
            // Drop what was returned before reading more, so that the buffer holds one line and a chunk.
            if start > 0 {
                buffer.removeSubrange(0..<start)
                searched -= start
                start = 0
            }
            try fill()
        }
    }

    /// The position of the first newline of `bytes` from `offset` on (with `memchr`: this is the
    /// loop over every byte of the file).
    private static func newline(in bytes: [UInt8], from offset: Int) -> Int? {
        guard offset < bytes.count else { return nil }
        return bytes.withUnsafeBytes { raw in
            memchr(raw.baseAddress! + offset, 0x0A, raw.count - offset).map { UnsafeRawPointer($0) - raw.baseAddress! }
        }
    }

    private func fill() throws(Failure) {
        let descriptor = descriptor
        let result = chunk.withUnsafeMutableBytes { bytes in
            Result { () throws(SystemCallError) in
                try SystemCall.retrying("read") { read(descriptor, bytes.baseAddress!, bytes.count) }
            }
        }
        switch result {
        case .success(let count):
            if count == 0 { atEnd = true }
            chunk.withUnsafeBytes { buffer.append(contentsOf: $0.prefix(count)) }
        case .failure(let error):
            throw .unreadable(error)
        }
    }
}
