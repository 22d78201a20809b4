import Foundation

/// One line of a recorded frame folder's `manifest.jsonl`: the frame's file name, its timestamp in
/// seconds and the camera's sequence number; the line of the first frame taken with camera controls
/// set (and of any frame after which they change) also has them, by their `v4l2-ctl` names, as the
/// camera read them back.
///
/// ```
/// {"file":"frame_000000.jpg","t":0,"sequence":812,"controls":{"exposure_absolute":400,"exposure_auto":1,"gain":10}}
/// {"file":"frame_000001.jpg","t":0.033367,"sequence":813}
/// ```
///
/// A rig's recording has one manifest for all its cameras; each line names its camera first, the
/// file is in that camera's folder (`left/frame_000000.jpg`), and `t` is the frame's kernel
/// timestamp (the clock the rig's cameras share) rather than seconds since the recording began:
///
/// ```
/// {"camera":"left","file":"frame_000000.jpg","t":5321.046411,"sequence":812}
/// {"camera":"right","file":"frame_000000.jpg","t":5321.050524,"sequence":77}
/// ```
///
/// Written by ``text`` with the keys in that order (`camera` only for a rig), `t` in microseconds
/// without trailing zeros, `sequence` and `controls` only when known; read by ``init(parsing:)``. Readers that know nothing
/// of `controls` pass over it. The checks a folder needs (a plain name, a timestamp in range, one
/// that does not go back) are its reader's.
public struct ManifestLine: Sendable, Equatable, Codable {
    /// The camera of a rig the frame comes from; `nil` for a single camera's recording.
    public var camera: String?
    /// The file name, relative to the folder.
    public var file: String
    /// Seconds since the recording began; for a rig's recording, the frame's kernel timestamp in seconds.
    public var t: Double
    /// The camera's sequence number, when known.
    public var sequence: UInt64?
    /// The camera controls set from this frame on, by their `v4l2-ctl` names; `nil` when
    /// they are those of the frame before (none, for the first).
    public var controls: [String: Int64]?

    /// Creates a line.
    public init(camera: String? = nil, file: String, t: Double, sequence: UInt64? = nil, controls: [String: Int64]? = nil) {
        self.camera = camera
        self.file = file
        self.t = t
        self.sequence = sequence
        self.controls = controls
    }

    /// Reads one line (without its line break).
    ///
    /// - Throws: Foundation's `DecodingError` when the line is not an object with a string `file`,
    ///   a string `camera` when present,
    ///   a number `t` and, when present, a whole `sequence` and whole-numbered `controls`.
    public init(parsing line: some StringProtocol) throws {
        self = try JSONDecoder().decode(ManifestLine.self, from: Data(line.utf8))
    }

    /// The line's text, newline included.
    public var text: String {
        var fields: [String] = []
        if let camera { fields.append("\"camera\":\(JSONObjectText.string(camera))") }
        fields += ["\"file\":\(JSONObjectText.string(file))", "\"t\":\(Self.secondsText(t))"]
        if let sequence { fields.append("\"sequence\":\(sequence)") }
        if let controls { fields.append("\"controls\":\(JSONObjectText.controls(controls))") }
        return "{" + fields.joined(separator: ",") + "}\n"
    }

    /// Seconds with microsecond resolution and no trailing zeros (`0.033367`, `12`).
    package static func secondsText(_ seconds: Double) -> String {
        let micro = (seconds * 1_000_000).rounded()
        // Beyond about 1e302 s the microseconds overflow to infinity, which "%.6f" writes as "inf",
        // which is no JSON: write the number as it is, so that reading it back names the time
        // outside the reader's range instead of a malformed line.
        guard micro.isFinite else { return "\(seconds)" }
        var text = String(format: "%.6f", micro / 1_000_000)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }
}
