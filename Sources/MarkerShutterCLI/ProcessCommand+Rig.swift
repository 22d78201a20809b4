import ArgumentParser
import FileFormats
import Foundation
import MarkerShutter

/// `process RIG_RECORDING`: each camera's rows and the rig's timeline.
extension ProcessCommand {
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
                + [FrameManifest.fileName, CamerasFile.fileName, EventsLine.fileName].map { (folder as NSString).appendingPathComponent($0) }
            destination = try SafeOutput.destination(for: output ?? "-", replacing: force, inputs: inputs)
            try SafeOutput.checkOutside(output ?? "-", folders: [folder])
        } catch {
            throw RuntimeError("\(error)")
        }
        try processRig(recording, destination: destination)
    }

    /// Processes a rig's frames (a recording, or a bag's topics) into `destination`.
    func processRig(_ recording: RigRecording, destination: SafeOutput.Destination) throws {
        let rig = try rigRules.rigConfiguration(cameras: recording.cameras, hold: detection.holdDuration)
        let detector = try detection.makeDetector(identifyingIn: recording)
        var configuration = RigProcessRun.Configuration(recording: recording, rig: rig, detector: detector,
                                                        rule: detection.rule(for: detector.pattern))
        configure(&configuration, destination: destination)
        let run = RigProcessRun(configuration)
        run.applyProcessSettings()
        try Self.finish(frames: recording.frames.count) { shouldStop, onFrame in
            let result = try run.run(shouldStop: shouldStop, onFrame: onFrame)
            return (result.description, result.exit)
        }
    }
}
