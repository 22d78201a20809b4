import ArgumentParser
import Calibration
import Dispatch
import Foundation
import MarkerDetection
import MarkerShutter
import RosBags

/// `calibrate BAG --topic T --pattern P`: a camera from a bag's topic, or a rig from several.
extension CalibrateCommand {
    /// Calibrates from the bag at `path`.
    func runBag(_ path: String, model: CameraModel, named: [String: CameraModel]) throws {
        let rig = topics.count >= 2
        if !rig {
            if let name = named.keys.sorted().first { throw UsageError("--model \(name)=...: name two topics or more with --topic for a rig") }
            if syncTolerance != nil { throw UsageError("--sync-tolerance goes with a rig: name two topics or more with --topic") }
        } else if undistort {
            throw UsageError("--undistort is for one camera, not a rig of topics")
        }
        if let syncTolerance, !(syncTolerance.isFinite && syncTolerance >= 0 && syncTolerance <= 10_000) {
            throw UsageError("--sync-tolerance takes milliseconds from 0 to 10000, got \(syncTolerance)")
        }
        let input = try BagInput(path: path, topics: topics)
        // Without --pattern (or with auto), the target is identified from the topics' first frames.
        let given = self.pattern.flatMap { $0.lowercased() == PatternChoice.auto ? nil : try? Pattern(parsing: $0) }
        let pattern = try given ?? {
            let images = rig
                ? IdentificationFrames.first(PatternIdentifier.typicalFrameCount, of: try input.rigRecording())
                : IdentificationFrames.first(PatternIdentifier.typicalFrameCount, of: FrameFolder(input.index))
            return try PatternChoice.identified(inImages: images, source: path)
        }()
        let job = CalibrationJob(into: out, input: path)
        let interrupt = stopOnSignal(job)
        defer { interrupt.cancel() }
        let summary: [String]
        let paths: [String]
        do {
            if rig {
                let written = try job.runRig(
                    bag: input.index, names: input.names, pattern: pattern,
                    syncTolerance: syncTolerance.map { .nanoseconds(Int64(($0 * 1e6).rounded())) }, models: named, model: model,
                    replacing: force
                ) { rig in
                    for (name, pictures) in zip(rig.names, rig.pictures) {
                        FileHandle.standardError.write(FileNameText.escaped(
                            "\(name) (\(pictures.folder)): detected \(pictures.pattern) in \(pictures.views.count + pictures.empty.count) frames, "
                                + "target in \(pictures.withTarget.count)") + "\n")
                    }
                }
                (summary, paths) = (written.report.summary, written.paths)
            } else {
                let written = try job.run(
                    bag: input.index, pattern: pattern, model: model, cameraName: cameraName, undistort: undistort, replacing: force,
                    crossValidate: crossValidate
                ) { pictures in
                    FileHandle.standardError.write(FileNameText.escaped(
                        "\(pictures.folder): detected \(pictures.pattern) in \(pictures.views.count + pictures.empty.count) frames, "
                            + "target in \(pictures.withTarget.count)") + "\n")
                }
                (summary, paths) = (written.report.summary, written.paths)
            }
        } catch {
            if job.isStopped { DispatchSemaphore(value: 0).wait() }
            throw RuntimeError(FileNameText.escaped("\(error)"))
        }
        for line in summary { FileHandle.standardError.write(FileNameText.escaped(line) + "\n") }
        for path in paths { StandardOutput.line(FileNameText.escaped(path)) }
    }
}
