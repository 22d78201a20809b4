import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The temporary files and folders results are written into before they are renamed into place,
/// one list for the whole program, so that a second Ctrl-C, which ends the program at once, can
/// remove every one of them: ``exitRemovingAll(status:)``.
///
/// A path is added under the lock before it is created and forgotten under the lock once it is
/// renamed or removed; a rename that must not be cut short by the exit (moving results into place)
/// is made under the lock too, so that the exit finds each path either still temporary (and removes
/// it) or in place (and leaves it), never half of each.
package enum StagedPaths {
    /// The paths being written now, as the lock hands them out.
    package struct Registry: Sendable {
        /// Every path, each with whether it is a folder.
        package private(set) var paths: [String: Bool] = [:]

        /// Adds a temporary file.
        package mutating func add(file path: String) { paths[path] = false }

        /// Adds a temporary folder: the exit removes it with everything in it.
        package mutating func add(folder path: String) { paths[path] = true }

        /// Forgets a path that was renamed or removed.
        package mutating func forget(_ path: String) { paths[path] = nil }
    }

    private static let registry = Mutex(Registry())

    /// The paths being written now.
    package static var current: Set<String> { registry.withLock { Set($0.paths.keys) } }

    /// Runs `body` with the registry locked: an exit waits until it returns.
    package static func withLock<Result: Sendable, Failure: Error>(
        _ body: (inout Registry) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try registry.withLock { (registry: inout Registry) throws(Failure) -> Result in try body(&registry) }
    }

    /// Ends the process at once with `status`, removing every temporary file and folder still being
    /// written (after waiting for a rename made under the lock). Nothing is added once it starts.
    package static func exitRemovingAll(status: Int32) -> Never {
        registry.withLock { registry -> Never in
            for (path, isFolder) in registry.paths {
                if isFolder { removeTree(path) } else { unlink(path) }
            }
            _exit(status)
        }
    }

    /// Removes a folder and everything in it, with plain system calls (the program is about to
    /// end). A file another thread makes in it meanwhile is removed on the next pass; the passes
    /// stop once the folder is gone, or after 100 (the folder is then left: the exit cannot wait).
    package static func removeTree(_ path: String) {
        removeTree(bytes: Array(path.utf8))
    }

    /// ``removeTree(_:)`` for a path as bytes (without the terminating zero): names that are not
    /// UTF-8 are removed too.
    private static func removeTree(bytes path: [UInt8]) {
        for _ in 0..<100 {
            removeContents(of: path)
            if withPath(path, { rmdir($0) }) == 0 || errno == ENOENT || errno == ENOTDIR { return }
        }
    }

    private static func removeContents(of path: [UInt8]) {
        guard let folder = withPath(path, { opendir($0) }) else { return }
        defer { closedir(folder) }
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix(while: { $0 != 0 })) }
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            let child = path + [0x2F] + name
            var status = stat()
            guard withPath(child, { lstat($0, &status) }) == 0 else { continue }
            if (status.st_mode & S_IFMT) == S_IFDIR {
                removeTree(bytes: child)
            } else {
                _ = withPath(child, { unlink($0) })
            }
        }
    }

    private static func withPath<Result>(_ path: [UInt8], _ call: (UnsafePointer<CChar>) -> Result) -> Result {
        (path + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { call($0.baseAddress!) }
        }
    }
}
