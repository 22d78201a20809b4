extension ProcessingSummary {
    /// The summary's lines about the timeline, as `process` and `merge` print them alike: valid
    /// frames, when the shutter was enabled, and the frames that could not be read (ten at most).
    package var timelineLines: [String] {
        var lines = [
            "  valid frames: \(validFrames) of \(processedFrames)",
            String(format: "  shutter enabled: %.2f s in %d stretch%@", enabledTime.inSeconds, stretches.count, stretches.count == 1 ? "" : "es")
                + (stretches.isEmpty ? "" : ": " + stretches.map { "\($0.firstFrame)-\($0.lastFrame)" }.joined(separator: ", ")),
            "  errors: \(errors.count)",
        ]
        for error in errors.prefix(10) { lines.append("    " + FileNameText.escaped("\(error.file): \(error.reason)")) }
        if errors.count > 10 { lines.append("    ... and \(errors.count - 10) more") }
        return lines
    }
}
