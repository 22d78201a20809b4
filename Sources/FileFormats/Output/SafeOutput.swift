import Foundation
import SystemCalls
#if canImport(Glibc)
import Glibc
#endif

/// Where a command may write, and how, so that a mistake in a path never costs a file and an
/// interrupted write (Ctrl-C, a full disk, a crash) leaves no partial file under a final name.
///
/// - Files are written to a hidden temporary name in the same folder, flushed to the disk, and
///   only then renamed into place (``write(_:to:replacing:)``, ``Staged``).
/// - Before any work, a path the user gave is checked and given a ``Destination``: standard
///   output, a file renamed into place, or a device, FIFO or link written through; never a
///   folder, an input, or an existing file without `--force`.
/// - A folder of results (``Folder``) is written beside the destination and moved into place
///   whole once every file is written.
///
/// Every refusal and failure is an ``OutputError``. The temporary files and folders being
/// written are those of `StagedPaths`, which a second signal removes.
public enum SafeOutput {
    /// The temporary files being written now (those of ``StagedPaths``, the program's one list of
    /// them, which also holds the calibration's temporary folders).
    package static var stagedFiles: Set<String> { StagedPaths.current }

    /// Ends the process at once with `status`, removing every temporary file and folder still being
    /// written: a second Ctrl-C leaves no `.NAME.PID.tmp` behind. The final names keep what was
    /// renamed into place before; a file being renamed right now is either renamed or removed,
    /// never both nor neither.
    public static func exitRemovingStagedFiles(status: Int32) -> Never {
        StagedPaths.exitRemovingAll(status: status)
    }

    /// Writes `bytes` to `path`.
    ///
    /// - Parameters:
    ///   - bytes: The whole contents.
    ///   - path: The final path. With `replacing: false`, an existing file there is an error.
    ///   - replacing: Whether an existing file may be replaced.
    /// - Throws: ``OutputError`` naming the path, the call that failed and the system's reason.
    public static func write(_ bytes: some Collection<UInt8>, to path: String, replacing: Bool = false) throws(OutputError) {
        let staged = try Staged(path)
        do {
            try writeAll(bytes, to: staged.descriptor, path: path)
        } catch {
            staged.abandon()
            throw error
        }
        try staged.commit(replacing: replacing)
    }

    /// A file being written under its hidden temporary name: ``commit(replacing:)`` flushes it and
    /// renames it into place, ``abandon()`` removes it. One of them must end it.
    package struct Staged {
        /// The final path.
        package let path: String
        /// The temporary file, open for writing.
        package let descriptor: Int32
        private let temporary: String

        /// Creates (or empties) the temporary file for `path`.
        ///
        /// - Throws: ``OutputError`` when it cannot be opened.
        package init(_ path: String) throws(OutputError) {
            let temporary = SafeOutput.temporaryPath(for: path)
            let opened = StagedPaths.withLock { registry -> Result<Int32, SystemCallError> in
                do throws(SystemCallError) {
                    let descriptor = try SystemCall.retrying("open") {
                        open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
                    }
                    registry.add(file: temporary)
                    return .success(descriptor)
                } catch {
                    return .failure(error)
                }
            }
            switch opened {
            case .success(let opened): descriptor = opened
            case .failure(let error): throw OutputError(path: path, error)
            }
            self.path = path
            self.temporary = temporary
        }

        /// Flushes, closes and renames the file to ``path``.
        ///
        /// - Parameters:
        ///   - replacing: Whether an existing file at ``path`` may be replaced.
        ///   - keepingUnflushed: Whether the file is renamed into place even when the flush or the
        ///     close failed (rows already written are worth more than none); else it is removed.
        /// - Throws: ``OutputError`` naming the first call that failed; the file is in place
        ///   unless that call is `rename`, or the flush or close without `keepingUnflushed`.
        package func commit(replacing: Bool = true, keepingUnflushed: Bool = false) throws(OutputError) {
            var failure: OutputError?
            do throws(SystemCallError) {
                try SystemCall.retrying("fsync") { fsync(descriptor) }
            } catch {
                failure = OutputError(path: path, error)
            }
            // No retry of close: the descriptor is released whatever it reports.
            if close(descriptor) != 0, failure == nil { failure = OutputError(path: path, call: "close", errno: errno) }
            if failure != nil, !keepingUnflushed {
                remove()
                throw failure!
            }
            if !replacing, access(path, F_OK) == 0 {
                remove()
                throw OutputError(path: path, call: "rename", errno: EEXIST)
            }
            let renameFailure = StagedPaths.withLock { registry -> OutputError? in
                guard rename(temporary, path) == 0 else {
                    let renameFailure = OutputError(path: path, call: "rename", errno: errno)
                    unlink(temporary)
                    registry.forget(temporary)
                    return renameFailure
                }
                registry.forget(temporary)
                return nil
            }
            if let renameFailure { throw renameFailure }
            if let failure { throw failure }
        }

        /// Closes and removes the temporary file; nothing reaches ``path``.
        package func abandon() {
            close(descriptor)
            remove()
        }

        private func remove() {
            StagedPaths.withLock { registry in
                unlink(temporary)
                registry.forget(temporary)
            }
        }
    }

    /// Opens `path` to write into it where it is: a device, a FIFO or a link is written through,
    /// never replaced. A FIFO's open waits for a reader; a signal that interrupts it is retried.
    ///
    /// - Parameter appending: Whether writes go after what the file holds, or replace it.
    /// - Throws: ``OutputError`` (`open`).
    package static func openInPlace(_ path: String, appending: Bool = false) throws(OutputError) -> Int32 {
        let flags = O_WRONLY | O_CREAT | O_NOCTTY | O_CLOEXEC | (appending ? O_APPEND : O_TRUNC)
        do {
            return try SystemCall.retrying("open") { open(path, flags, 0o644) }
        } catch {
            throw OutputError(path: path, error)
        }
    }

    /// The hidden name a file is written under before it is renamed to `path`: `.NAME.PID.tmp` in the same folder.
    package static func temporaryPath(for path: String) -> String {
        let (folder, name) = PathParts.split(path)
        return (folder.isEmpty ? "" : folder == "/" ? "/" : folder + "/") + ".\(name).\(getpid()).tmp"
    }

    /// Writes all of `bytes` to an open descriptor, retrying when interrupted.
    ///
    /// - Throws: ``OutputError`` for `path` when a write fails.
    public static func writeAll(_ bytes: some Collection<UInt8>, to descriptor: Int32, path: String) throws(OutputError) {
        do {
            try SystemCall.writeAll(bytes, to: descriptor)
        } catch {
            throw OutputError(path: path, error)
        }
    }

    /// Makes a folder (and its parents) and checks that files can be created in it.
    ///
    /// - Throws: ``OutputError`` when the folder cannot be made or written to.
    public static func prepareFolder(_ path: String) throws(OutputError) {
        try makeFolder(path)
        guard access(path, W_OK | X_OK) == 0 else { throw OutputError(path: path, call: "access", errno: errno) }
    }

    /// Makes a folder for a recording as ``prepareFolder(_:)`` does and checks that it holds no
    /// files yet (hidden ones aside), so that two recordings never mix.
    ///
    /// - Throws: ``OutputError`` when the folder cannot be made or written to, or holds files
    ///   (`ENOTEMPTY`).
    package static func prepareEmptyFolder(_ path: String) throws(OutputError) {
        try prepareFolder(path)
        let existing = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { !$0.hasPrefix(".") }
        guard existing.isEmpty else { throw OutputError(path: path, call: "record into a non-empty folder", errno: ENOTEMPTY) }
    }

    private static func makeFolder(_ path: String) throws(OutputError) {
        var status = stat()
        if stat(path, &status) == 0 {
            guard (status.st_mode & S_IFMT) == S_IFDIR else { throw OutputError(path: path, call: "mkdir", errno: ENOTDIR) }
            return
        }
        let parent = PathParts.folder(of: path)
        if !parent.isEmpty, parent != path { try makeFolder(parent) }
        if mkdir(path, 0o755) != 0, errno != EEXIST { throw OutputError(path: path, call: "mkdir", errno: errno) }
    }
}
