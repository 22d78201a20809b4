import ArgumentParser
import FileFormats
import Foundation
import MarkerShutter
import RosBags

/// `process BAG --topic T`: one topic's frames as a folder's, or two topics or more as a rig's recording.
extension ProcessCommand {
    /// Processes the bag at `path`.
    func runBag(_ path: String) throws {
        if topics.count < 2, let option = rigRules.firstGiven {
            throw ValidationError("\(option) goes with a rig: name two topics or more with --topic")
        }
        if topics.count >= 2, select != nil {
            throw ValidationError("--select does not go with a rig's topics: `live --replay` of the bag with --auto takes the sets")
        }
        let input = try BagInput(path: path, topics: topics)
        guard input.index.topics.count >= 2 else { return try process(FrameFolder(input.index), inputs: input.inputs) }
        let recording = try input.rigRecording()
        let destination: SafeOutput.Destination
        do {
            if let annotate {
                try SafeOutput.checkFolder(annotate, option: "--annotate", notAnyOf: input.inputs)
                for camera in recording.cameras {
                    try SafeOutput.checkFolder((annotate as NSString).appendingPathComponent(camera.name), option: "--annotate",
                                               notAnyOf: input.inputs)
                }
            }
            destination = try SafeOutput.destination(for: output ?? "-", replacing: force, inputs: input.inputs)
            try SafeOutput.checkOutside(output ?? "-", folders: input.inputs)
        } catch {
            throw RuntimeError("\(error)")
        }
        try processRig(recording, destination: destination)
    }
}
