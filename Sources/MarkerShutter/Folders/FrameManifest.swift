import Foundation

/// The `manifest.jsonl` of a recorded frame folder: one line per frame, in capture order, with the
/// frame's file name, its timestamp in seconds and the camera's sequence number; the line of the
/// first frame taken with camera controls set (and of any frame after which they change) also has
/// them, by their `v4l2-ctl` names, as the camera read them back.
///
/// ```
/// {"file":"frame_000000.jpg","t":0,"sequence":812,"controls":{"exposure_absolute":400,"exposure_auto":1,"gain":10}}
/// {"file":"frame_000001.jpg","t":0.033367,"sequence":813}
/// ```
///
/// Readers that know nothing of `controls` pass over it.
///
/// `marker-shutter live --record` writes it; `marker-shutter process` replays the frames with these
/// timestamps, so the replay sees the timeline the live tool saw.
public struct FrameManifest: Sendable, Equatable {
    /// One frame of the manifest.
    public struct Entry: Sendable, Equatable, Codable {
        /// The file name, relative to the folder.
        public var file: String
        /// Seconds since the recording began.
        public var t: Double
        /// The camera's sequence number, when known.
        public var sequence: UInt64?
        /// The camera controls set from this frame on, by their `v4l2-ctl` names; `nil` when
        /// they are those of the frame before (none, for the first).
        public var controls: [String: Int64]?

        /// Creates an entry.
        public init(file: String, t: Double, sequence: UInt64? = nil, controls: [String: Int64]? = nil) {
            self.file = file
            self.t = t
            self.sequence = sequence
            self.controls = controls
        }
    }

    /// The file name the manifest has in a folder.
    public static let fileName = "manifest.jsonl"

    /// The frames, in order.
    public var entries: [Entry]

    /// Creates a manifest from entries.
    public init(entries: [Entry]) { self.entries = entries }

    /// Parses the text of a manifest.
    ///
    /// Lines may end in LF or CRLF.
    ///
    /// - Throws: ``FrameManifestError`` naming the line that is not a frame entry, a name that
    ///   leaves the folder, holds a NUL or is longer than a file name can be, a timestamp outside
    ///   ``InputLimits/frameSeconds``, or a timestamp that goes back.
    public init(parsing text: String) throws(FrameManifestError) {
        var entries: [Entry] = []
        let decoder = JSONDecoder()
        // On `unicodeScalars`: "\r\n" is one `Character`, so splitting the `String` on "\n" would
        // leave a CRLF file in one piece.
        let lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
        for (offset, line) in lines.enumerated() {
            let trimmed = String(line).trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty { continue }
            let entry: Entry
            do {
                entry = try decoder.decode(Entry.self, from: Data(trimmed.utf8))
            } catch {
                throw .badLine(offset + 1, reason: "expected {\"file\": ..., \"t\": seconds, \"sequence\": n}")
            }
            let shown = FileNameText.escaped(entry.file)
            guard !entry.file.isEmpty, !entry.file.contains("/"), entry.file != ".", entry.file != ".." else {
                throw .badLine(offset + 1, reason: "file \"\(shown)\" must be a plain name inside the folder")
            }
            guard !entry.file.unicodeScalars.contains("\0") else {
                throw .badLine(offset + 1, reason: "file \"\(shown)\" holds a NUL character, which no file name can")
            }
            if let tooLong = FileNameText.tooLong(entry.file) {
                throw .badLine(offset + 1, reason: tooLong)
            }
            do {
                try InputLimits.frameSeconds.check(entry.t, name: "t")
            } catch {
                throw .badLine(offset + 1, reason: "\(error)")
            }
            if let previous = entries.last, entry.t < previous.t {
                throw .timeGoesBack(line: offset + 1, file: entry.file, t: entry.t, previous: previous.t)
            }
            entries.append(entry)
        }
        self.entries = entries
    }

    /// The manifest's text: one JSON object per line.
    public var text: String {
        entries.map(Self.line(for:)).joined()
    }

    /// One entry as a manifest line, newline included.
    public static func line(for entry: Entry) -> String {
        var fields = ["\"file\":\(jsonString(entry.file))", "\"t\":\(secondsText(entry.t))"]
        if let sequence = entry.sequence { fields.append("\"sequence\":\(sequence)") }
        if let controls = entry.controls { fields.append("\"controls\":\(controlsText(controls))") }
        return "{" + fields.joined(separator: ",") + "}\n"
    }

    /// Camera controls as an object of their values, keys in name order:
    /// `{"exposure_absolute":400,"gain":10}` (here, so that the manifest needs no other file).
    static func controlsText(_ controls: [String: Int64]) -> String {
        "{" + controls.sorted { $0.key < $1.key }.map { "\(jsonString($0.key)):\($0.value)" }.joined(separator: ",") + "}"
    }

    /// Seconds with microsecond resolution and no trailing zeros (`0.033367`, `12`).
    static func secondsText(_ seconds: Double) -> String {
        let micro = (seconds * 1_000_000).rounded()
        // Beyond about 1e302 s the microseconds overflow to infinity, which "%.6f" writes as "inf",
        // which is no JSON: write the number as it is, so that reading it back names the time
        // outside InputLimits.frameSeconds instead of a malformed line.
        guard micro.isFinite else { return "\(seconds)" }
        var text = String(format: "%.6f", micro / 1_000_000)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }

    static func jsonString(_ string: String) -> String {
        var result = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case let s where s.value < 0x20: result += String(format: "\\u%04x", s.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}

/// Why a `manifest.jsonl` could not be read.
public enum FrameManifestError: Error, Equatable, CustomStringConvertible {
    /// A line that is not a frame entry.
    case badLine(Int, reason: String)
    /// A timestamp earlier than the one before it.
    case timeGoesBack(line: Int, file: String, t: Double, previous: Double)

    public var description: String {
        switch self {
        case .badLine(let line, let reason): "manifest.jsonl line \(line): \(reason)"
        case .timeGoesBack(let line, let file, let t, let previous):
            "manifest.jsonl line \(line): \(FileNameText.escaped(file)) at t=\(t) s is earlier than the frame before it (t=\(previous) s)"
        }
    }
}
