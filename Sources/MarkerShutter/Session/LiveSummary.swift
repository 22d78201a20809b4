package import Calibration
import Foundation

/// How a live session went: why it stopped, each camera's frames and shutter, the pictures (or a
/// rig's sets), the recording and the calibration.
public struct LiveSummary: Sendable, CustomStringConvertible {
    /// Pictures (a rig's sets) saved, refused (shutter disabled, or too many still being written) and failed.
    public struct Pictures: Sendable, Equatable {
        /// Pictures written.
        public var saved = 0
        /// Requests refused because the shutter (the rig) was disabled.
        public var refused = 0
        /// Requests refused because earlier pictures were still waiting to be written
        /// (``PictureError/busy(pending:)``).
        public var busy = 0
        /// Pictures that could not be written.
        public var failed = 0

        /// Counts of pictures saved, refused and failed.
        package init(saved: Int = 0, refused: Int = 0, busy: Int = 0, failed: Int = 0) {
            self.saved = saved
            self.refused = refused
            self.busy = busy
            self.failed = failed
        }
    }

    /// One camera's part of the session.
    public struct Camera: Sendable {
        /// The camera's name (`camera` for a session of one).
        public let name: String
        /// Its device, or the folder replayed.
        public let device: String
        /// Frame counts, rates and latencies.
        public let statistics: LiveStatistics
        /// Its own shutter's enabled stretches.
        public let stretches: [EnabledStretch]
        /// How far its pictures span the image, size and skew.
        public let coverage: ViewCoverage
    }

    /// How `--calibrate` ended for one camera.
    package struct Calibration: Sendable {
        /// The last solve, covering every picture (nil when there was none).
        package let update: LiveCalibration.Update?
        /// The folder the files go to.
        package let folder: String
        /// Why the files were not written, when they were not.
        package let failure: CalibrationError?
    }

    /// How `--calibrate` ended for a rig: the last solve, the files written, or why not.
    package struct RigCalibrationOutcome: Sendable {
        /// The solve of every set saved, when there was one.
        package let update: RigLiveCalibration.Update?
        /// The folder the files go to.
        package let folder: String
        /// The paths written.
        package let files: [String]
        /// Why the files were not written (too few sets, a failed solve or write).
        package let failure: CalibrationError?
    }

    /// Why the session stopped ("quit", "Ctrl-C", "100 frames"); nil at the end of the frames.
    public let stopReason: String?
    /// Each camera, in the session's order.
    public let cameras: [Camera]
    /// The pictures, or a rig's sets.
    public let pictures: Pictures
    /// The recording, when there was one.
    package let recording: FrameRecorder.Summary?
    /// The recording's folder.
    public let recordFolder: String?
    /// A single camera's error, when it ended with one ("/dev/video0: ... disconnected").
    public let failure: String?
    /// A rig's cameras' errors, each naming its camera.
    package let failures: [String]
    /// The cameras lost during the run.
    package let lostCameras: [String]
    /// For a rig: from the arrival of each set's later frame to the rig's state after its detection.
    package let setLatencies: [Duration]
    /// The calibration of one camera, with `--calibrate`.
    package let calibration: Calibration?
    /// The calibration of a rig, with `--calibrate`.
    package let rigCalibration: RigCalibrationOutcome?

    /// The summary of a run.
    init(stopReason: String?, cameras: [Camera], pictures: Pictures, recording: FrameRecorder.Summary?, recordFolder: String?,
         failure: String?, failures: [String] = [], lostCameras: [String] = [], setLatencies: [Duration] = [],
         calibration: Calibration? = nil, rigCalibration: RigCalibrationOutcome? = nil) {
        self.stopReason = stopReason
        self.cameras = cameras
        self.pictures = pictures
        self.recording = recording
        self.recordFolder = recordFolder
        self.failure = failure
        self.failures = failures
        self.lostCameras = lostCameras
        self.setLatencies = setLatencies
        self.calibration = calibration
        self.rigCalibration = rigCalibration
    }

    /// Whether this was a rig of several cameras.
    package var isRig: Bool { cameras.count > 1 }
    /// The first camera's counts (a single camera's).
    public var statistics: LiveStatistics { cameras[0].statistics }
    /// The first camera's shutter's enabled stretches.
    public var stretches: [EnabledStretch] { cameras[0].stretches }
    /// How far the first camera's pictures span the image, size and skew.
    public var coverage: ViewCoverage { cameras[0].coverage }

    /// Whether a picture, the recording or the calibration could not be written.
    public var writesFailed: Bool {
        pictures.failed > 0 || recording?.failure != nil || calibration?.failure != nil || rigCalibration?.failure != nil
    }

    /// A percentile (0...1) of ``setLatencies``; `nil` when no frame completed a set.
    package func setLatency(percentile fraction: Double) -> Duration? {
        guard !setLatencies.isEmpty else { return nil }
        let sorted = setLatencies.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
    }

    /// The summary as printed after a run, several lines: for one camera its frames, shutter,
    /// pictures, latency, recording and calibration; for a rig the stop, one line per camera, the
    /// sets, their latency, the cameras lost and the recording.
    public var description: String { isRig ? rigDescription : cameraDescription }

    private var cameraDescription: String {
        let statistics = statistics
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

    private var rigDescription: String {
        var lines = ["stopped: \(stopReason ?? "end of frames")"]
        for camera in cameras {
            let statistics = camera.statistics
            lines.append("  \(camera.name) (\(camera.device)): \(statistics.framesReceived) frames received, \(statistics.framesDetected) detected, "
                + "\(statistics.framesSkipped) skipped while detection was busy, \(statistics.framesLostByCamera) lost by the camera")
        }
        lines.append("  sets: \(pictures.saved) saved, \(pictures.refused) refused, \(pictures.busy) busy, \(pictures.failed) failed")
        if let median = setLatency(percentile: 0.5), let p99 = setLatency(percentile: 0.99) {
            lines.append(String(format: "  latency from a set's later frame to the rig state: median %.1f ms, 99th percentile %.1f ms",
                                median.inSeconds * 1000, p99.inSeconds * 1000))
        }
        if !lostCameras.isEmpty { lines.append("  cameras lost: \(lostCameras.joined(separator: ", "))") }
        for failure in failures { lines.append("  \(failure)") }
        if let recording, let recordFolder {
            var line = "recording: \(recording.written) frames in \(recordFolder)"
            if recording.skipped > 0 { line += " (\(recording.skipped) not recorded: the disk was behind)" }
            if let failure = recording.failure { line += "; recording stopped: \(failure)" }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
