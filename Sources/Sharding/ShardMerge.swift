package import FileFormats
import SystemCalls
import Foundation
#if canImport(Glibc)
import Glibc
#endif
public import MarkerShutter

/// Puts the shard files of `process --shard` back together (`marker-shutter merge`): checks that
/// they are one folder's, made with one set of options, none missing, doubled or cut short, and
/// replays the shutter over their frames in order, with the code `process` uses
/// (``ShutterTimeline``, ``FrameRow``), so the rows and summary are those `process` gives on one
/// machine (timing fields such as `detect_ms` aside, which are each frame's own).
///
/// Nothing is written unless every shard checks out.
public enum ShardMerge {
    /// The shard files of one recording, in shard order.
    public struct Recording: Sendable {
        /// The header of its first shard.
        package let header: ShardLine.Header
        /// The shard files, shard 0 first.
        public let files: [String]
    }

    /// A recording merged.
    public struct Merged: Sendable, CustomStringConvertible {
        /// The recording.
        package let header: ShardLine.Header
        /// Frames, validity, shutter stretches and errors, as `process` counts them.
        public let summary: ProcessingSummary
        /// The trailers of the shards, in order (what each cost).
        let trailers: [ShardLine.Trailer]
        /// How long the merge took.
        public let elapsed: Duration

        /// The summary as `merge` prints it: `process`'s, with the shards' cost where `process`
        /// says how long it took.
        public var description: String {
            let seconds = trailers.reduce(0) { $0 + $1.seconds }, cpu = trailers.reduce(0) { $0 + $1.cpuSeconds }
            return ([
                "\(header.path): \(summary.frames) frames, \(header.timing)",
                String(format: "  processed in %d shard%@ (%.2f s, %.2f s of CPU, summed over them), merged in %.3f s",
                       trailers.count, trailers.count == 1 ? "" : "s", seconds, cpu, elapsed.inSeconds),
            ] + summary.timelineLines).joined(separator: "\n")
        }
    }

    /// The shard files `arguments` name: files as given, and for a folder the files in it named as
    /// `process --shard` names them, `NAME.shard-K-of-N.jsonl` (hidden ones, such as a task's
    /// unfinished file, left out), in name order.
    ///
    /// - Throws: ``ShardMergeError`` for a path that does not exist or a folder with no such file.
    public static func files(in arguments: [String]) throws(ShardMergeError) -> [String] {
        var files: [String] = []
        for argument in arguments {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: argument, isDirectory: &isFolder) else { throw .noSuchPath(argument) }
            guard isFolder.boolValue else {
                try checkRegular(argument)
                files.append(argument)
                continue
            }
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: argument)) ?? [])
                .filter { !$0.hasPrefix(".") && $0.range(of: #"\.shard-[0-9]+-of-[0-9]+\.jsonl$"#, options: .regularExpression) != nil }
                .sorted { NaturalOrder.areInIncreasingOrder($0, $1) }
            guard !names.isEmpty else { throw .noShardFiles(argument) }
            for name in names {
                let path = (argument as NSString).appendingPathComponent(name)
                try checkRegular(path)
                files.append(path)
            }
        }
        return files
    }

    /// Refuses what is no regular file (followed through links): a FIFO would be read for ever, a
    /// device without end.
    private static func checkRegular(_ path: String) throws(ShardMergeError) {
        var status = stat()
        guard stat(path, &status) == 0 else { throw .noSuchPath(path) }
        let kind: String? = switch status.st_mode & S_IFMT {
        case S_IFREG: nil
        case S_IFIFO: "a FIFO"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
        if let kind { throw .notAFile(path, kind) }
    }

    /// Groups shard files by recording and checks each group: one set of options and one count,
    /// no shard twice, none missing, each with the frames its place gives it; for a folder list,
    /// no folder of the list without shards.
    ///
    /// - Parameters:
    ///   - files: Shard files (see ``files(in:)``).
    ///   - oneRecording: Whether the files must be one folder's: the files of any other folder
    ///     (the fewer) are then refused as foreign.
    /// - Returns: The recordings, in the order their first files came.
    /// - Throws: ``ShardMergeError`` naming the files or shards at fault.
    public static func recordings(_ files: [String], oneRecording: Bool = false) throws(ShardMergeError) -> [Recording] {
        var order: [String] = []
        var groups: [String: [(path: String, header: ShardLine.Header)]] = [:]
        var seen = Set<String>()
        for file in files {
            let resolved = URL(fileURLWithPath: file).standardizedFileURL.resolvingSymlinksInPath().path
            guard seen.insert(resolved).inserted else { throw .doubledFile(file) }
            let header = try readHeader(file)
            if groups[header.recording] == nil { order.append(header.recording) }
            groups[header.recording, default: []].append((file, header))
        }
        if oneRecording, order.count > 1 {
            let main = order.max { groups[$0]!.count < groups[$1]!.count }!
            let foreign = order.filter { $0 != main }.flatMap { groups[$0]! }
            throw .foreign(foreign.map(\.path), of: foreign[0].header.folder, expected: groups[main]![0].header.folder)
        }
        var recordings: [Recording] = []
        for key in order {
            let group = groups[key]!
            let first = group[0]
            var byShard: [Int: String] = [:]
            for (path, header) in group {
                if let difference = header.options.difference(from: first.header.options) {
                    throw .otherOptions(path, first.path, difference)
                }
                guard header.shards == first.header.shards else {
                    throw .otherCount(path, header.shards, first.path, first.header.shards)
                }
                let expected = FolderProcessor.shardRanges(frames: header.frames, shards: header.shards)
                guard header.shard >= 0, header.shard < header.shards, header.first == expected[header.shard].lowerBound,
                      header.end == expected[header.shard].upperBound else {
                    throw .damaged(path, line: 1, "its frames \(header.first)..<\(header.end) are not those of shard \(header.shard) of \(header.shards)")
                }
                if let other = byShard[header.shard] { throw .doubled(shard: header.shard, of: header.shards, other, path) }
                byShard[header.shard] = path
            }
            let missing = (0..<first.header.shards).filter { byShard[$0] == nil }
            if !missing.isEmpty {
                let ranges = FolderProcessor.shardRanges(frames: first.header.frames, shards: first.header.shards)
                throw .missing(recording: first.header.path, shards: missing.map { shard in
                    MissingShard(shard: shard, frames: ranges[shard], task: task(of: shard, in: first.header))
                }, of: first.header.shards, tasks: first.header.tasks)
            }
            recordings.append(Recording(header: first.header, files: (0..<first.header.shards).map { byShard[$0]! }))
        }
        try checkLists(recordings)
        return recordings
    }

    /// The task that writes shard `shard` of the recording `header` is from: the shard itself for
    /// one folder; for a folder list, the task that the folder's shard fell to.
    static func task(of shard: Int, in header: ShardLine.Header) -> Int {
        guard let index = header.listIndex else { return shard }
        return FolderList.task(ofFolder: index, shard: shard, shardsPerFolder: header.shards, tasks: header.tasks)
    }

    /// For recordings of a folder list: every folder of the list has shards.
    private static func checkLists(_ recordings: [Recording]) throws(ShardMergeError) {
        var lists: [String: (count: Int, tasks: Int, shards: Int, present: Set<Int>)] = [:]
        for recording in recordings {
            guard let list = recording.header.list, let index = recording.header.listIndex, let count = recording.header.listCount else { continue }
            lists[list, default: (count, recording.header.tasks, recording.header.shards, [])].present.insert(index)
        }
        for (list, entry) in lists.sorted(by: { $0.key < $1.key }) {
            let absent = (0..<entry.count).filter { !entry.present.contains($0) }
            guard !absent.isEmpty else { continue }
            let folders = (try? FolderList(path: list).folders) ?? []
            throw .missingFolders(list: list, absent.map { index in
                MissingFolder(position: index, folder: index < folders.count ? folders[index] : nil,
                              tasks: (0..<entry.shards).map { FolderList.task(ofFolder: index, shard: $0, shardsPerFolder: entry.shards, tasks: entry.tasks) })
            }, tasks: entry.tasks)
        }
    }

    /// Reads every shard of `recording` line by line, checks each line, replays the shutter over
    /// them, and writes the rows into `writer` as they come: memory holds a chunk of a shard and a
    /// line, whatever the shards' size.
    ///
    /// - Parameters:
    ///   - recording: The shards, checked by ``recordings(_:oneRecording:)``.
    ///   - writer: Where the rows go, each followed by a newline, as `process` writes them; `nil`
    ///     to check the shards only. It is neither committed nor abandoned here: on an error, the
    ///     caller abandons it.
    /// - Throws: ``ShardMergeError`` naming the file and line at fault: a file that cannot be read,
    ///   is cut short (no trailer, fewer frames, a last line without its newline) or holds a line
    ///   that is not the frame expected there; ``ShardMergeError/unwritable(_:)`` for a write that failed.
    package static func merge(_ recording: Recording, into writer: SafeOutput.Writer? = nil) throws(ShardMergeError) -> Merged {
        let clock = ContinuousClock()
        let start = clock.now
        var timeline = ShutterTimeline<Int>(hold: recording.header.options.hold)
        var summary = ProcessingSummary(frames: recording.header.frames)
        var trailers: [ShardLine.Trailer] = []
        var previous: Int64?
        func write(_ row: ProcessRow) throws(ShardMergeError) {
            guard let writer else { return }
            do {
                try writer.write(row.text.utf8)
                try writer.write(CollectionOfOne(UInt8(ascii: "\n")))
            } catch {
                throw .unwritable("\(error)")
            }
        }
        for path in recording.files {
            let reader: ShardLineReader
            do {
                reader = try ShardLineReader(path: path)
            } catch {
                throw failure(error, path)
            }
            func nextLine() throws(ShardMergeError) -> String? {
                do {
                    return try reader.next()
                } catch {
                    throw failure(error, path)
                }
            }
            let header = try decodeHeader(Substring(try nextLine() ?? ""), path: path)
            var expected = header.first
            var trailer: ShardLine.Trailer?
            while let line = try nextLine() {
                let number = reader.lineNumber
                if trailer != nil { throw .damaged(path, line: number, "a line after the shard's last") }
                let frame: ShardLine.Frame
                switch Result(catching: { () throws(ShardLineError) in try ShardLine(parsing: line) }) {
                case .success(.frame(let parsed)):
                    frame = parsed
                case .success(.trailer(let parsed)) where parsed.shard == header.shard:
                    trailer = parsed
                    continue
                case .success:
                    throw .damaged(path, line: number, "not the end of shard \(header.shard)")
                case .failure(let error):
                    throw .damaged(path, line: number, line.hasPrefix("{\"index\":") ? error.description : "not the end of shard \(header.shard)")
                }
                guard expected < header.end else { throw .damaged(path, line: number, "more frames than the shard's \(header.end - header.first)") }
                guard frame.index == expected else { throw .damaged(path, line: number, "frame \(frame.index) where frame \(expected) belongs") }
                if let previous, frame.nanoseconds < previous {
                    throw .damaged(path, line: number, "frame \(expected)'s time goes back")
                }
                previous = frame.nanoseconds
                let time = FrameTime(.nanoseconds(frame.nanoseconds))
                switch frame.row.outcome {
                case .detected(let detected):
                    let step = timeline.observe(index: expected, snapshot: expected, isValid: detected.valid, at: time)
                    if detected.valid { summary.validFrames += 1 }
                    try write(frame.row(shutter: step.state.phase.description, heldIndex: step.state.heldIndex))
                case .unreadable(let reason):
                    summary.errors.append(ProcessingSummary.FrameError(index: expected, file: frame.row.file ?? "", reason: reason))
                    try write(frame.row)
                }
                expected += 1
            }
            guard let trailer else {
                throw .truncated(path, "it ends after frame \(expected - 1) without the shard's last line (frames \(header.first)-\(header.end - 1))")
            }
            guard expected == header.end, trailer.rows == header.end - header.first else {
                throw .truncated(path, "\(expected - header.first) of its \(header.end - header.first) frames")
            }
            trailers.append(trailer)
        }
        summary.stretches = timeline.stretches
        summary.elapsed = clock.now - start
        return Merged(header: recording.header, summary: summary, trailers: trailers, elapsed: clock.now - start)
    }

    /// A shard file's line that cannot be read, as a merge error for `path`.
    private static func failure(_ failure: ShardLineReader.Failure, _ path: String) -> ShardMergeError {
        switch failure {
        case .unreadable(let error): .unreadable(path, "cannot be read (\(error.call) failed: \(SystemCallError.explanation(of: error.errno)))")
        case .tooLong(let line): .damaged(path, line: line, "a line longer than \(ShardLineReader.maximumLineBytes >> 20) MiB, which no shard holds")
        case .noNewlineAtEnd: .truncated(path, "its last line has no newline")
        }
    }

    /// A shard file's header, read from its first line.
    static func readHeader(_ path: String) throws(ShardMergeError) -> ShardLine.Header {
        let line: String?
        do {
            line = try ShardLineReader(path: path).next()
        } catch .unreadable(let error) {
            throw failure(.unreadable(error), path)
        } catch {
            // A first line without its end, or longer than any header: no shard's.
            throw .notAShard(path)
        }
        return try decodeHeader(Substring(line ?? ""), path: path)
    }

    private static func decodeHeader(_ line: Substring, path: String) throws(ShardMergeError) -> ShardLine.Header {
        do {
            return try ShardLine.Header(parsing: line)
        } catch .notAShard {
            throw .notAShard(path)
        } catch .otherFormat(let format) {
            throw .otherFormat(path, format)
        } catch {
            throw .damaged(path, line: 1, error.description)
        }
    }
}

/// A shard `merge` did not find.
public struct MissingShard: Sendable, Equatable {
    /// The shard.
    public let shard: Int
    /// Its frames.
    public let frames: Range<Int>
    /// The task that writes it.
    public let task: Int

    /// Shard `shard`, holding `frames`, written by task `task`.
    public init(shard: Int, frames: Range<Int>, task: Int) {
        self.shard = shard
        self.frames = frames
        self.task = task
    }
}

/// A folder of a folder list of which `merge` found no shard.
public struct MissingFolder: Sendable, Equatable {
    /// Its position in the list, from 0.
    public let position: Int
    /// Its path, when the list could still be read.
    public let folder: String?
    /// The tasks that write its shards.
    public let tasks: [Int]
}

/// Why shard files cannot be merged; nothing is written.
public enum ShardMergeError: Error, Equatable, CustomStringConvertible {
    /// A path given does not exist.
    case noSuchPath(String)
    /// A folder given holds no `.jsonl` file.
    case noShardFiles(String)
    /// One file given twice.
    case doubledFile(String)
    /// A file cannot be read.
    case unreadable(String, String)
    /// A path given, or named like a shard in a folder given, is a FIFO, a device or a socket.
    case notAFile(String, String)
    /// A file's first line is no shard header.
    case notAShard(String)
    /// A shard file of a format this version does not read.
    case otherFormat(String, Int)
    /// A shard made with other options than another of its folder: the file, the other, what differs.
    case otherOptions(String, String, String)
    /// A shard of a folder cut another number of ways.
    case otherCount(String, Int, String, Int)
    /// Two files hold one shard.
    case doubled(shard: Int, of: Int, String, String)
    /// Shards of a recording are missing.
    case missing(recording: String, shards: [MissingShard], of: Int, tasks: Int)
    /// Folders of a folder list have no shards at all.
    case missingFolders(list: String, [MissingFolder], tasks: Int)
    /// A file ends before its shard does.
    case truncated(String, String)
    /// A line is not what belongs there.
    case damaged(String, line: Int, String)
    /// The merged rows could not be written.
    case unwritable(String)
    /// Shards of another folder (or frame list) among those of the one being merged.
    case foreign([String], of: String, expected: String)

    public var description: String {
        switch self {
        case .noSuchPath(let path): return "\(path): no such file or folder"
        case .noShardFiles(let path): return "\(path) holds no shard files (NAME.shard-K-of-N.jsonl, written by process --shard)"
        case .doubledFile(let path): return "\(path) is given twice"
        case .unreadable(let path, let reason): return "\(path) \(reason): run its task again"
        case .notAFile(let path, let kind): return "\(path) is \(kind), not a shard file: give shard files or folders of them"
        case .notAShard(let path): return "\(path) is not a shard file (its first line is no header of process --shard)"
        case .otherFormat(let path, let format): return "\(path) is a shard file of format \(format); this marker-shutter reads format \(ShardLine.formatVersion)"
        case .otherOptions(let path, let other, let difference):
            return "\(path) was made with other options than \(other) (\(difference)): shards of one folder need one set of options"
        case .otherCount(let path, let count, let other, let otherCount):
            return "\(path) is a shard of \(count) but \(other) of \(otherCount): a folder's shards come from one job"
        case .doubled(let shard, let count, let first, let second):
            return "shard \(shard) of \(count) is there twice: \(first) and \(second); keep one"
        case .missing(let recording, let shards, let count, let tasks):
            let list = shards.map { "\($0.shard) (frames " + ($0.frames.isEmpty ? "none" : "\($0.frames.lowerBound)-\($0.frames.upperBound - 1)") + ")" }
            let taskList = Array(Set(shards.map(\.task))).sorted().map(String.init).joined(separator: ",")
            return "\(recording): shard\(shards.count == 1 ? "" : "s") \(list.joined(separator: ", ")) of \(count) "
                + "\(shards.count == 1 ? "is" : "are") missing: run task\(shards.count == 1 ? "" : "s") \(taskList) again "
                + "(sbatch --array=\(taskList) with \(Shard.countVariable)=\(tasks))"
        case .missingFolders(let list, let folders, let tasks):
            let named = folders.map { "\($0.folder ?? "folder \($0.position + 1)") (line \($0.position + 1) of the list)" }
            let taskList = Array(Set(folders.flatMap(\.tasks))).sorted().map(String.init).joined(separator: ",")
            return "\(list): no shards of \(named.joined(separator: ", ")): run task\(taskList.contains(",") ? "s" : "") \(taskList) again "
                + "(sbatch --array=\(taskList) with \(Shard.countVariable)=\(tasks))"
        case .truncated(let path, let detail): return "\(path) is cut short (\(detail)): run its task again"
        case .damaged(let path, let line, let detail): return "\(path), line \(line): \(detail): run its task again"
        case .unwritable(let reason): return reason
        case .foreign(let files, let folder, let expected):
            return "\(files.joined(separator: ", ")) \(files.count == 1 ? "is a shard" : "are shards") of \(folder), not of \(expected) "
                + "like the others (another folder, or its frames changed): remove \(files.count == 1 ? "it" : "them"), "
                + "or give a folder as --output for one timeline per folder"
        }
    }
}
