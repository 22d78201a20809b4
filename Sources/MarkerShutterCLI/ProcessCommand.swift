import ArgumentParser
import Dispatch
import Foundation
import MarkerDetection
import MarkerShutter
import Pixels
import Synchronization

/// `marker-shutter process DIR`: the shutter's timeline over a recorded folder, as JSON Lines.
struct ProcessCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "process",
        abstract: "Detect the target in a folder of frames and replay the shutter's timeline.",
        discussion: """
            Frames are decoded and detected on all cores, and the shutter runs over them in frame order \
            with their own timestamps: those of the folder's manifest.jsonl (written by `live --record`), \
            otherwise --fps over the image files in natural name order (frame2 before frame10).

            Writes one JSON object per frame (to standard output, or --output): index, file, t (seconds), \
            sequence, valid, markers [{id, corners}], corners [{id, xy}], sharpness, detect_ms, \
            shutter ("enabled", "held" or "disabled"), held_index, and for invalid frames why; a frame \
            that cannot be read gets {index, file, t, error} and processing goes on. A summary goes to \
            standard error.

            Exit status: 0 every frame processed; 2 some frames unreadable (the rest processed); \
            1 nothing could be processed; 130 stopped by Ctrl-C, keeping the rows of the frames before \
            the stop (a second Ctrl-C quits at once).

            Examples:
              marker-shutter process Samples/charuco-session
              marker-shutter process recording --output timeline.jsonl --annotate annotated
              marker-shutter process photos --pattern chessboard:9x6 | jq .shutter
              marker-shutter process frames --fps 15 --select picks --jobs 1
            """
    )

    @Argument(help: "The folder of frames (JPEG, PNG, BMP or TIFF files, with or without manifest.jsonl).")
    var folder: String

    @OptionGroup var detection: DetectionOptions

    @Option(help: "Frames per second when the folder has no manifest.jsonl.")
    var fps: Double = 30

    @Option(help: "Frames decoded and detected at once (default: one per core).")
    var jobs: Int?

    @Option(help: ArgumentHelp("Write the JSON Lines to this file instead of standard output.", valueName: "file"))
    var output: String?

    @Option(help: ArgumentHelp("Write every frame with its detection drawn into this folder.", valueName: "dir"))
    var annotate: String?

    @Option(help: ArgumentHelp("Copy the frames `live --auto` would have captured into this folder.", valueName: "dir"))
    var select: String?

    @Option(name: .customLong("opencv-threads"),
            help: "Worker threads OpenCV (and libapriltag) use inside one detection (default: 1 with several jobs, else OpenCV's own).")
    var openCVThreads: Int?

    func validate() throws {
        guard fps > 0, fps.isFinite else { throw ValidationError("--fps must be a positive number, got \(fps)") }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1, got \(jobs)") }
    }

    func run() throws {
        let frameFolder: FrameFolder
        do {
            frameFolder = try FrameFolder(path: folder, framesPerSecond: fps)
        } catch {
            throw RuntimeError("nothing to process: \(error)")
        }
        let detector = try detection.makeDetector()
        let rule = detection.rule(for: detector.pattern)
        var options = FolderProcessor.Options()
        options.hold = detection.holdDuration
        if let jobs { options.jobs = jobs }
        options.jobs = min(options.jobs, frameFolder.frames.count)
        let threads = openCVThreads ?? (options.jobs > 1 ? 1 : -1)
        MarkerDetector.openCVThreadCount = threads

        for folder in [annotate, select].compactMap({ $0 }) {
            do { try AtomicFile.prepareFolder(folder) } catch { throw RuntimeError("\(error)") }
        }
        var sink = try RowSink(path: output)
        let progress = ProgressBar(total: frameFolder.frames.count)
        let interrupt = InterruptFlag()

        var policy = AutoCapturePolicy()
        let annotationFolder = annotate
        let annotationFailures = Mutex<[String]>([])
        var selectionFailures: [String] = []
        var selected = 0
        let processor = FolderProcessor(folder: frameFolder, detector: detector, rule: rule, options: options)
        var onDecoded: (@Sendable (FrameFolder.Frame, PixelBuffer, Detection) -> Void)?
        if let annotationFolder {
            onDecoded = { frame, pixels, detection in
                if let failure = Self.annotate(frame, pixels, detection, rule: rule, into: annotationFolder) {
                    annotationFailures.withLock { $0.append(failure) }
                }
            }
        }
        func handle(_ frame: FrameFolder.Frame, _ outcome: FolderProcessor.Outcome) {
            switch outcome {
            case .observed(let observation, let step):
                sink.write(FrameRecord.row(for: observation, state: step.state))
                if let select, policy.consider(observation, phase: step.state.phase) != nil {
                    do {
                        let bytes = try Data(contentsOf: URL(fileURLWithPath: frame.path))
                        try AtomicFile.write(bytes, to: (select as NSString).appendingPathComponent(frame.file))
                        selected += 1
                    } catch {
                        selectionFailures.append("\(frame.file): \(error)")
                    }
                }
            case .unreadable(let reason):
                sink.write(FrameRecord.errorRow(index: frame.index, file: frame.file, time: frame.time, reason: reason))
            }
            progress.advance()
        }
        let summary = processor.run(shouldStop: { interrupt.isSet }, onDecoded: onDecoded, handle)
        progress.finish()
        try sink.finish(complete: summary.stoppedAfter == nil)

        report(summary, folder: frameFolder, threads: threads)
        if let select { FileHandle.standardError.write("  selected for calibration: \(selected) frames copied to \(select)\n") }
        for failure in annotationFailures.withLock({ $0 }) + selectionFailures {
            FileHandle.standardError.write("  warning: \(failure)\n")
        }
        if summary.stoppedAfter != nil { throw ExitCode(130) }
        if summary.errors.count == summary.frames {
            throw RuntimeError("no frame of \(folder) could be read (first: \(summary.errors[0].file): \(summary.errors[0].reason))")
        }
        if !summary.errors.isEmpty { throw ExitCode(2) }
    }

    private func report(_ summary: ProcessingSummary, folder: FrameFolder, threads: Int) {
        let seconds = summary.elapsed.inSeconds
        let enabled = summary.enabledTime.inSeconds
        var lines = [
            "\(self.folder): \(summary.frames) frames, \(folder.timing)",
            String(format: "  processed in %.2f s (%.1f frames/s, %d job%@, OpenCV threads %@)", seconds,
                   summary.framesPerSecond, summary.jobs, summary.jobs == 1 ? "" : "s",
                   threads > 0 ? "\(threads)" : "default"),
            "  valid frames: \(summary.validFrames) of \(summary.processedFrames)",
            String(format: "  shutter enabled: %.2f s in %d stretch%@", enabled, summary.stretches.count,
                   summary.stretches.count == 1 ? "" : "es")
                + (summary.stretches.isEmpty ? "" : ": " + summary.stretches.map { "\($0.firstFrame)-\($0.lastFrame)" }.joined(separator: ", ")),
            "  errors: \(summary.errors.count)",
        ]
        for error in summary.errors.prefix(10) { lines.append("    \(error.file): \(error.reason)") }
        if summary.errors.count > 10 { lines.append("    ... and \(summary.errors.count - 10) more") }
        if let stopped = summary.stoppedAfter { lines.append("  interrupted: stopped after \(stopped) of \(summary.frames) frames") }
        FileHandle.standardError.write(lines.joined(separator: "\n") + "\n")
    }

    /// Draws `detection` on the frame and writes it into `folder`; returns a failure message, if any.
    private static func annotate(_ frame: FrameFolder.Frame, _ pixels: PixelBuffer, _ detection: Detection,
                                 rule: ValidityRule, into folder: String) -> String? {
        do {
            let drawn = try Annotation.draw(detection, on: pixels, badge: Annotation.Badge(detection: detection, rule: rule))
            let bytes = try ImageFile.encode(drawn, as: .jpeg(quality: 90))
            let name = ((frame.file as NSString).deletingPathExtension as NSString).appendingPathExtension("jpg")!
            try AtomicFile.write(bytes, to: (folder as NSString).appendingPathComponent(name), replacing: true)
            return nil
        } catch {
            return "annotating \(frame.file): \(error)"
        }
    }
}

/// Where the JSON Lines go: standard output, or a file written under a temporary name and renamed
/// when processing ends, so a file of that name is always complete.
struct RowSink {
    private let path: String?
    private let temporary: String?
    private let handle: FileHandle
    private var buffer: [UInt8] = []

    init(path: String?) throws {
        self.path = path
        if let path {
            let folder = (path as NSString).deletingLastPathComponent
            let temporary = (folder.isEmpty ? "" : folder + "/") + ".\((path as NSString).lastPathComponent).\(getpid()).tmp"
            guard FileManager.default.createFile(atPath: temporary, contents: nil),
                  let handle = FileHandle(forWritingAtPath: temporary) else {
                throw RuntimeError("cannot write \(path): \(String(cString: strerror(errno)))")
            }
            self.temporary = temporary
            self.handle = handle
        } else {
            temporary = nil
            handle = .standardOutput
        }
    }

    mutating func write(_ row: String) {
        buffer.append(contentsOf: row.utf8)
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count >= 1 << 16 { flush() }
    }

    mutating func flush() {
        guard !buffer.isEmpty else { return }
        handle.write(Data(buffer))
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes and, for a file, moves it into place (even when interrupted, the rows written so far
    /// are kept: the file then holds the frames before the interruption).
    mutating func finish(complete: Bool) throws {
        flush()
        guard let path, let temporary else { return }
        do {
            try handle.synchronize()
            try handle.close()
        } catch {
            throw RuntimeError("cannot write \(path): \(error)")
        }
        if rename(temporary, path) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw RuntimeError("cannot write \(path): \(reason)")
        }
    }
}

extension FileHandle {
    /// Writes text, ignoring failures (for diagnostics on standard error).
    func write(_ text: String) {
        try? write(contentsOf: Data(text.utf8))
    }
}
