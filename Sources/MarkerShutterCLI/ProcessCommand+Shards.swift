import ArgumentParser
import FileFormats
import Foundation
import MarkerDetection
import MarkerShutter
import Sharding

/// `process --shard` and `process --folders`: one task's shards of a job split over many machines.
extension ProcessCommand {
    /// Checks the options that go with sharding, as usage errors.
    func validateSharding() throws {
        try InputLimits.shardsPerFolder.validate(shardsPerFolder, option: "--shards-per-folder")
        if folders != nil, folder != nil { throw ValidationError("give either a folder or --folders LIST, not both") }
        if folders == nil, folder == nil { throw ValidationError("give the folder of frames (or --folders LIST)") }
        if shardsPerFolder != nil, folders == nil { throw ValidationError("--shards-per-folder goes with --folders") }
        guard shard != nil || folders != nil else { return }
        if shard == nil { throw ValidationError("--folders needs --shard: K/N, slurm or kubernetes (0/1 for all in one task)") }
        guard let output, output != "-" else {
            throw ValidationError("--shard writes shard files into a folder: give it as --output DIR")
        }
        _ = try task()
        if output.isEmpty { throw ValidationError("--output needs a folder") }
        for (option, given) in [("--annotate", annotate), ("--select", select)] where given != nil {
            throw ValidationError("\(option) does not go with --shard: run it over the folder without --shard")
        }
        if force { throw ValidationError("--force does not go with --shard: a shard file replaces the earlier one of its name") }
    }

    /// This task: `--shard` read, with the scheduler's environment where it names one.
    func task() throws -> Shard {
        do {
            return try Shard(parsing: shard ?? "0/1", environment: ProcessInfo.processInfo.environment)
        } catch {
            throw ValidationError("\(error)")
        }
    }

    /// Runs this task's shards: of one folder, or of the folders of a list.
    func runShards() throws {
        let task = try task()
        let outputFolder = output!
        // With --pattern auto, each folder's own: identified from its first frames, the same in every task.
        let given = detection.identifiesPattern ? nil : try detection.makeDetector()
        var options = FolderProcessor.Options()
        options.hold = detection.holdDuration
        if let jobs { options.jobs = jobs }
        let work: [(folder: String, name: String, shard: Shard, list: (path: String, index: Int, count: Int)?)]
        if let folders {
            let list: FolderList
            do {
                list = try FolderList(path: folders)
            } catch {
                throw RuntimeError("\(error)")
            }
            let perFolder = shardsPerFolder ?? 1
            let names = list.names
            work = try list.work(forTask: task.index, of: task.count, shardsPerFolder: perFolder).map { unit in
                (list.folders[unit.folder], names[unit.folder], try Shard(index: unit.shard, count: perFolder),
                 (URL(fileURLWithPath: folders).standardizedFileURL.path, unit.folder, list.folders.count))
            }
            if work.isEmpty {
                StandardError.write("task \(task): no shard of the \(list.folders.count) folders falls to this task\n")
            }
        } else {
            work = [(folder!, ShardRun.name(of: folder!), task, nil)]
        }
        let interrupt = InterruptFlag()
        var failures: [String] = []
        for unit in work {
            if interrupt.isSet { throw ExitCode(130) }
            if RigRecording.isRig(unit.folder) {
                StandardError.write("marker-shutter: nothing to process: \(unit.folder) is a rig's recording; "
                    + "--shard takes one camera's frames: process the rig's recording without --shard\n")
                failures.append(unit.folder)
                continue
            }
            let frameFolder: FrameFolder
            do {
                frameFolder = try FrameFolder(path: unit.folder, framesPerSecond: fps)
                try SafeOutput.checkFolder(outputFolder, option: "--output", notAnyOf: [frameFolder.path])
            } catch {
                StandardError.write("marker-shutter: nothing to process: \(error)\n")
                failures.append(unit.folder)
                continue
            }
            let detector: MarkerDetector
            do {
                detector = try given ?? detection.makeDetector(identifyingIn: frameFolder)
            } catch {
                StandardError.write("marker-shutter: nothing to process: \(error)\n")
                failures.append(unit.folder)
                continue
            }
            var configuration = ShardRun.Configuration(folder: frameFolder, detector: detector,
                                                       rule: detection.rule(for: detector.pattern), shard: unit.shard,
                                                       outputFolder: outputFolder)
            configuration.name = unit.name
            configuration.options = options
            configuration.openCVThreads = openCVThreads
            configuration.list = unit.list
            configuration.task = task
            let result: ShardRun.Result
            do {
                let run = ShardRun(configuration)
                run.applyProcessSettings()
                result = try run.run(shouldStop: { interrupt.isSet })
            } catch {
                throw RuntimeError("\(error)")
            }
            StandardError.write(result.description + "\n")
            switch result.exit {
            case .complete: continue
            case .interrupted: throw ExitCode(130)
            case .outputFailed(let message): throw RuntimeError(message)
            }
        }
        if !failures.isEmpty {
            throw RuntimeError("no shard written for \(failures.joined(separator: ", "))")
        }
    }
}
