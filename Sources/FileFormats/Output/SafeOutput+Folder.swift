import Foundation
import Synchronization
import SystemCalls
#if canImport(Glibc)
import Glibc
#endif

extension SafeOutput {
    /// A folder of results that appears complete or not at all: files are written into a hidden
    /// temporary folder beside it, flushed, and only moved into place by ``commit()`` once every one of
    /// them is written. An error before then leaves the destination as it was.
    ///
    /// Into an existing destination the files are moved one by one, each old file of the same name
    /// first set aside in the temporary folder; when a move fails, the moves made are undone and the
    /// old files put back, so that the destination holds the old set, whole, or the new one. Files of
    /// other names in the destination are left alone.
    ///
    /// The destination may not be, or lie inside, the input folder (when there is one).
    ///
    /// It may be used from several threads: ``abandon()`` (for a signal) waits for a write or a commit
    /// under way, then removes the temporary folder, after which writes and commits are refused.
    public final class Folder: Sendable {
        /// The destination folder.
        public let path: String
        /// The temporary folder the files are written into.
        public let staging: String

        private enum Phase { case open, committed, abandoned, keptAside }

        private struct State {
            var files: [String] = []
            var phase = Phase.open
        }

        private let state = Mutex(State())
        /// Moves a file (`rename`); returns 0 or an errno. Replaced by tests to make a move fail.
        package let move: @Sendable (String, String) -> Int32

        /// Prepares to write into `path`.
        ///
        /// - Parameters:
        ///   - path: The destination folder; made if missing, its files of the same names replaced.
        ///   - input: The folder the results are made from, which is never written into; `nil` when
        ///     they are made from no folder (detections held in memory).
        /// - Throws: ``OutputError/notWritten(path:reason:)`` when `path` is the input folder or inside
        ///   it, is not a folder, or its parent cannot be written.
        public convenience init(path: String, input: String?) throws(OutputError) {
            try self.init(path: path, input: input, move: { rename($0, $1) == 0 ? 0 : errno })
        }

        package init(path: String, input: String?, move: @escaping @Sendable (String, String) -> Int32) throws(OutputError) {
            try Self.check(path: path, input: input)
            let destination = Self.resolved(path)
            let parent = (destination as NSString).deletingLastPathComponent
            do {
                try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
            } catch {
                throw .notWritten(path: path, reason: "its parent folder cannot be made")
            }
            self.path = path
            self.move = move
            staging = (parent as NSString).appendingPathComponent(".\((destination as NSString).lastPathComponent).\(getpid()).tmp")
            try? FileManager.default.removeItem(atPath: staging)
            let staging = staging
            let made = StagedPaths.withLock { registry -> Int32 in
                guard mkdir(staging, 0o755) == 0 else { return errno }
                registry.add(folder: staging)
                return 0
            }
            guard made == 0 else {
                throw .notWritten(path: path, reason: "cannot make \(staging): \(SystemCallError(call: "mkdir", errno: made))")
            }
        }

        /// Checks, before any work, that `path` may receive results: not inside `input`, and a folder
        /// when it exists.
        ///
        /// - Throws: ``OutputError/notWritten(path:reason:)`` saying why not.
        public static func check(path: String, input: String?) throws(OutputError) {
            if let input, lies(resolved(path), inside: resolved(input)) {
                throw .notWritten(path: path, reason: "it is inside the input folder \(input), which is never written into")
            }
            var status = stat()
            if lstat(path, &status) == 0, (status.st_mode & S_IFMT) != S_IFDIR {
                throw .notWritten(path: path, reason: "it exists and is not a folder")
            }
        }

        /// Checks, before any work, that `path` may receive results (see ``check(path:input:)``) and,
        /// unless `replacing`, that it is missing or empty.
        ///
        /// - Throws: ``OutputError/notWritten(path:reason:)``, or
        ///   ``OutputError/folderNotEmpty(_:)`` when it has files and `replacing` is false.
        public static func check(path: String, input: String?, replacing: Bool) throws(OutputError) {
            try check(path: path, input: input)
            if !replacing, let names = try? FileManager.default.contentsOfDirectory(atPath: path), !names.isEmpty {
                throw .folderNotEmpty(path)
            }
        }

        deinit {
            if state.withLock({ $0.phase == .open }) { removeStaging() }
        }

        /// Removes the temporary folder and forgets it, under the lock of ``StagedPaths``.
        private func removeStaging() {
            StagedPaths.withLock { registry in
                StagedPaths.removeTree(staging)
                registry.forget(staging)
            }
        }

        /// Writes one file (`name` may hold one folder level, as in `undistorted/a.png`), flushed to disk.
        ///
        /// - Throws: ``OutputError/notWritten(path:reason:)`` when it cannot be written, or when the
        ///   folder was abandoned or committed.
        public func write(_ bytes: [UInt8], to name: String) throws(OutputError) {
            try state.withLock { (state: inout State) throws(OutputError) in
                guard state.phase == .open else { throw .notWritten(path: path, reason: "the results were \(state.phase == .abandoned ? "abandoned" : "moved already")") }
                let parts = name.split(separator: "/", omittingEmptySubsequences: false)
                guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }) else {
                    throw .notWritten(path: path, reason: "\"\(name)\" is not a file name, or one folder and a file name, inside it")
                }
                let target = (staging as NSString).appendingPathComponent(name)
                let folder = (target as NSString).deletingLastPathComponent
                if folder != staging, mkdir(folder, 0o755) != 0, errno != EEXIST {
                    throw .notWritten(path: (path as NSString).appendingPathComponent(name), reason: SystemCallError(call: "mkdir", errno: errno).description)
                }
                do throws(SystemCallError) {
                    let descriptor = try SystemCall.retrying("open") { open(target, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
                    defer { close(descriptor) }
                    try SystemCall.writeAll(bytes, to: descriptor)
                    try SystemCall.retrying("fsync") { fsync(descriptor) }
                } catch {
                    throw .notWritten(path: (path as NSString).appendingPathComponent(name), reason: error.description)
                }
                if !state.files.contains(name) { state.files.append(name) }
            }
        }

        /// Removes the temporary folder and refuses any later write or commit, after waiting for a
        /// write or commit under way.
        ///
        /// - Returns: Whether the results were abandoned; `false` when they were committed already
        ///   (they are then complete in the destination).
        @discardableResult
        public func abandon() -> Bool {
            state.withLock { state in
                switch state.phase {
                case .committed, .keptAside: return false
                case .abandoned: return true
                case .open:
                    state.phase = .abandoned
                    removeStaging()
                    return true
                }
            }
        }

        /// Moves every file into the destination: the whole temporary folder when the destination does
        /// not exist yet, otherwise file by file, each old file of the same name set aside first and put
        /// back when a later move fails.
        ///
        /// - Throws: ``OutputError/notWritten(path:reason:)`` when a file cannot be moved (the
        ///   destination then holds its old files) or a file of the same name is not a regular file
        ///   (checked before anything moves); ``OutputError/partlyReplaced(path:reason:keptIn:)``
        ///   when, after a failed move, the old files could not all be put back.
        public func commit() throws(OutputError) {
            try state.withLock { (state: inout State) throws(OutputError) in
                guard state.phase == .open else { throw .notWritten(path: path, reason: "the results were \(state.phase == .abandoned ? "abandoned" : "moved already")") }
                // Under the lock of StagedPaths, so that a second signal, which removes the temporary
                // folder and ends the program, waits for the moves and finds the folder either whole or
                // gone (with the old files it holds once they are replaced).
                let files = state.files
                let staging = staging
                do throws(OutputError) {
                    try StagedPaths.withLock { (registry: inout StagedPaths.Registry) throws(OutputError) in
                        do throws(OutputError) {
                            try commitLocked(files: files)
                        } catch {
                            // Old files that could not be put back are in the temporary folder: keep it.
                            if case .partlyReplaced = error { registry.forget(staging) }
                            throw error
                        }
                        StagedPaths.removeTree(staging)
                        registry.forget(staging)
                    }
                } catch {
                    if case .partlyReplaced = error { state.phase = .keptAside }
                    throw error
                }
                state.phase = .committed
            }
        }

        private func commitLocked(files: [String]) throws(OutputError) {
            var status = stat()
            if lstat(path, &status) != 0 {
                let code = move(staging, path)
                guard code == 0 else { throw .notWritten(path: path, reason: SystemCallError(call: "rename", errno: code).description) }
                return
            }
            let folders = Set(files.map { ($0 as NSString).deletingLastPathComponent }.filter { !$0.isEmpty }).sorted()
            for folder in folders {
                let target = (path as NSString).appendingPathComponent(folder)
                if lstat(target, &status) == 0, (status.st_mode & S_IFMT) != S_IFDIR {
                    throw .notWritten(path: target, reason: "it exists and is not a folder")
                }
            }
            for name in files {
                let target = (path as NSString).appendingPathComponent(name)
                if lstat(target, &status) == 0, (status.st_mode & S_IFMT) != S_IFREG {
                    throw .notWritten(path: target, reason: "it exists and is not a regular file")
                }
            }
            let aside = (staging as NSString).appendingPathComponent(".replaced")
            guard mkdir(aside, 0o755) == 0 else {
                throw .notWritten(path: path, reason: SystemCallError(call: "mkdir", errno: errno).description)
            }
            // Each step, to be undone in reverse order when a later one fails.
            enum Step { case madeFolder(String), setAside(String), moved(String) }
            var steps: [Step] = []
            func undo() -> [String] {
                var lost: [String] = []
                for step in steps.reversed() {
                    switch step {
                    case .moved(let name):
                        if move((path as NSString).appendingPathComponent(name), (staging as NSString).appendingPathComponent(name)) != 0 {
                            lost.append(name)
                        }
                    case .setAside(let name):
                        if move((aside as NSString).appendingPathComponent(name), (path as NSString).appendingPathComponent(name)) != 0 {
                            lost.append(name)
                        }
                    case .madeFolder(let folder): rmdir((path as NSString).appendingPathComponent(folder))
                    }
                }
                return lost
            }
            func fail(_ target: String, _ error: SystemCallError) throws(OutputError) -> Never {
                let lost = undo()
                guard lost.isEmpty else {
                    throw .partlyReplaced(path: target, reason: error.description, keptIn: aside)
                }
                throw .notWritten(path: target, reason: error.description)
            }
            for folder in folders {
                let target = (path as NSString).appendingPathComponent(folder)
                if lstat(target, &status) != 0 {
                    guard mkdir(target, 0o755) == 0 else { try fail(target, SystemCallError(call: "mkdir", errno: errno)) }
                    steps.append(.madeFolder(folder))
                }
                if mkdir((aside as NSString).appendingPathComponent(folder), 0o755) != 0, errno != EEXIST {
                    try fail(target, SystemCallError(call: "mkdir", errno: errno))
                }
            }
            for name in files {
                let target = (path as NSString).appendingPathComponent(name)
                if lstat(target, &status) == 0 {
                    let code = move(target, (aside as NSString).appendingPathComponent(name))
                    guard code == 0 else { try fail(target, SystemCallError(call: "rename", errno: code)) }
                    steps.append(.setAside(name))
                }
                let code = move((staging as NSString).appendingPathComponent(name), target)
                guard code == 0 else { try fail(target, SystemCallError(call: "rename", errno: code)) }
                steps.append(.moved(name))
            }
        }

        /// Whether the resolved path `path` is the resolved folder `folder` or lies inside it.
        package static func lies(_ path: String, inside folder: String) -> Bool {
            path == folder || path.hasPrefix(folder == "/" ? "/" : folder + "/")
        }

        /// An absolute path with symbolic links resolved as far as the path exists.
        package static func resolved(_ path: String) -> String {
            let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
            var existing = (absolute as NSString).standardizingPath
            var rest: [String] = []
            while !FileManager.default.fileExists(atPath: existing), existing != "/" {
                rest.insert((existing as NSString).lastPathComponent, at: 0)
                existing = (existing as NSString).deletingLastPathComponent
            }
            let real = URL(fileURLWithPath: existing).resolvingSymlinksInPath().path
            return rest.reduce(real) { ($0 as NSString).appendingPathComponent($1) }
        }
    }
}
