#if canImport(Glibc)
import Glibc
#endif
import SystemCalls

/// A recording's file, open for reading at any offset from several threads at once (`pread`).
///
/// Only a regular file is opened: a FIFO, a device, a folder or a socket is refused from its
/// metadata, without reading from it (opened with `O_NONBLOCK`, so a FIFO without a writer does not
/// wait). Every read is checked against the file's size first, so that a length or an offset past
/// the end is a ``BagError/Kind/truncated`` error before anything is allocated for it.
final class BagFile: Sendable {
    /// The path, as the user named it.
    let path: String
    /// The file's size in bytes when it was opened.
    let size: UInt64
    private let descriptor: Int32

    /// Opens `path` for reading.
    ///
    /// - Throws: ``BagError`` (`unreadable`) when it cannot be opened or is not a regular file.
    init(path: String) throws(BagError) {
        let descriptor: Int32
        do {
            descriptor = try SystemCall.retrying("open", path: path) { open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        } catch {
            throw BagError(.unreadable, path: path, "cannot be opened: \(SystemCallError.explanation(of: error.errno))")
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            close(descriptor)
            throw BagError(.unreadable, path: path, "cannot be read: \(SystemCallError.explanation(of: code))")
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw BagError(.unreadable, path: path, "is a \(Self.kind(of: status.st_mode)), not a regular file")
        }
        self.path = path
        self.size = UInt64(max(0, status.st_size))
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// The name of a kind of file that is not regular.
    static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "folder"
        case S_IFIFO: "FIFO"
        case S_IFCHR: "character device"
        case S_IFBLK: "block device"
        case S_IFSOCK: "socket"
        case S_IFLNK: "symbolic link"
        default: "special file"
        }
    }

    /// Whether `count` bytes from `offset` lie inside the file.
    func contains(offset: UInt64, count: UInt64) -> Bool {
        offset <= size && count <= size - offset
    }

    /// Reads exactly `count` bytes from `offset`.
    ///
    /// - Parameters:
    ///   - offset: Where to start.
    ///   - count: How many bytes; checked against the file's size and `limit` before allocating.
    ///   - what: What is being read, for the error ("a chunk", "the footer").
    ///   - limit: The most bytes this read may allocate.
    /// - Throws: ``BagError``: `truncated` when the bytes run past the end of the file, `malformed`
    ///   when `count` is over `limit`, `unreadable` when the read fails.
    func read(at offset: UInt64, count: UInt64, what: @autoclosure () -> String, limit: Int = BagLimits.chunkBytes) throws(BagError) -> [UInt8] {
        guard count <= UInt64(limit) else {
            throw BagError(.malformed, path: path, "\(what()) at offset \(offset) claims \(count) bytes, more than the \(limit) allowed")
        }
        guard contains(offset: offset, count: count) else {
            throw BagError(.truncated, path: path,
                           "truncated: \(what()) at offset \(offset) needs \(count) bytes, but the file ends at \(size)")
        }
        let total = Int(count)
        var bytes = [UInt8](repeating: 0, count: total)
        var done = 0
        while done < total {
            let got = bytes.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress! + done, total - done, off_t(offset) + off_t(done))
            }
            if got < 0 {
                let code = errno
                if code == EINTR { continue }
                throw BagError(.unreadable, path: path, "cannot be read at offset \(offset + UInt64(done)): \(SystemCallError.explanation(of: code))")
            }
            guard got > 0 else {
                throw BagError(.truncated, path: path, "truncated: \(what()) at offset \(offset) ends early (the file shrank while it was read)")
            }
            done += got
        }
        return bytes
    }
}
