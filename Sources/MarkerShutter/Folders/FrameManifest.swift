import Foundation
package import FileFormats

/// The `manifest.jsonl` of a recorded frame folder: one ``ManifestLine`` per frame, in capture
/// order (the line's type writes and reads it; this one checks the frames as a folder needs them).
///
/// `marker-shutter live --record` writes it; `marker-shutter process` replays the frames with these
/// timestamps, so the replay sees the timeline the live tool saw.
package struct FrameManifest: Sendable, Equatable {
    /// One frame of the manifest.
    package typealias Entry = ManifestLine

    /// The file name the manifest has in a folder.
    package static let fileName = "manifest.jsonl"

    /// The frames, in order.
    package var entries: [Entry]

    /// Creates a manifest from entries.
    package init(entries: [Entry]) { self.entries = entries }

    /// Parses the text of a manifest.
    ///
    /// Lines may end in LF or CRLF.
    ///
    /// - Throws: ``FrameManifestError`` naming the line that is not a frame entry, a name that
    ///   leaves the folder, holds a NUL or is longer than a file name can be, a timestamp outside
    ///   ``InputLimits/frameSeconds``, or a timestamp that goes back.
    package init(parsing text: String) throws(FrameManifestError) {
        var entries: [Entry] = []
        // On `unicodeScalars`: "\r\n" is one `Character`, so splitting the `String` on "\n" would
        // leave a CRLF file in one piece.
        let lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
        for (offset, line) in lines.enumerated() {
            let trimmed = String(line).trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty { continue }
            let entry: Entry
            do {
                entry = try ManifestLine(parsing: trimmed)
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
    package var text: String {
        entries.map(\.text).joined()
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
