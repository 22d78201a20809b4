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
            if let newline = buffer[searched...].firstIndex(of: UInt8(ascii: "\n")) {
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
                buffer.removeFirst(start)
                searched -= start
                start = 0
            }
            try fill()
        }
    }

    private func fill() throws(Failure) {
        let old = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: Self.chunkBytes))
        let descriptor = descriptor
        let result = buffer.withUnsafeMutableBytes { bytes in
            Result { () throws(SystemCallError) in
                try SystemCall.retrying("read") { read(descriptor, bytes.baseAddress! + old, Self.chunkBytes) }
            }
        }
        let count: Int
        switch result {
        case .success(let read): count = read
        case .failure(let error):
            buffer.removeLast(Self.chunkBytes)
            throw .unreadable(error)
        }
        buffer.removeLast(Self.chunkBytes - count)
        if count == 0 { atEnd = true }
    }
}
