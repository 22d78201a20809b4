#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A system call that failed: which call, on what, and the `errno` it left, read right after the
/// call. The one place where an errno becomes words: every error of the package that carries an
/// errno describes it through ``explanation(of:)``.
package struct SystemCallError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The call (`open`, `write`, `VIDIOC_DQBUF`, ...).
    package let call: String
    /// The file or device it was made on, when there is one.
    package let path: String?
    /// The error number.
    package let errno: Int32

    /// Makes an error.
    package init(call: String, path: String? = nil, errno: Int32) {
        self.call = call
        self.path = path
        self.errno = errno
    }

    /// The system's text for the error number (`No space left on device`).
    package var text: String { Self.text(of: errno) }

    /// `/dev/video0: VIDIOC_DQBUF failed: No such device (ENODEV)`, or without the path when there is none.
    package var description: String {
        (path.map { "\($0): " } ?? "") + "\(call) failed: \(Self.explanation(of: errno))"
    }

    /// An error number as messages show it: `No such device (ENODEV)`.
    package static func explanation(of errno: Int32) -> String {
        "\(text(of: errno)) (\(name(of: errno)))"
    }

    /// The system's text for `errno` (`strerror`), or `error N` when it has none.
    package static func text(of errno: Int32) -> String {
        guard let text = strerror(errno) else { return "error \(errno)" }
        return String(cString: text)
    }

    /// The symbolic name of `errno` (`ENODEV`), or `errno N` for one not listed here.
    package static func name(of errno: Int32) -> String { names[errno] ?? "errno \(errno)" }

    private static let names: [Int32: String] = [
        EPERM: "EPERM", ENOENT: "ENOENT", ESRCH: "ESRCH", EINTR: "EINTR", EIO: "EIO", ENXIO: "ENXIO",
        E2BIG: "E2BIG", EBADF: "EBADF", EAGAIN: "EAGAIN", ENOMEM: "ENOMEM", EACCES: "EACCES", EFAULT: "EFAULT",
        EBUSY: "EBUSY", EEXIST: "EEXIST", EXDEV: "EXDEV", ENODEV: "ENODEV", ENOTDIR: "ENOTDIR", EISDIR: "EISDIR",
        EINVAL: "EINVAL", ENFILE: "ENFILE", EMFILE: "EMFILE", ENOTTY: "ENOTTY", EFBIG: "EFBIG", ENOSPC: "ENOSPC",
        ESPIPE: "ESPIPE", EROFS: "EROFS", EMLINK: "EMLINK", EPIPE: "EPIPE", ERANGE: "ERANGE",
        ENAMETOOLONG: "ENAMETOOLONG", ENOSYS: "ENOSYS", ENOTEMPTY: "ENOTEMPTY", ELOOP: "ELOOP", EPROTO: "EPROTO",
        EOVERFLOW: "EOVERFLOW", ENOBUFS: "ENOBUFS", ETIMEDOUT: "ETIMEDOUT", EDQUOT: "EDQUOT",
        EADDRINUSE: "EADDRINUSE", EADDRNOTAVAIL: "EADDRNOTAVAIL", ECONNREFUSED: "ECONNREFUSED", ECONNRESET: "ECONNRESET",
    ]
}
