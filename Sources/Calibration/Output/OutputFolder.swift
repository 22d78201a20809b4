import Foundation
import SystemCalls
#if canImport(Glibc)
import Glibc
#endif

/// A folder of results that appears complete or not at all: files are written into a hidden
/// temporary folder beside it, flushed, and only moved into place by ``commit()`` once every one of
/// them is written. An error before then leaves the destination as it was.
///
/// The destination may not be, or lie inside, the input folder (when there is one).
public final class OutputFolder {
    /// The destination folder.
    public let path: String
    /// The temporary folder the files are written into.
    public let staging: String
    private var files: [String] = []
    private var committed = false

    /// Prepares to write into `path`.
    ///
    /// - Parameters:
    ///   - path: The destination folder; made if missing, its files of the same names replaced.
    ///   - input: The folder the results are made from, which is never written into; `nil` when
    ///     they are made from no folder (detections held in memory).
    /// - Throws: ``CalibrationError/output(path:reason:)`` when `path` is the input folder or inside
    ///   it, is not a folder, or its parent cannot be written.
    public init(path: String, input: String?) throws(CalibrationError) {
        try Self.check(path: path, input: input)
        let destination = Self.resolved(path)
        let parent = (destination as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        } catch {
            throw .output(path: path, reason: "its parent folder cannot be made")
        }
        self.path = path
        staging = (parent as NSString).appendingPathComponent(".\((destination as NSString).lastPathComponent).\(getpid()).tmp")
        try? FileManager.default.removeItem(atPath: staging)
        guard mkdir(staging, 0o755) == 0 else {
            throw .output(path: path, reason: "cannot make \(staging): \(SystemCallError(call: "mkdir", errno: errno))")
        }
    }

    /// Checks, before any work, that `path` may receive results: not inside `input`, and a folder
    /// when it exists.
    ///
    /// - Throws: ``CalibrationError/output(path:reason:)`` saying why not.
    public static func check(path: String, input: String?) throws(CalibrationError) {
        let destination = resolved(path)
        if let input, case let source = resolved(input), destination == source || destination.hasPrefix(source + "/") {
            throw .output(path: path, reason: "it is inside the input folder \(input), which is never written into")
        }
        var status = stat()
        if lstat(path, &status) == 0, (status.st_mode & S_IFMT) != S_IFDIR {
            throw .output(path: path, reason: "it exists and is not a folder")
        }
    }

    deinit {
        if !committed { try? FileManager.default.removeItem(atPath: staging) }
    }

    /// Writes one file (`name` may hold one folder level, as in `undistorted/a.png`), flushed to disk.
    ///
    /// - Throws: ``CalibrationError/output(path:reason:)`` when it cannot be written.
    public func write(_ bytes: [UInt8], to name: String) throws(CalibrationError) {
        let target = (staging as NSString).appendingPathComponent(name)
        let folder = (target as NSString).deletingLastPathComponent
        if folder != staging { try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        do throws(SystemCallError) {
            let descriptor = try SystemCall.retrying("open") { open(target, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
            defer { close(descriptor) }
            try SystemCall.writeAll(bytes, to: descriptor)
            try SystemCall.retrying("fsync") { fsync(descriptor) }
        } catch {
            throw .output(path: (path as NSString).appendingPathComponent(name), reason: error.description)
        }
        files.append(name)
    }

    /// Moves every file into the destination: the whole temporary folder when the destination does
    /// not exist yet, otherwise file by file (after checking that none would replace a folder).
    ///
    /// - Throws: ``CalibrationError/output(path:reason:)`` when a file cannot be moved.
    public func commit() throws(CalibrationError) {
        var status = stat()
        if lstat(path, &status) != 0 {
            guard rename(staging, path) == 0 else {
                throw .output(path: path, reason: SystemCallError(call: "rename", errno: errno).description)
            }
            committed = true
            return
        }
        for name in files {
            let target = (path as NSString).appendingPathComponent(name)
            if lstat(target, &status) == 0, (status.st_mode & S_IFMT) != S_IFREG {
                throw .output(path: target, reason: "it exists and is not a regular file")
            }
        }
        for name in files {
            let target = (path as NSString).appendingPathComponent(name)
            let folder = (target as NSString).deletingLastPathComponent
            if folder != path { try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
            guard rename((staging as NSString).appendingPathComponent(name), target) == 0 else {
                throw .output(path: target, reason: SystemCallError(call: "rename", errno: errno).description)
            }
        }
        committed = true
        try? FileManager.default.removeItem(atPath: staging)
    }

    /// An absolute path with symbolic links resolved as far as the path exists.
    static func resolved(_ path: String) -> String {
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
