import ArgumentParser
import FileFormats
import Foundation
import MarkerDetection
import MarkerShutter
import Sharding

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
            output; a device, FIFO or symbolic link is written through. An output that is or lies inside the input \
            (a frame, the manifest, a file or folder in the frame folder) is refused before any work, and so \
            are --annotate and --select naming one folder.

            Exit status: 0 every frame processed; 2 some frames unreadable (the rest processed) or some \
            --annotate/--select files not written; 1 nothing could be processed, an output refused before \
            any work, or the output could not be written (the rows written before the failure are kept); \
            64 a usage error (an option's value outside its range); 130 stopped by Ctrl-C, SIGTERM or SIGHUP, keeping the rows of the frames before \
            the stop (a second Ctrl-C quits at once).

            Examples:
              marker-shutter process Samples/charuco-session
              marker-shutter process recording --output timeline.jsonl --annotate annotated
              marker-shutter process photos --pattern chessboard:9x6 | jq .shutter
              marker-shutter process recording --pattern auto --output timeline.jsonl
              marker-shutter process frames --fps 15 --select picks --jobs 1
              marker-shutter process recording --shard 2/4 --output shards
              marker-shutter process --folders archive.txt --shard slurm --output shards
              marker-shutter process rig-recording --max-motion 5 --output rig-rows.jsonl
              marker-shutter process calibration.bag --topic /camera/image_raw
              marker-shutter process stereo.mcap --topic /left/image_raw --topic /right/image_raw

            A rig's recording (`live --camera ... --record DIR`: cameras.json, a manifest naming each frame's \
            camera) gives one stream in the order the rig took its frames: each frame's row with "camera" \
            first (index, shutter and held_index are that camera's own), and a line at each change of the \
            rig shutter: {"rig": "enabled", t, largest_difference_s, set [{camera, index}], cameras} or \
            {"rig": "disabled", t, why, cameras}, the timeline `live --replay DIR` shows. --require, \
            --sync-tolerance and --max-motion are the rig's rules, as for `live`; --annotate DIR draws \
            each camera's frames into DIR/NAME; --select and --shard take one camera's frames.

            A ROS bag takes the place of the folder: a ROS 1 bag (.bag), an MCAP file (.mcap) or a rosbag2 \
            folder (metadata.yaml with .db3 or .mcap files), its sensor_msgs/Image (mono8, bgr8, rgb8, Bayer) or \
            sensor_msgs/CompressedImage (JPEG, PNG) messages the frames, their header stamps the times, each \
            named STAMP_NS.png or .jpg. --topic chooses the topic (needed when the bag has several image topics); \
            two --topic or more make a rig, each topic a camera named from the topics (or --topic NAME=TOPIC), \
            the sets matched by the header stamps within --sync-tolerance. The bag is read as it is stored, a \
            chunk at a time; one that is truncated or corrupt, or a topic that is not there or carries no images, \
            is an error naming the file or the topic.

            With --shard (and --folders), the frames are cut into shards of whole stretches, each \
            detected as one machine would, and written as NAME.shard-K-of-N.jsonl into the --output \
            folder, whole or not at all (an earlier file of that name is replaced); `merge` puts them \
            together and replays the shutter. Exit status 0 once the shard file is written (frames that \
            cannot be read are rows of it).
            """
    )

    @Argument(help: "The folder of frames (JPEG, PNG, BMP or TIFF files, with or without manifest.jsonl), or a ROS bag (.bag, .mcap, a rosbag2 folder).")
    var folder: String?

    @Option(name: .customLong("topic"),
            help: ArgumentHelp("With a bag: the image topic to process; twice or more for a rig (NAME=TOPIC names its camera).",
                               valueName: "topic"))
    var topics: [String] = []

    @Option(help: ArgumentHelp(
        "Detect only shard K of N (K from 0) and write it as a shard file into the --output folder, for `merge`; "
            + "slurm: K and N from SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT; kubernetes: K from JOB_COMPLETION_INDEX "
            + "(N from \(Shard.countVariable), which also overrides Slurm's count).",
        valueName: "K/N|slurm|kubernetes"))
    var shard: String?

    @Option(help: ArgumentHelp("A file listing folders, one per line: each folder's shards are dealt out to the tasks of --shard.",
                               valueName: "list"))
    var folders: String?

    @Option(name: .customLong("shards-per-folder"), parsing: .unconditional,
            help: "With --folders: how many shards each folder is cut into (default 1: one task per folder; \(InputLimits.shardsPerFolder)).",
            transform: InputLimits.shardsPerFolder.parse(option: "--shards-per-folder"))
    var shardsPerFolder: Int?

    @OptionGroup var detection: DetectionOptions

    @Option(parsing: .unconditional, help: "Frames per second when the folder has no manifest.jsonl (\(InputLimits.framesPerSecond)).")
    var fps: Double = 30

    @Option(parsing: .unconditional,
            help: "Frames decoded and detected at once (default and most: one per core; 1 to 1024 accepted, more than the cores runs one per core, with a note).",
            transform: InputLimits.jobs.parse(option: "--jobs"))
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
            help: "Worker threads OpenCV uses inside one detection (libapriltag runs on one; default: 1 with several jobs, else OpenCV's own; \(InputLimits.openCVThreads), and more than the cores runs one per core, with a note).",
            transform: InputLimits.openCVThreads.parse(option: "--opencv-threads"))
    var openCVThreads: Int?

    @OptionGroup(title: "A rig's recording")
    var rigRules: RigRuleOptions

    func validate() throws {
        try validateSharding()
        try InputLimits.framesPerSecond.validate(fps, option: "--fps")
        try InputLimits.jobs.validate(jobs, option: "--jobs")
        try InputLimits.openCVThreads.validate(openCVThreads, option: "--opencv-threads")
    }

    func run() throws {
        if shard != nil || folders != nil {
            if let folder, BagInput.isBag(folder) { throw ValidationError("--shard takes folders of frames; process the bag \(folder) without it") }
            return try runShards()
        }
        guard let folder else { throw ValidationError("give the folder of frames (or --folders LIST)") }
        if BagInput.isBag(folder) { return try runBag(folder) }
        if !topics.isEmpty {
            throw ValidationError("--topic goes with a ROS bag (.bag, .mcap or a rosbag2 folder); \(folder) is a folder of frames")
        }
        if RigRecording.isRig(folder) { return try runRig(folder) }
        if let option = rigRules.firstGiven {
            throw ValidationError("\(option) goes with a rig's recording (a folder with cameras.json); \(folder) is one camera's")
        }
        let frameFolder: FrameFolder
        do {
            frameFolder = try FrameFolder(path: folder, framesPerSecond: fps)
        } catch {
            throw RuntimeError("nothing to process: \(error)")
        }
        try process(frameFolder)
    }

    /// Processes one camera's frames: a folder, or a bag's topic (whose `inputs`, the bag, are never written).
    func process(_ frameFolder: FrameFolder, inputs: [String] = []) throws {
        let destination = try checkOutputs(frameFolder, inputs: inputs)
        let detector = try detection.makeDetector(identifyingIn: frameFolder)
        var configuration = ProcessRun.Configuration(folder: frameFolder, detector: detector, rule: detection.rule(for: detector.pattern))
        configure(&configuration, destination: destination)
        configuration.select = select
        let run = ProcessRun(configuration)
        run.applyProcessSettings()
        try Self.finish(frames: frameFolder.frames.count) { shouldStop, onFrame in
            let result = try run.run(shouldStop: shouldStop, onFrame: onFrame)
            return (result.description, result.exit)
        }
    }

    /// Sets what one camera's run and a rig's take from the options alike: the hold, the jobs
    /// (noting on standard error any beyond the cores), OpenCV's threads, where the rows go and
    /// where the frames are drawn.
    func configure(_ configuration: inout some ProcessRunSettings, destination: SafeOutput.Destination) {
        configuration.options.hold = detection.holdDuration
        noteCoreLimits()
        if let jobs { configuration.options.jobs = jobs }
        configuration.openCVThreads = openCVThreads
        configuration.output = destination
        configuration.annotate = annotate
    }

    /// Notes on standard error that `--jobs` or `--opencv-threads` ask for more than the cores.
    func noteCoreLimits() {
        if let jobs, jobs > InputLimits.cores {
            FileHandle.standardError.write("note: --jobs \(jobs) is more than the \(InputLimits.cores) cores: running \(InputLimits.cores)\n")
        }
        if let openCVThreads, openCVThreads > InputLimits.cores {
            FileHandle.standardError.write(
                "note: --opencv-threads \(openCVThreads) is more than the \(InputLimits.cores) cores: running \(InputLimits.cores)\n")
        }
    }

    /// Runs `work` over `frames` frames with a progress bar and Ctrl-C as its stop, says its summary
    /// on standard error and maps its outcome to the exit status.
    static func finish(frames: Int, _ work: (_ shouldStop: @escaping @Sendable () -> Bool, _ onFrame: @escaping @Sendable () -> Void) throws
        -> (summary: String, exit: ProcessRun.Exit)) throws {
        let progress = ProgressBar(total: frames)
        let interrupt = InterruptFlag()
        let outcome: (summary: String, exit: ProcessRun.Exit)
        do {
            outcome = try work({ interrupt.isSet }, progress.advance)
        } catch {
            progress.finish()
            throw RuntimeError("\(error)")
        }
        progress.finish()
        FileHandle.standardError.write(outcome.summary + "\n")
        switch outcome.exit {
        case .complete: return
        case .incomplete: throw ExitCode(2)
        case .nothingReadable(let message), .outputFailed(let message): throw RuntimeError(message)
        case .interrupted: throw ExitCode(130)
        }
    }

    /// Refuses, before any work, outputs that would replace an input or a file kept without --force.
    private func checkOutputs(_ frameFolder: FrameFolder, inputs: [String]) throws -> SafeOutput.Destination {
        do {
            for (option, folder) in [("--annotate", annotate), ("--select", select)] {
                if let folder { try SafeOutput.checkFolder(folder, option: option, notAnyOf: [frameFolder.path]) }
            }
            if let annotate, let select { try SafeOutput.checkDistinct(("--annotate", annotate), ("--select", select)) }
            let manifest = (frameFolder.path as NSString).appendingPathComponent(FrameManifest.fileName)
            let destination = try SafeOutput.destination(for: output ?? "-", replacing: force,
                                                         inputs: frameFolder.frames.map(\.path) + [manifest] + inputs)
            try SafeOutput.checkOutside(output ?? "-", folders: [frameFolder.path] + inputs)
            return destination
        } catch {
            throw RuntimeError("\(error)")
        }
    }

}

extension FileHandle {
    /// Writes text, ignoring failures (for diagnostics on standard error).
    func write(_ text: String) {
        try? write(contentsOf: Data(text.utf8))
    }
}
