package import FileFormats
import Foundation
package import MarkerDetection
import Pixels
import Synchronization
import SystemCalls

/// One `process` run over a recorded folder: the rows of every frame as JSON Lines (to a file or
/// standard output), each detection drawn into an annotation folder, the frames automatic pictures
/// would have taken copied into a selection folder, and the outcome that decides the exit status.
package struct ProcessRun: Sendable {
    /// What to process and what to write.
    package struct Configuration: Sendable {
        /// The frames.
        package var folder: FrameFolder
        /// Finds the target.
        package var detector: MarkerDetector
        /// Which detections may enable the shutter.
        package var rule: ValidityRule
        /// Hold time, jobs and pixel limit (jobs are capped at the cores and the number of frames).
        package var options = FolderProcessor.Options()
        /// OpenCV's threads inside one detection; nil: 1 with several jobs, else OpenCV's own.
        /// OpenCV's count is process-wide: ``ProcessRun/applyProcessSettings()`` sets it for the
        /// whole process (``ProcessRun/openCVThreadCount``).
        package var openCVThreads: Int?
        /// Where the JSON Lines go (see ``SafeOutput/destination(for:replacing:inputs:)``).
        package var output = SafeOutput.Destination.standardOutput
        /// Where each frame is written with its detection drawn.
        package var annotate: String?
        /// Where the frames automatic pictures would have taken are copied.
        package var select: String?

        /// Processes `folder` with the default options, rows to standard output, nothing else written.
        package init(folder: FrameFolder, detector: MarkerDetector, rule: ValidityRule) {
            self.folder = folder
            self.detector = detector
            self.rule = rule
        }
    }

    /// How the run ended; when several apply, the first listed here after ``complete``, from the
    /// output's failure on.
    package enum Exit: Sendable, Equatable {
        /// Every frame was processed and every file written.
        case complete
        /// Some frames could not be read (the rest were processed), or some annotations or
        /// selections could not be written.
        case incomplete
        /// No frame could be read; the message names the first.
        case nothingReadable(String)
        /// Stopped before the end; the rows of the frames before the stop are complete.
        case interrupted
        /// The rows could not all be written; the message says what failed and how many rows were kept.
        case outputFailed(String)

        /// How a run over `frames` frames of `folder` ended, the first that applies in the order
        /// above, from the output's failure on.
        ///
        /// - Parameters:
        ///   - outputFailure: What failed writing the rows, if anything.
        ///   - stopped: Whether the run stopped before the end.
        ///   - errors: How many frames could not be read.
        ///   - firstError: The first of them (its file, named as the summary names it), if any.
        ///   - warnings: Whether some annotations or selections could not be written.
        init(outputFailure: String?, stopped: Bool, folder: String, frames: Int, errors: Int,
             firstError: (file: String, reason: String)?, warnings: Bool) {
            if let outputFailure {
                self = .outputFailed(outputFailure)
            } else if stopped {
                self = .interrupted
            } else if errors > 0, errors == frames, let first = firstError {
                self = .nothingReadable("no frame of \(folder) could be read "
                    + "(first: \(FileNameText.escaped(first.file)): \(first.reason))")
            } else {
                self = errors == 0 && !warnings ? .complete : .incomplete
            }
        }
    }

    /// What a run did.
    package struct Result: Sendable, CustomStringConvertible {
        /// Frames, validity, shutter stretches, errors and timing.
        package let summary: ProcessingSummary
        /// Frames copied into the selection folder.
        let selected: Int
        /// Annotations and selections that could not be written.
        let warnings: [String]
        /// How the run ended.
        package let exit: Exit
        let configuration: Configuration
        let threads: Int

        /// The summary as `process` prints it, several lines.
        package var description: String {
            let folder = configuration.folder
            var lines = [
                "\(folder.path): \(summary.frames) frames, \(folder.timing)",
                String(format: "  processed in %.2f s (%.1f frames/s, %d job%@, OpenCV threads %@)", summary.elapsed.inSeconds,
                       summary.framesPerSecond, summary.jobs, summary.jobs == 1 ? "" : "s",
                       threads > 0 ? "\(threads)" : "default"),
            ] + summary.timelineLines
            if let stopped = summary.stoppedAfter { lines.append("  interrupted: stopped after \(stopped) of \(summary.frames) frames") }
            if let select = configuration.select { lines.append("  selected for calibration: \(selected) frames copied to \(select)") }
            lines += warnings.map { "  warning: \($0)" }
            return lines.joined(separator: "\n")
        }
    }

    /// The configuration.
    package let configuration: Configuration

    /// Prepares a run.
    package init(_ configuration: Configuration) {
        self.configuration = configuration
    }

    /// The value for ``MarkerDetector/openCVThreadCount`` this run wants: the configured one (at
    /// most one per core), else 1 when several jobs already share the cores, else -1 (OpenCV's own).
    var openCVThreadCount: Int {
        Self.openCVThreadCount(configured: configuration.openCVThreads,
                               jobs: max(1, min(configuration.options.jobs, InputLimits.cores, configuration.folder.frames.count)))
    }

    /// OpenCV's thread count for a run of `jobs` detections at once: `configured` (at most one per
    /// core), else 1 when several jobs already share the cores, else -1 (OpenCV's own).
    static func openCVThreadCount(configured: Int?, jobs: Int) -> Int {
        configured.map { min($0, InputLimits.cores) } ?? (jobs > 1 ? 1 : -1)
    }

    /// Sets the process-wide settings of a run that wants `openCVThreads` (see ``applyProcessSettings()``).
    static func applyProcessSettings(openCVThreads: Int) {
        SystemCall.keepFreedMemoryForReuse()
        MarkerDetector.openCVThreadCount = openCVThreads
    }

    /// Sets what the run wants for the whole process: OpenCV's thread count
    /// (``openCVThreadCount``), and glibc's malloc keeping freed frames for reuse instead of
    /// returning them to the system after each one. Both are process-wide, so the program that owns
    /// the process calls this before ``run(shouldStop:onFrame:)``; the run itself leaves them alone
    /// (runs side by side in one process, as in tests, would change them under each other).
    package func applyProcessSettings() {
        Self.applyProcessSettings(openCVThreads: openCVThreadCount)
    }

    /// Processes every frame (until `shouldStop`), writing rows, annotations and selections.
    ///
    /// - Parameters:
    ///   - shouldStop: Checked before each frame (for Ctrl-C); the rows before the stop are kept.
    ///   - onFrame: Called after each frame's row, in frame order (for progress).
    /// - Throws: ``OutputError`` when a folder cannot be prepared or the rows' file cannot be opened
    ///   (a write that fails later ends the run with ``Exit/outputFailed(_:)``).
    package func run(shouldStop: @escaping @Sendable () -> Bool = { false }, onFrame: () -> Void = {}) throws(OutputError) -> Result {
        let configuration = configuration
        var options = configuration.options
        options.jobs = max(1, min(options.jobs, InputLimits.cores, configuration.folder.frames.count))
        let threads = openCVThreadCount
        for folder in [configuration.annotate, configuration.select].compactMap({ $0 }) {
            try SafeOutput.prepareFolder(folder)
        }
        var rows = try RowSink(configuration.output)
        let annotationNames = OutputNames.assign(configuration.folder.frames.map(\.file), pathExtension: "jpg")
        var policy = AutoCapturePolicy()
        let annotationFailures = Mutex<[String]>([])
        var selectionFailures: [String] = []
        var selected = 0
        var onDecoded: (@Sendable (FrameFolder.Frame, PixelBuffer, Detection) -> Void)?
        if let folder = configuration.annotate {
            onDecoded = { frame, pixels, detection in
                let path = (folder as NSString).appendingPathComponent(annotationNames[frame.index])
                if let failure = Self.annotate(frame, pixels, detection, rule: configuration.rule, to: path) {
                    annotationFailures.withLock { $0.append(failure) }
                }
            }
        }
        let processor = FolderProcessor(folder: configuration.folder, detector: configuration.detector, rule: configuration.rule,
                                        options: options)
        let summary = processor.run(shouldStop: shouldStop, onDecoded: onDecoded) { frame, outcome in
            switch outcome {
            case .observed(let observation, let step):
                rows.write(FrameRow.row(for: observation, state: step.state))
                if let select = configuration.select, policy.consider(observation, phase: step.state.phase) != nil {
                    do {
                        let bytes = try frame.readBytes()
                        try SafeOutput.write(bytes, to: (select as NSString).appendingPathComponent(frame.file))
                        selected += 1
                    } catch {
                        selectionFailures.append("\(FileNameText.escaped(frame.file)): \(error)")
                    }
                }
            case .unreadable(let reason):
                rows.write(FrameRow.errorRow(index: frame.index, file: frame.file, time: frame.time, reason: reason))
            }
            onFrame()
        }
        let outputFailure = rows.finish()
        let warnings = annotationFailures.withLock { $0 } + selectionFailures
        let exit = Exit(outputFailure: outputFailure, stopped: summary.stoppedAfter != nil, folder: configuration.folder.path,
                        frames: summary.frames, errors: summary.errors.count,
                        firstError: summary.errors.first.map { ($0.file, $0.reason) }, warnings: !warnings.isEmpty)
        return Result(summary: summary, selected: selected, warnings: warnings, exit: exit, configuration: configuration,
                      threads: threads)
    }

    /// Draws `detection` on the frame and writes it to `path`; returns a failure message, if any.
    static func annotate(_ frame: FrameFolder.Frame, _ pixels: PixelBuffer, _ detection: Detection,
                                 rule: ValidityRule, to path: String) -> String? {
        do {
            let drawn = try Annotation.draw(detection, on: pixels, badge: Annotation.Badge(detection: detection, rule: rule))
            let bytes = try ImageFile.encode(drawn, as: .jpeg(quality: 90))
            try SafeOutput.write(bytes, to: path, replacing: true)
            return nil
        } catch {
            return "annotating \(FileNameText.escaped(frame.file)): \(error)"
        }
    }
}
