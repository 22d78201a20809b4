import ArgumentParser
import FileFormats
import Foundation
import MarkerShutter

/// `process RIG_RECORDING`: each camera's rows and the rig's timeline.
extension ProcessCommand {
    /// The options that only a rig's recording takes, with their values.
    var rigOptions: [(String, Any?)] { [("--require", require), ("--sync-tolerance", syncTolerance), ("--max-motion", maxMotion)] }

    /// Processes the rig's recording in `folder`.
    func runRig(_ folder: String) throws {
        if select != nil {
            throw ValidationError("--select does not go with a rig's recording: `live --replay` of it with --auto takes the sets")
        }
        let recording: RigRecording
        do {
            recording = try RigRecording(folder: folder, allowingMissingFrames: true)
        } catch {
            throw RuntimeError("cannot process \(folder): \(error)")
        }
        var rules = LiveRigOptions()
        rules.require = require ?? "all"
        rules.syncTolerance = syncTolerance
        rules.maxMotion = maxMotion
        let rig = try rules.rigConfiguration(cameras: recording.cameras, hold: detection.holdDuration)
        let destination: SafeOutput.Destination
        do {
            if let annotate {
                let cameraFolders = recording.cameras.map { (folder as NSString).appendingPathComponent($0.name) }
                try SafeOutput.checkFolder(annotate, option: "--annotate", notAnyOf: [folder] + cameraFolders)
                for camera in recording.cameras {
                    try SafeOutput.checkFolder((annotate as NSString).appendingPathComponent(camera.name), option: "--annotate",
                                               notAnyOf: [folder] + cameraFolders)
                }
            }
            let inputs = recording.frames.map(\.path)
                + [FrameManifest.fileName, RigRecording.descriptionName, RigRecording.eventsName].map { (folder as NSString).appendingPathComponent($0) }
            destination = try SafeOutput.destination(for: output ?? "-", replacing: force, inputs: inputs)
        } catch {
            throw RuntimeError("\(error)")
        }
        let detector = try detection.makeDetector()
        var configuration = RigProcessRun.Configuration(recording: recording, rig: rig, detector: detector,
                                                        rule: detection.rule(for: detector.pattern))
        configuration.options.hold = detection.holdDuration
        if let jobs, jobs > InputLimits.cores {
            FileHandle.standardError.write("note: --jobs \(jobs) is more than the \(InputLimits.cores) cores: running \(InputLimits.cores)\n")
        }
        if let jobs { configuration.options.jobs = jobs }
        if let openCVThreads, openCVThreads > InputLimits.cores {
            FileHandle.standardError.write(
                "note: --opencv-threads \(openCVThreads) is more than the \(InputLimits.cores) cores: running \(InputLimits.cores)\n")
        }
        configuration.openCVThreads = openCVThreads
        configuration.output = destination
        configuration.annotate = annotate
        let progress = ProgressBar(total: recording.frames.count)
        let interrupt = InterruptFlag()
        let result: RigProcessRun.Result
        do {
            let run = RigProcessRun(configuration)
            run.applyProcessSettings()
            result = try run.run(shouldStop: { interrupt.isSet }, onFrame: progress.advance)
        } catch {
            progress.finish()
            throw RuntimeError("\(error)")
        }
        progress.finish()
        FileHandle.standardError.write(result.description + "\n")
        switch result.exit {
        case .complete: return
        case .incomplete: throw ExitCode(2)
        case .nothingReadable(let message), .outputFailed(let message): throw RuntimeError(message)
        case .interrupted: throw ExitCode(130)
        }
    }
}
