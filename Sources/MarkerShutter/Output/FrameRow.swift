package import FileFormats
import MarkerDetection

/// The ``ProcessRow`` of each frame `marker-shutter process` reads, made from its observation and
/// the shutter after it.
package enum FrameRow {
    /// The row of a frame that was read and detected.
    package static func row(for observation: FrameObservation, state: ShutterState<FrameObservation>) -> String {
        shardFrame(observation).row(shutter: state.phase.description, heldIndex: state.heldIndex).text
    }

    /// The row of a frame that could not be read.
    package static func errorRow(index: Int, file: String, time: FrameTime, reason: String) -> String {
        ProcessRow.errorText(index: index, file: file, t: time.seconds, reason: reason)
    }

    /// A shard file's line of a frame that was read: its row without the shutter, and its time to the nanosecond.
    package static func shardFrame(_ observation: FrameObservation) -> ShardLine.Frame {
        let fields = ProcessRow.Detected(
            sequence: observation.sequence, valid: observation.isValid, detection: observation.detection.recorded,
            sharpness: observation.detection.sharpness, detectMilliseconds: observation.detection.milliseconds,
            shutter: "", heldIndex: nil, why: observation.isValid ? nil : observation.shortfalls.map(\.description))
        return ShardLine.Frame(row: ProcessRow(index: observation.index, file: observation.file, t: observation.time.seconds,
                                               outcome: .detected(fields)), nanoseconds: observation.time.nanoseconds)
    }

    /// A shard file's line of a frame that could not be read.
    package static func shardFrame(index: Int, file: String, time: FrameTime, reason: String) -> ShardLine.Frame {
        ShardLine.Frame(row: ProcessRow(index: index, file: file, t: time.seconds, outcome: .unreadable(reason: reason)),
                        nanoseconds: time.nanoseconds)
    }
}
