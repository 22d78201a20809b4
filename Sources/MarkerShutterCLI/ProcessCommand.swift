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

            --output writes a new file, or replaces a regular file only with --force; `-` is standard \
            output; a device, FIFO or symbolic link is written through. An output inside the input (a frame, \
            the manifest, the frame folder for --annotate or --select) is refused before any work, and so \
            are --annotate and --select naming one folder.

            Exit status: 0 every frame processed; 2 some frames unreadable (the rest processed) or some \
            --annotate/--select files not written; 1 nothing could be processed, an output refused before \
            any work, or the output could not be written (the rows written before the failure are kept); \
            64 a usage error (an option's value outside its range); 130 stopped by Ctrl-C, keeping the rows of the frames before \
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

    @Option(parsing: .unconditional, help: "Frames per second when the folder has no manifest.jsonl (\(InputLimits.framesPerSecond)).")
    var fps: Double = 30

    @Option(parsing: .unconditional,
            help: "Frames decoded and detected at once (default and most: one per core; 1 to 1024 accepted, more than the cores runs one per core, with a note).")
    var jobs: Int?

    @Option(help: ArgumentHelp("Write the JSON Lines to this file instead of standard output (`-`).", valueName: "file"))
    var output: String?

    @Flag(help: "Replace the --output file if it exists.")
    var force = false

    @Option(help: ArgumentHelp("Write every frame with its detection drawn into this folder.", valueName: "dir"))
    var annotate: String?

    @Option(help: ArgumentHelp("Copy the frames `live --auto` would have captured into this folder.", valueName: "dir"))
    var select: String?

    @Option(name: .customLong("opencv-threads"), parsing: .unconditional,
            help: "Worker threads OpenCV (and libapriltag) use inside one detection (default: 1 with several jobs, else OpenCV's own; \(InputLimits.openCVThreads)).")
    var openCVThreads: Int?

    func validate() throws {
        try InputLimits.framesPerSecond.validate(fps, option: "--fps")
        try InputLimits.jobs.validate(jobs, option: "--jobs")
        try InputLimits.openCVThreads.validate(openCVThreads, option: "--opencv-threads")
    }

    func run() throws {
        let frameFolder: FrameFolder
        do {
            frameFolder = try FrameFolder(path: folder, framesPerSecond: fps)
        } catch {
            throw RuntimeError("nothing to process: \(error)")
        }
        let destination = try checkOutputs(frameFolder)
        let detector = try detection.makeDetector()
        let rule = detection.rule(for: detector.pattern)
        var options = FolderProcessor.Options()
        options.hold = detection.holdDuration
        if let jobs, jobs > InputLimits.cores {
            FileHandle.standardError.write("note: --jobs \(jobs) is more than the \(InputLimits.cores) cores: running \(InputLimits.cores)\n")
        }
        options.jobs = min(jobs ?? options.jobs, InputLimits.cores, frameFolder.frames.count)
        let threads = openCVThreads ?? (options.jobs > 1 ? 1 : -1)
        MarkerDetector.openCVThreadCount = threads

        for folder in [annotate, select].compactMap({ $0 }) {
            do { try AtomicFile.prepareFolder(folder) } catch { throw RuntimeError("\(error)") }
        }
        var sink = try RowSink(destination)
        let annotationNames = OutputNames.assign(frameFolder.frames.map(\.file), pathExtension: "jpg")
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
                let path = (annotationFolder as NSString).appendingPathComponent(annotationNames[frame.index])
                if let failure = Self.annotate(frame, pixels, detection, rule: rule, to: path) {
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
                        let bytes = try frame.readBytes()
                        try AtomicFile.write(bytes, to: (select as NSString).appendingPathComponent(frame.file))
                        selected += 1
                    } catch {
                        selectionFailures.append("\(FileNameText.escaped(frame.file)): \(error)")
                    }
                }
            case .unreadable(let reason):
                sink.write(FrameRecord.errorRow(index: frame.index, file: frame.file, time: frame.time, reason: reason))
            }
            progress.advance()
        }
        let summary = processor.run(shouldStop: { interrupt.isSet }, onDecoded: onDecoded, handle)
        progress.finish()
        let outputFailure = sink.finish()

        report(summary, folder: frameFolder, threads: threads)
        if let select { FileHandle.standardError.write("  selected for calibration: \(selected) frames copied to \(select)\n") }
        let writeFailures = annotationFailures.withLock({ $0 }) + selectionFailures
        for failure in writeFailures {
            FileHandle.standardError.write("  warning: \(failure)\n")
        }
        if let outputFailure { throw RuntimeError(outputFailure) }
        if summary.stoppedAfter != nil { throw ExitCode(130) }
        if summary.errors.count == summary.frames {
            throw RuntimeError("no frame of \(folder) could be read (first: \(FileNameText.escaped(summary.errors[0].file)): \(summary.errors[0].reason))")
        }
        if !summary.errors.isEmpty || !writeFailures.isEmpty { throw ExitCode(2) }
    }

    /// Refuses, before any work, outputs that would replace an input or a file kept without --force.
    private func checkOutputs(_ frameFolder: FrameFolder) throws -> OutputPolicy.Destination {
        do {
            for (option, folder) in [("--annotate", annotate), ("--select", select)] {
                if let folder { try OutputPolicy.checkFolder(folder, option: option, notAnyOf: [self.folder]) }
            }
            if let annotate, let select { try OutputPolicy.checkDistinct(("--annotate", annotate), ("--select", select)) }
            let manifest = (self.folder as NSString).appendingPathComponent(FrameManifest.fileName)
            return try OutputPolicy.destination(for: output ?? "-", replacing: force,
                                                inputs: frameFolder.frames.map(\.path) + [manifest])
        } catch {
            throw RuntimeError("\(error)")
        }
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
        for error in summary.errors.prefix(10) { lines.append("    " + FileNameText.escaped("\(error.file): \(error.reason)")) }
        if summary.errors.count > 10 { lines.append("    ... and \(summary.errors.count - 10) more") }
        if let stopped = summary.stoppedAfter { lines.append("  interrupted: stopped after \(stopped) of \(summary.frames) frames") }
        FileHandle.standardError.write(lines.joined(separator: "\n") + "\n")
    }

    /// Draws `detection` on the frame and writes it to `path`; returns a failure message, if any.
    private static func annotate(_ frame: FrameFolder.Frame, _ pixels: PixelBuffer, _ detection: Detection,
                                 rule: ValidityRule, to path: String) -> String? {
        do {
            let drawn = try Annotation.draw(detection, on: pixels, badge: Annotation.Badge(detection: detection, rule: rule))
            let bytes = try ImageFile.encode(drawn, as: .jpeg(quality: 90))
            try AtomicFile.write(bytes, to: path, replacing: true)
            return nil
        } catch {
            return "annotating \(FileNameText.escaped(frame.file)): \(error)"
        }
    }
}

extension FileHandle {
    /// Writes text, ignoring failures (for diagnostics on standard error).
    func write(_ text: String) {
        try? write(contentsOf: Data(text.utf8))
    }
}
