import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where JSON Lines go: standard output, or a file written under a hidden temporary name and renamed
/// into place when the rows end, so that a file of that name is always complete.
struct RowSink {
    private let path: String?
    private let temporary: String?
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var failure: FileWriteError?

    /// Opens the sink: `path`'s temporary file, or standard output when `path` is nil.
    ///
    /// - Throws: ``FileWriteError`` when the temporary file cannot be created.
    init(path: String?) throws(FileWriteError) {
        self.path = path
        guard let path else {
            temporary = nil
            descriptor = STDOUT_FILENO
            return
        }
        let temporary = AtomicFile.temporaryPath(for: path)
        descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw FileWriteError(path: path, call: "open", errno: errno) }
        self.temporary = temporary
    }

    /// Adds one row (a newline follows it).
    mutating func write(_ row: String) {
        buffer.append(contentsOf: row.utf8)
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count >= 1 << 16 { flush() }
    }

    private mutating func flush() {
        guard !buffer.isEmpty else { return }
        if failure == nil {
            do {
                try AtomicFile.writeAll(buffer, to: descriptor, path: path ?? "standard output")
            } catch {
                failure = error
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes what is left and, for a file, moves it into place (after an interruption too: the file
    /// then holds the rows of the frames before it).
    ///
    /// - Throws: ``FileWriteError`` when a row could not be written or the file not be put in place.
    mutating func finish() throws(FileWriteError) {
        flush()
        guard let path, let temporary else {
            if let failure { throw failure }
            return
        }
        if failure == nil, fsync(descriptor) != 0 { failure = FileWriteError(path: path, call: "fsync", errno: errno) }
        if close(descriptor) != 0, failure == nil { failure = FileWriteError(path: path, call: "close", errno: errno) }
        if failure == nil, rename(temporary, path) != 0 { failure = FileWriteError(path: path, call: "rename", errno: errno) }
        if let failure {
            unlink(temporary)
            throw failure
        }
    }
}
