import Foundation
import SystemCalls
#if canImport(Glibc)
import Glibc
#endif

/// Reads a text file of lines (JSON Lines) one line at a time, in chunks, so that a long file is
/// never held whole: only the line being read and one chunk are in memory. A file that is not a
/// regular file (a FIFO, a device), is larger than its limit, or holds a line longer than its limit
/// is refused before that line is kept.
struct TextLineReader: ~Copyable {
    /// Why a file of lines cannot be read.
    enum Failure: Error, Equatable {
        /// The file cannot be opened or read, or is not a regular file: the reason.
        case unreadable(String)
        /// The file has more bytes than the limit (at least `bytes`).
        case tooLarge(bytes: Int)
        /// Line `line` has more bytes than the limit.
        case lineTooLong(line: Int)
        /// Line `line` is not UTF-8 text.
        case notText(line: Int)
    }

    private let descriptor: Int32
    private let byteLimit: Int
    private let lineLimit: Int
    private var chunk: [UInt8] = []
    private var position = 0
    private var line: [UInt8] = []
    private var bytesRead = 0
    private var ended = false
    /// The number of the line last returned, from 1.
    private(set) var lineNumber = 0

    /// Opens `path`.
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - byteLimit: The most bytes the file may have.
    ///   - lineLimit: The most bytes a line may have, without its line break.
    /// - Throws: ``Failure/unreadable(_:)`` or ``Failure/tooLarge(bytes:)``.
    init(path: String, byteLimit: Int, lineLimit: Int) throws(Failure) {
        // Without blocking on a FIFO's writer; the flag goes once the file is known to be regular.
        let opened: Int32
        do {
            opened = try SystemCall.retrying("open", path: path) { open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        } catch {
            throw .unreadable(SystemCallError.explanation(of: error.errno))
        }
        var status = stat()
        guard fstat(opened, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(opened)
            throw .unreadable("not a regular file")
        }
        guard status.st_size <= byteLimit else {
            close(opened)
            throw .tooLarge(bytes: Int(status.st_size))
        }
        _ = fcntl(opened, F_SETFL, fcntl(opened, F_GETFL) & ~O_NONBLOCK)
        descriptor = opened
        self.byteLimit = byteLimit
        self.lineLimit = lineLimit
    }

    deinit { close(descriptor) }

    /// The next line as text, without its line break (a last line without one too); `nil` at the end.
    ///
    /// - Throws: ``Failure`` for a read that fails, a file grown past its limit, a line too long or not UTF-8.
    mutating func next() throws(Failure) -> String? {
        line.removeAll(keepingCapacity: true)
        while true {
            if position == chunk.count {
                if ended { break }
                try refill()
                if position == chunk.count { break }
            }
            if let end = chunk[position...].firstIndex(of: UInt8(ascii: "\n")) {
                try append(chunk[position..<end])
                position = end + 1
                return try text()
            }
            try append(chunk[position...])
            position = chunk.count
        }
        guard !line.isEmpty else { return nil }
        return try text()
    }

    private mutating func append(_ bytes: ArraySlice<UInt8>) throws(Failure) {
        guard line.count + bytes.count <= lineLimit else { throw .lineTooLong(line: lineNumber + 1) }
        line.append(contentsOf: bytes)
    }

    private mutating func text() throws(Failure) -> String {
        lineNumber += 1
        guard let text = String(validating: line, as: UTF8.self) else { throw .notText(line: lineNumber) }
        return text
    }

    private mutating func refill() throws(Failure) {
        let descriptor = descriptor
        let size = 1 << 16
        var failure: SystemCallError?
        chunk = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            do throws(SystemCallError) {
                initialized = try SystemCall.retrying("read") { read(descriptor, buffer.baseAddress, size) }
            } catch {
                failure = error
                initialized = 0
            }
        }
        position = 0
        if let failure { throw .unreadable(SystemCallError.explanation(of: failure.errno)) }
        if chunk.isEmpty { ended = true }
        bytesRead += chunk.count
        // A file that grew since it was opened is still held to its limit.
        if bytesRead > byteLimit { throw .tooLarge(bytes: bytesRead) }
    }
}
