public import Calibration

/// How a rig session went: why it stopped, each camera's frames, the sets, the calibration.
public struct RigSummary: Sendable, CustomStringConvertible {
    /// What became of `--calibrate`: the last solve, the files written, or why not.
    public struct Calibration: Sendable {
        /// The solve of every set saved, when there was one.
        public let update: RigLiveCalibration.Update?
        /// The folder the files go to.
        public let folder: String
        /// The paths written.
        public let files: [String]
        /// Why the files were not written (too few sets, a failed solve or write).
        public let failure: CalibrationError?
    }

    /// One camera's counts.
    public struct Camera: Sendable, Equatable {
        /// The camera's name.
        public let name: String
        /// Its device, or the folder replayed.
        public var device: String
        /// Frames it delivered.
        public var received = 0
        /// Frames detected.
        public var detected = 0
        /// Frames replaced while its detection was busy.
        public var skipped = 0
        /// Frames the camera reported lost before delivering.
        public var lostByCamera = 0
        /// Frames whose detection failed.
        public var detectionFailures = 0

        init(name: String, device: String) {
            self.name = name
            self.device = device
        }
    }

    /// Sets saved, refused and failed.
    public struct Sets: Sendable, Equatable {
        /// Sets written.
        public var saved = 0
        /// Requests refused because the rig was disabled.
        public var refused = 0
        /// Requests refused because earlier sets were still being written.
        public var busy = 0
        /// Sets that could not be written.
        public var failed = 0
    }

    /// Why the session stopped; `nil` at the end of the frames.
    public let stopReason: String?
    /// Each camera, in the rig's order.
    public let cameras: [Camera]
    /// The sets.
    public let sets: Sets
    /// The cameras lost during the run.
    public let lostCameras: [String]
    /// The cameras' errors, each naming its camera.
    public let failures: [String]
    /// From the arrival of each set's later frame to the rig's state after its detection.
    public let setLatencies: [Duration]
    /// The recording's folder and counts, when the frames were recorded.
    public internal(set) var recording: (folder: String, summary: FrameRecorder.Summary)?
    /// The calibration, with `--calibrate`.
    public internal(set) var calibration: Calibration?

    init(stopReason: String?, cameras: [Camera], sets: Sets, lostCameras: [String], failures: [String], setLatencies: [Duration] = []) {
        self.stopReason = stopReason
        self.cameras = cameras
        self.sets = sets
        self.lostCameras = lostCameras
        self.failures = failures
        self.setLatencies = setLatencies
    }

    /// A percentile (0...1) of ``setLatencies``; `nil` when no frame completed a set.
    public func setLatency(percentile fraction: Double) -> Duration? {
        guard !setLatencies.isEmpty else { return nil }
        let sorted = setLatencies.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
    }

    /// Whether writing failed (a set not saved).
    public var writesFailed: Bool { sets.failed > 0 }

    /// Lines for the terminal: the stop, one line per camera, the sets, the cameras lost.
    public var description: String {
        var lines = ["stopped: \(stopReason ?? "end of frames")"]
        for camera in cameras {
            lines.append("  \(camera.name) (\(camera.device)): \(camera.received) frames received, \(camera.detected) detected, "
                + "\(camera.skipped) skipped while detection was busy, \(camera.lostByCamera) lost by the camera")
        }
        lines.append("  sets: \(sets.saved) saved, \(sets.refused) refused, \(sets.busy) busy, \(sets.failed) failed")
        if let median = setLatency(percentile: 0.5), let p99 = setLatency(percentile: 0.99) {
            lines.append(String(format: "  latency from a set's later frame to the rig state: median %.1f ms, 99th percentile %.1f ms",
                                median.inSeconds * 1000, p99.inSeconds * 1000))
        }
        if !lostCameras.isEmpty { lines.append("  cameras lost: \(lostCameras.joined(separator: ", "))") }
        for failure in failures { lines.append("  \(failure)") }
        if let (folder, summary) = recording {
            var line = "recording: \(summary.written) frames in \(folder)"
            if summary.skipped > 0 { line += " (\(summary.skipped) not recorded: the disk was behind)" }
            if let failure = summary.failure { line += "; recording stopped: \(failure)" }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
