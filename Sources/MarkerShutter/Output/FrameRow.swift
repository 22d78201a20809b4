import FileFormats
import MarkerDetection

/// The ``ProcessRow`` of each frame `marker-shutter process` reads, made from its observation and
/// the shutter after it.
public enum FrameRow {
    /// The row of a frame that was read and detected.
    public static func row(for observation: FrameObservation, state: ShutterState<FrameObservation>) -> String {
        detected(observation).row(shutter: state.phase.description, heldIndex: state.heldIndex)
    }

    /// A detected frame's row without the shutter's two fields, which only the frames before it decide.
    struct Detected {
        /// The row's text from `{` to the `detect_ms` field, without the closing brace.
        var head: Substring
        /// The `why` array of an invalid frame, as JSON text.
        var why: Substring?

        /// The whole row, with the shutter after this frame: `"enabled"`, `"held"` or `"disabled"`
        /// and the frame whose detection is held.
        func row(shutter: String, heldIndex: Int?) -> String {
            ProcessRow.text(head: head, shutter: shutter, heldIndex: heldIndex, why: why)
        }
    }

    /// The fields of a detected frame's row that do not depend on the shutter.
    static func detected(_ observation: FrameObservation) -> Detected {
        let fields = ProcessRow.Detected(
            sequence: observation.sequence, valid: observation.isValid, detection: observation.detection.recorded,
            sharpness: observation.detection.sharpness, detectMilliseconds: observation.detection.milliseconds,
            shutter: "", heldIndex: nil, why: observation.isValid ? nil : observation.shortfalls.map(\.description))
        let head = ProcessRow.head(index: observation.index, file: observation.file, t: observation.time.seconds, fields)
        return Detected(head: Substring(head), why: ProcessRow.whyText(fields.why).map { Substring($0) })
    }

    /// The row of a frame that could not be read.
    public static func errorRow(index: Int, file: String, time: FrameTime, reason: String) -> String {
        ProcessRow.errorText(index: index, file: file, t: time.seconds, reason: reason)
    }
}
