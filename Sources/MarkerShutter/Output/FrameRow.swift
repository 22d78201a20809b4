import MarkerDetection

/// The JSON Lines row `marker-shutter process` writes for each frame.
///
/// A frame that was read: `index`, `file`, `t` (seconds), `sequence`, `valid`, `markers`
/// (`[{"id", "corners": [[x,y] x4]}]`), `corners` (board corners, `[{"id", "xy": [x,y]}]`),
/// `sharpness`, `detect_ms`, `shutter` (`"enabled"`, `"held"` or `"disabled"`), `held_index` (the
/// frame whose detection is held, or null) and, for an invalid frame, `why` (what the validity rule
/// missed). A frame that could not be read: `index`, `file`, `t`, `error`.
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
            var text = String(head)
            text += ",\"shutter\":" + JSONObject.string(shutter) + ",\"held_index\":" + (heldIndex.map(String.init) ?? "null")
            if let why { text += ",\"why\":" + why }
            return text + "}"
        }
    }

    /// The fields of a detected frame's row that do not depend on the shutter.
    static func detected(_ observation: FrameObservation) -> Detected {
        var object = JSONObject()
        object.add("index", observation.index)
        object.add("file", observation.file)
        object.add("t", observation.time.seconds, decimals: 6)
        object.add("sequence", observation.sequence)
        object.add("valid", observation.isValid)
        object.add("markers", raw: observation.detection.markersJSON)
        object.add("corners", raw: observation.detection.boardCornersJSON)
        object.add("sharpness", observation.detection.sharpness, decimals: 2)
        object.add("detect_ms", observation.detection.milliseconds, decimals: 3)
        let why = observation.isValid
            ? nil : "[" + observation.shortfalls.map { JSONObject.string($0.description) }.joined(separator: ",") + "]"
        return Detected(head: Substring(object.openText), why: why.map { Substring($0) })
    }

    /// The row of a frame that could not be read.
    public static func errorRow(index: Int, file: String, time: FrameTime, reason: String) -> String {
        var object = JSONObject()
        object.add("index", index)
        object.add("file", file)
        object.add("t", time.seconds, decimals: 6)
        object.add("error", reason)
        return object.text
    }
}
