import Foundation
import MarkerShutter

/// A list of recorded folders to process as one job (`process --folders LIST`): a text file with
/// one folder per line; blank lines and lines starting with `#` are skipped, and a relative path is
/// taken from the current folder.
///
/// Each folder is cut into the same number of shards (`--shards-per-folder`, ``shardsPerFolder``),
/// and the folders' shards are dealt out to the job's tasks in turn: shard `s` of folder `f` (from
/// 0) is unit `f * shardsPerFolder + s`, done by task `unit % tasks`. Each folder's shards are
/// named after the folder (``names``), so each gets its own merged file.
public struct FolderList: Sendable {
    /// The list file.
    public let path: String
    /// The largest list read, in bytes (some hundred thousand folders).
    public static let maximumBytes = 16 << 20

    /// The folders, in the list's order.
    public let folders: [String]

    /// Reads a list.
    ///
    /// - Throws: ``FolderListError`` when the file cannot be read, names no folder, or names one
    ///   folder twice.
    public init(path: String) throws(FolderListError) {
        let bytes: Data
        do {
            guard let file = FileHandle(forReadingAtPath: path) else { throw CocoaError(.fileReadNoSuchFile) }
            defer { try? file.close() }
            bytes = try file.read(upToCount: Self.maximumBytes + 1) ?? Data()
        } catch {
            throw .unreadable(path, (error as NSError).localizedFailureReason ?? error.localizedDescription)
        }
        guard bytes.count <= Self.maximumBytes else { throw .tooLarge(path, limit: Self.maximumBytes) }
        var folders: [String] = []
        var lines: [String: Int] = [:]
        for (offset, rawBytes) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            guard let raw = String(validating: rawBytes, as: UTF8.self) else {
                throw .notText(path, line: offset + 1, shown: FileNameText.terminalSafe(FileNameText.text(ofBytes: Array(rawBytes))))
            }
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let resolved = URL(fileURLWithPath: line).standardizedFileURL.resolvingSymlinksInPath().path
            if let first = lines[resolved] { throw .twice(path, line, first, offset + 1) }
            lines[resolved] = offset + 1
            folders.append(line)
        }
        guard !folders.isEmpty else { throw .empty(path) }
        self.path = path
        self.folders = folders
    }

    /// A name for each folder, in order: its last path component, and where two folders share one,
    /// the later ones followed by `-2`, `-3`, ... (the same for every task, as it follows from the
    /// list alone).
    public var names: [String] {
        var taken = Set<String>()
        return folders.map { folder in
            let base = ShardRun.name(of: folder)
            var name = base, number = 1
            while taken.contains(name) {
                number += 1
                name = "\(base)-\(number)"
            }
            taken.insert(name)
            return name
        }
    }

    /// The shards task `task` of `tasks` does: (folder position, shard of the folder) pairs, in order.
    public func work(forTask task: Int, of tasks: Int, shardsPerFolder: Int) -> [(folder: Int, shard: Int)] {
        stride(from: task, to: folders.count * shardsPerFolder, by: tasks).map { ($0 / shardsPerFolder, $0 % shardsPerFolder) }
    }

    /// The task that does shard `shard` of the folder at position `folder`.
    public static func task(ofFolder folder: Int, shard: Int, shardsPerFolder: Int, tasks: Int) -> Int {
        (folder * shardsPerFolder + shard) % tasks
    }
}

/// A folder list that cannot be used.
public enum FolderListError: Error, Equatable, CustomStringConvertible {
    /// The file cannot be read.
    case unreadable(String, String)
    /// Larger than ``FolderList/maximumBytes``.
    case tooLarge(String, limit: Int)
    /// A line that is not UTF-8 (shown with each byte that is not written `\xFF`).
    case notText(String, line: Int, shown: String)
    /// No folder in it.
    case empty(String)
    /// One folder on two lines.
    case twice(String, String, Int, Int)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "\(path): cannot be read: \(reason)"
        case .tooLarge(let path, let limit): "\(path) is larger than the \(limit) bytes a folder list may have"
        case .notText(let path, let line, let shown):
            "\(path) line \(line), \(shown), is not UTF-8 (each byte that is not is shown as \\xFF): "
                + "folders are named as UTF-8 text; list the folder through a symbolic link with a UTF-8 name, or rename it"
        case .empty(let path): "\(path) names no folder (one folder per line; # starts a comment)"
        case .twice(let path, let folder, let first, let second): "\(path) names \(folder) twice, on lines \(first) and \(second)"
        }
    }
}
