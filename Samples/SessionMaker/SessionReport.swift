import Foundation
import MarkerShutter

/// The text the program prints: a line per frame, then what was written and the timeline.
enum SessionReport {
    /// For example
    /// `frame_000030.jpg  t=1.001077  seq 5240  21 KB   invalid  markers  1  corners  0  sharpness 11961  hand crossing (0 of 12 corners)`.
    static func line(for frame: SessionWriter.FrameReport) -> String {
        let detection = frame.detection
        var text = frame.entry.file
        text += "  t=" + String(format: "%.6f", frame.entry.t)
        text += "  seq \(frame.entry.sequence.map(String.init) ?? "-")"
        text += "  " + pad("\(frame.bytes / 1000) KB", 6)
        text += "  " + pad(frame.isValid ? "valid" : "invalid", 7)
        text += "  markers " + pad("\(detection.markers.count)", 2, right: true)
        text += "  corners " + pad("\(detection.boardCorners.count)", 2, right: true)
        text += "  sharpness " + pad(detection.sharpness.map { "\(Int($0.rounded()))" } ?? "-", 5, right: true)
        if let event = frame.event { text += "  " + event.rawValue }
        if !frame.isValid { text += " (" + frame.shortfalls.map(\.description).joined(separator: ", ") + ")" }
        if SessionScript.showsBoard(atFrame: frame.index), !frame.boardInside { text += "  board cut by the frame's edge" }
        if !frame.asScripted { text += "  NOT AS SCRIPTED" }
        return text
    }

    /// What was written, which frames are valid, the scripted events and the shutter's timeline.
    static func footer(for summary: SessionWriter.Summary) -> String {
        let valid = summary.frames.filter(\.isValid).map(\.index)
        let megabytes = String(format: "%.1f", Double(summary.totalBytes) / 1_000_000)
        var lines = [
            "wrote \(summary.frames.count) frames and \(FrameManifest.fileName) to \(summary.folder) (\(megabytes) MB)",
            "valid frames: \(ranges(valid)) (\(valid.count) of \(summary.frames.count))",
            "scripted events: " + SessionScript.events.map { "\($0.event.rawValue) \(range($0.frames))" }.joined(separator: ", "),
            "shutter with a \(Int(SessionWriter.hold / .milliseconds(1))) ms hold:",
        ]
        for stretch in summary.stretches {
            let ending = stretch.end.map { "disabled at \(String(format: "%.6f", $0.seconds)) s, when the hold ran out" }
                ?? "still enabled at the end"
            lines.append("  enabled frames \(stretch.firstFrame)-\(stretch.lastFrame) (\(ending))")
        }
        return lines.joined(separator: "\n")
    }

    /// Sorted indices as runs: `0-29, 33-54, 60`.
    static func ranges(_ indices: [Int]) -> String {
        var runs: [ClosedRange<Int>] = []
        for index in indices {
            if let last = runs.last, last.upperBound + 1 == index {
                runs[runs.count - 1] = last.lowerBound...index
            } else {
                runs.append(index...index)
            }
        }
        return runs.isEmpty ? "none" : runs.map(range).joined(separator: ", ")
    }

    private static func range(_ run: ClosedRange<Int>) -> String {
        run.count == 1 ? "\(run.lowerBound)" : "\(run.lowerBound)-\(run.upperBound)"
    }

    private static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let space = String(repeating: " ", count: max(0, width - text.count))
        return right ? space + text : text + space
    }
}
