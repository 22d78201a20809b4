import ArgumentParser
import Foundation
import MarkerDetection
import MarkerShutter

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
            1 nothing could be processed; 130 stopped by Ctrl-C, SIGTERM or SIGHUP, keeping the rows of the frames before \
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
        var configuration = ProcessRun.Configuration(folder: frameFolder, detector: detector, rule: detection.rule(for: detector.pattern))
        configuration.options.hold = detection.holdDuration
        if let jobs { configuration.options.jobs = jobs }
        configuration.openCVThreads = openCVThreads
        configuration.output = output
        configuration.annotate = annotate
        configuration.select = select
        let progress = ProgressBar(total: frameFolder.frames.count)
        let interrupt = InterruptFlag()
        let result: ProcessRun.Result
        do {
            result = try ProcessRun(configuration).run(shouldStop: { interrupt.isSet }, onFrame: progress.advance)
        } catch {
            progress.finish()
            throw RuntimeError("\(error)")
        }
        progress.finish()
        FileHandle.standardError.write(result.description + "\n")
        switch result.exit {
        case .complete: return
        case .someUnreadable: throw ExitCode(2)
        case .nothingReadable(let message): throw RuntimeError(message)
        case .interrupted: throw ExitCode(130)
        }
    }
}

extension FileHandle {
    /// Writes text, ignoring failures (for diagnostics on standard error).
    func write(_ text: String) {
        try? write(contentsOf: Data(text.utf8))
    }
}
