public import FileFormats
import Foundation
public import MarkerDetection
public import MarkerShutter
import SystemCalls
#if canImport(Glibc)
import Glibc
#endif

/// One shard of a `process` split over many tasks (`process --shard K/N`): detects the frames of
/// its shard (``FolderProcessor/shardRanges(frames:shards:)``) and writes them as a shard file,
/// `NAME.shard-K-of-N.jsonl` in the output folder, whole or not at all.
///
/// The file holds a header line, one frame line per frame and a trailer line, each a
/// ``ShardLine``. It is written under a hidden temporary name and renamed into place once
/// complete; a run that is stopped, or whose file cannot be written, leaves no shard file, so
/// `merge` finds the shard missing and names the task to run again.
public struct ShardRun: Sendable {
    /// What to process and where.
    public struct Configuration: Sendable {
        /// The whole folder (the shard's frames are cut from it).
        public var folder: FrameFolder
        /// The recording's name: the shard file's first part and the merged file's name.
        public var name: String
        /// Finds the target.
        public var detector: MarkerDetector
        /// Which detections may enable the shutter.
        public var rule: ValidityRule
        /// Hold time, jobs and pixel limit.
        public var options = FolderProcessor.Options()
        /// OpenCV's threads inside one detection; nil: 1 with several jobs, else OpenCV's own. The
        /// count is process-wide: ``ShardRun/applyProcessSettings()`` sets it for the whole process.
        public var openCVThreads: Int?
        /// Which shard of how many.
        public var shard: Shard
        /// The folder the shard file goes into (made if missing).
        public var outputFolder: String
        /// The folder list this folder is on, its path, position and length (`process --folders`).
        public var list: (path: String, index: Int, count: Int)?
        /// The task running this shard, and the job's task count (the shard itself for one folder).
        public var task: Shard

        /// Shard `shard` of `folder`, named after the folder's last path component.
        public init(folder: FrameFolder, detector: MarkerDetector, rule: ValidityRule, shard: Shard, outputFolder: String) {
            self.folder = folder
            self.name = ShardRun.name(of: folder.path)
            self.detector = detector
            self.rule = rule
            self.shard = shard
            self.outputFolder = outputFolder
            self.task = shard
        }
    }

    /// How the run ended.
    public enum Exit: Sendable, Equatable {
        /// The shard file is in place (frames that could not be read are rows of it).
        case complete
        /// Stopped before the end: no shard file.
        case interrupted
        /// The shard file could not be written: no shard file; the message says why.
        case outputFailed(String)
    }

    /// What a run did.
    public struct Result: Sendable, CustomStringConvertible {
        /// The shard's header.
        package let header: ShardLine.Header
        /// The shard file's path.
        public let path: String
        /// Frames, validity, errors and timing of the shard's frames.
        public let summary: ProcessingSummary
        /// Processor time used.
        let cpuSeconds: Double
        /// How the run ended.
        public let exit: Exit

        /// The summary as `process --shard` prints it.
        public var description: String {
            var lines = [
                "\(header.path): shard \(header.shard) of \(header.shards), frames "
                    + (header.first < header.end ? "\(header.first)-\(header.end - 1)" : "none") + " of \(header.frames), \(header.timing)",
                String(format: "  processed in %.2f s (%.1f frames/s, %d job%@, %.2f s of CPU)", summary.elapsed.inSeconds,
                       summary.framesPerSecond, summary.jobs, summary.jobs == 1 ? "" : "s", cpuSeconds),
                "  valid frames: \(summary.validFrames) of \(summary.processedFrames)",
                "  errors: \(summary.errors.count)",
            ]
            for error in summary.errors.prefix(10) { lines.append("    " + FileNameText.escaped("\(error.file): \(error.reason)")) }
            if summary.errors.count > 10 { lines.append("    ... and \(summary.errors.count - 10) more") }
            switch exit {
            case .complete: lines.append("  wrote \(path)")
            case .interrupted: lines.append("  interrupted after \(summary.processedFrames) of \(summary.frames) frames: no shard file written")
            case .outputFailed(let message): lines.append("  \(message): no shard file written")
            }
            return lines.joined(separator: "\n")
        }
    }

    /// The configuration.
    public let configuration: Configuration

    /// Prepares a run.
    public init(_ configuration: Configuration) { self.configuration = configuration }

    /// The shard file's name: `NAME.shard-K-of-N.jsonl`.
    public static func fileName(name: String, shard: Shard) -> String { "\(name).shard-\(shard.index)-of-\(shard.count).jsonl" }

    /// A recording's name from its folder's path: the last path component (of the absolute path
    /// for `.` and the like).
    public static func name(of path: String) -> String {
        let last = (path as NSString).lastPathComponent
        if !last.isEmpty, last != ".", last != "..", last != "/" { return last }
        let resolved = (URL(fileURLWithPath: path).standardizedFileURL.path as NSString).lastPathComponent
        return resolved.isEmpty || resolved == "/" ? "root" : resolved
    }

    /// The header this run writes.
    package var header: ShardLine.Header {
        let configuration = configuration
        let range = FolderProcessor.shardRanges(frames: configuration.folder.frames.count, shards: configuration.shard.count)[configuration.shard.index]
        return ShardLine.Header(
            name: configuration.name, folder: configuration.folder.resolvedPath,
            path: configuration.folder.path, timing: configuration.folder.timing.description,
            frames: configuration.folder.frames.count, frameList: configuration.folder.listDigest,
            options: .init(detector: configuration.detector, rule: configuration.rule, options: configuration.options),
            shard: configuration.shard.index, shards: configuration.shard.count, first: range.lowerBound, end: range.upperBound,
            list: configuration.list?.path, listIndex: configuration.list?.index, listCount: configuration.list?.count,
            task: configuration.task.index, tasks: configuration.task.count)
    }

    /// Sets what the run wants for the whole process: OpenCV's thread count (see
    /// ``Configuration/openCVThreads``), and glibc's malloc keeping freed frames for reuse. Both are
    /// process-wide, so the program that owns the process calls this before
    /// ``run(shouldStop:onFrame:)``; the run itself leaves them alone.
    public func applyProcessSettings() {
        SystemCall.keepFreedMemoryForReuse()
        MarkerDetector.openCVThreadCount = configuration.openCVThreads
            ?? (max(1, min(configuration.options.jobs, InputLimits.cores)) > 1 ? 1 : -1)
    }

    /// Detects the shard's frames and writes its file.
    ///
    /// - Parameters:
    ///   - shouldStop: Checked before each frame (for Ctrl-C); a stopped run writes no file.
    ///   - onFrame: Called after each frame, in order (for progress).
    /// - Throws: ``OutputError`` when the output folder cannot be made or the file cannot be opened.
    public func run(shouldStop: @escaping @Sendable () -> Bool = { false }, onFrame: () -> Void = {}) throws(OutputError) -> Result {
        let configuration = configuration
        let header = header
        let range = header.first..<header.end
        var options = configuration.options
        options.jobs = max(1, min(options.jobs, InputLimits.cores, max(1, range.count)))
        try SafeOutput.prepareFolder(configuration.outputFolder)
        let path = (configuration.outputFolder as NSString).appendingPathComponent(Self.fileName(name: configuration.name, shard: configuration.shard))
        let staged = try SafeOutput.Staged(path)
        var writer = LineWriter(staged: staged, path: path)
        writer.append(header.line)
        let cpuBefore = Self.cpuSeconds()
        let processor = FolderProcessor(folder: configuration.folder, detector: configuration.detector, rule: configuration.rule, options: options)
        let summary = processor.run(frames: range, shouldStop: shouldStop) { frame, outcome in
            switch outcome {
            case .observed(let observation, _): writer.append(FrameRow.shardFrame(observation).text)
            case .unreadable(let reason):
                writer.append(FrameRow.shardFrame(index: frame.index, file: frame.file, time: frame.time, reason: reason).text)
            }
            onFrame()
        }
        let cpu = Self.cpuSeconds() - cpuBefore
        let exit: Exit
        if summary.stoppedAfter != nil {
            staged.abandon()
            exit = .interrupted
        } else {
            writer.append(ShardLine.Trailer(shard: header.shard, rows: range.count, seconds: summary.elapsed.inSeconds, cpuSeconds: cpu,
                                       jobs: summary.jobs).line)
            if let failure = writer.finish() {
                exit = .outputFailed("\(failure)")
            } else {
                exit = .complete
            }
        }
        return Result(header: header, path: path, summary: summary, cpuSeconds: cpu, exit: exit)
    }

    /// User and system time this process has used, in seconds.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}

/// Lines into a staged file, buffered; the file is renamed into place only when every line was
/// written and flushed.
private struct LineWriter {
    let staged: SafeOutput.Staged
    let path: String
    private var buffer: [UInt8] = []
    private var failure: OutputError?

    init(staged: SafeOutput.Staged, path: String) {
        self.staged = staged
        self.path = path
    }

    mutating func append(_ line: String) {
        guard failure == nil else { return }
        buffer.append(contentsOf: line.utf8)
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count >= 1 << 16 { flush() }
    }

    private mutating func flush() {
        guard failure == nil, !buffer.isEmpty else { return }
        do {
            try SafeOutput.writeAll(buffer, to: staged.descriptor, path: path)
        } catch {
            failure = error
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes the rest and renames the file into place (replacing an earlier run's), or removes it.
    mutating func finish() -> OutputError? {
        flush()
        if let failure {
            staged.abandon()
            return failure
        }
        do {
            try staged.commit(replacing: true)
        } catch {
            return error
        }
        return nil
    }
}
