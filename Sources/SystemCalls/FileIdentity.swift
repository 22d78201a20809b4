#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What a path names once links are followed (`stat`): a character or block device by its device
/// number (`st_rdev`), so that one camera under `/dev/video0`, `/dev/v4l/by-id/...` or a device
/// node made elsewhere is one; any other file by its file system and inode (`st_dev`, `st_ino`),
/// so that a file under two names, or a link to it, is one.
package struct FileIdentity: Hashable, Sendable {
    private let isDevice: Bool
    private let device: UInt64
    private let inode: UInt64

    /// The identity of what `path` names; `nil` when `stat` fails (nothing there, no permission).
    package init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        let type = status.st_mode & S_IFMT
        if type == S_IFCHR || type == S_IFBLK {
            isDevice = true
            device = UInt64(status.st_rdev)
            inode = 0
        } else {
            isDevice = false
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
        }
    }
}
