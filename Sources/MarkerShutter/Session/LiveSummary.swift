public import Calibration
import Foundation

/// How a live session went: why it stopped, frame counts, the shutter, pictures and the recording.
public struct LiveSummary: Sendable, CustomStringConvertible {
    /// Pictures saved, refused (shutter disabled, or too many still being written) and failed.
    public struct Pictures: Sendable, Equatable {
        /// Pictures written.
        public var saved = 0
        /// Requests refused because the shutter was disabled.
        public var refused = 0
        /// Requests refused because earlier pictures were still waiting to be written
        /// (``PictureError/busy(pending:)``).
        public var busy = 0
        /// Pictures that could not be written.
        public var failed = 0

        /// Counts of pictures saved, refused and failed.
        public init(saved: Int = 0, refused: Int = 0, busy: Int = 0, failed: Int = 0) {
            self.saved = saved
            self.refused = refused
            self.busy = busy
            self.failed = failed
        }
    }

    /// Why the session stopped ("quit", "Ctrl-C", "100 frames"); nil at the end of the frames.
    public let stopReason: String?
    /// Frame counts, rates and latencies.
    public let statistics: LiveStatistics
    /// The shutter's enabled stretches.
    public let stretches: [EnabledStretch]
    /// The pictures.
    public let pictures: Pictures
    /// The recording, when there was one.
    public let recording: FrameRecorder.Summary?
    /// The recording's folder.
    let recordFolder: String?
    /// The source's error, when it ended with one ("/dev/video0: ... disconnected").
    public let failure: String?
    /// How far the pictures taken span the image, size and skew.
    public let coverage: ViewCoverage
    /// The calibration, with `--calibrate`.
    public let calibration: Calibration?

    /// How `--calibrate` ended.
    public struct Calibration: Sendable {
        /// The last solve, covering every picture (nil when there was none).
        public let update: LiveCalibration.Update?
        /// The folder the files go to.
        public let folder: String
        /// Why the files were not written, when they were not.
        public let failure: CalibrationError?
    }

    /// The summary of a run.
    public init(stopReason: String?, statistics: LiveStatistics, stretches: [EnabledStretch], pictures: Pictures,
                recording: FrameRecorder.Summary?, recordFolder: String?, failure: String?, coverage: ViewCoverage = ViewCoverage(),
                calibration: Calibration? = nil) {
        self.stopReason = stopReason
        self.statistics = statistics
        self.stretches = stretches
        self.pictures = pictures
        self.recording = recording
        self.recordFolder = recordFolder
        self.failure = failure
        self.coverage = coverage
        self.calibration = calibration
    }

    /// Whether a picture, the recording or the calibration could not be written.
    public var writesFailed: Bool { pictures.failed > 0 || recording?.failure != nil || calibration?.failure != nil }

    /// The summary as printed after a run, several lines.
    public var description: String {
        let enabled = stretches.reduce(Duration.zero) { $0 + $1.duration }
        var lines = [
            "stopped (\(stopReason ?? "end of frames")): \(statistics.framesReceived) frames received, "
                + "\(statistics.framesDetected) detected, \(statistics.framesSkipped) skipped while detection was busy, "
                + "\(statistics.framesLostByCamera) lost by the camera"
                + (statistics.framesMissing > 0 ? ", \(statistics.framesMissing) missing or unreadable" : ""),
            String(format: "  shutter enabled %.2f s in %d stretch%@", enabled.inSeconds, stretches.count,
                   stretches.count == 1 ? "" : "es"),
            "  pictures: \(pictures.saved) saved" + (pictures.refused > 0 ? ", \(pictures.refused) refused (shutter disabled)" : "")
                + (pictures.busy > 0 ? ", \(pictures.busy) refused (earlier pictures still being written)" : "")
                + (pictures.failed > 0 ? ", \(pictures.failed) failed" : ""),
        ]
        if !coverage.views.isEmpty {
            lines.append("  pictures \(coverage.statusText)")
        }
        if let median = statistics.latency(percentile: 0.5), let p99 = statistics.latency(percentile: 0.99) {
            lines.append(String(format: "  latency from frame to shutter state: median %.1f ms, 99th percentile %.1f ms",
                                median.inSeconds * 1000, p99.inSeconds * 1000))
        }
        if let recording, let recordFolder {
            lines.append("  recording: \(recording.written) frames in \(recordFolder)"
                + (recording.skipped > 0 ? ", \(recording.skipped) not recorded (disk too slow)" : "")
                + (recording.failure.map { "; stopped: \($0)" } ?? ""))
        }
        if let calibration {
            if let update = calibration.update { lines.append("  " + update.description) }
            lines.append(calibration.failure.map { "  calibration not written: \($0)" }
                ?? "  calibration written to \(calibration.folder)")
            if let advice = calibration.update?.uncertaintyAdvice { lines.append("  advice: " + advice) }
        }
        return lines.joined(separator: "\n")
    }
}
