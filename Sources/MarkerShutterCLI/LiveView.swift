import Debounce
import Foundation
import MarkerShutter

/// How `live` shows a session on the terminal: the status line (at most ten times a second),
/// shutter changes as lines when standard error is not a terminal, pictures (and calibration
/// files) on standard output, and messages (each background calibration among them). Its commands
/// are the keyboard's.
struct LiveView: LiveSessionView {
    let console: Console
    /// Said after a background calibration that is good enough (`--calibrate`'s rule), if any.
    let goodCalibration: String?
    let keyboard: KeyboardInput
    private let statusUpdates: Throttler<String, ContinuousClock>

    init(console: Console, goodCalibration: String?, keyboard: KeyboardInput) {
        self.console = console
        self.goodCalibration = goodCalibration
        self.keyboard = keyboard
        statusUpdates = Throttler(interval: .milliseconds(100)) { console.setStatus($0) }
    }

    /// Starts reading the keyboard: its commands go to the session, other lines get a hint.
    func attach(_ send: @escaping @Sendable (LiveSession.Command) -> LiveSession.Command.Answer) {
        keyboard.start(send: { _ = send($0) }, unknown: { [console] text in
            console.message("unknown command \"\(text)\": type capture or quit")
        })
    }

    func show(_ event: LiveSession.Event) {
        switch event {
        case .frame(let report, let shutterChanged, let guidance):
            statusUpdates.send(statusLine(report.step.state, at: report.observation.time, status: report.status) + "  "
                + Self.coverageText(guidance))
            if shutterChanged, !console.isTerminal {
                console.message(String(format: "t=%.3fs frame %d: shutter %@", report.observation.time.seconds,
                                       report.observation.index, report.step.state.phase.description))
            }
        case .shutterExpired(let expiry):
            statusUpdates.send(statusLine(expiry.state, at: expiry.time, status: expiry.status))
            if !console.isTerminal {
                console.message(String(format: "t=%.3fs no frame after frame %d: shutter %@", expiry.time.seconds,
                                       expiry.lastFrame, expiry.state.phase.description))
            }
        case .pictureSaved(let picture):
            let held = picture.holdAge.map { String(format: ", held %.2fs", $0.inSeconds) } ?? ""
            console.result("\(picture.files.image) (frame \(picture.frameIndex)\(held), \(picture.trigger.rawValue))")
        case .pictureRefused(let error): console.message("\(error)")
        case .pictureFailed(let error): console.message("picture not saved: \(error)")
        case .pictureNotTaken: console.message("picture not taken: the session is ending")
        case .recordingStopped(let error): console.message("recording stopped: \(error); the frames recorded so far are kept")
        case .frameSkipped(let file, let reason): console.message(FileNameText.escaped("skipping \(file): \(reason)"))
        case .calibrated(let update):
            let good = goodCalibration.map { " (\($0))" } ?? ""
            console.message(update.description + (update.isGood ? good : ""))
        case .calibrationFailed(let error): console.message("calibration: \(error)")
        case .calibrationWritten(let files): for file in files { console.result(file) }
        case .calibrationNotWritten(let error): console.message("calibration not written: \(error)")
        case .cameraControls(let values, let locked):
            let list = values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
            console.message((locked ? "camera controls locked: " : "camera controls set: ") + list)
        }
    }

    /// Stops the status line (before the summary).
    func finish() {
        statusUpdates.cancel()
        console.clearStatus()
    }

    /// The coverage as four bars of four cells, ROS `camera_calibration`'s X, Y, size and skew:
    /// `X▮▮▮▯ Y▮▮▯▯+ size▮▯▯▯ skew▯▯▯▯`, a `+` after each measure a picture of this view would widen.
    static func coverageText(_ guidance: LiveSession.Guidance) -> String {
        let progress = guidance.coverage, gains = guidance.gains
        let measures = [("X", progress.x, gains?.x), ("Y", progress.y, gains?.y), ("size", progress.size, gains?.size),
                        ("skew", progress.skew, gains?.skew)]
        return measures.map { name, value, gain in
            let filled = min(4, max(0, Int((value * 4).rounded(.down))))
            return name + String(repeating: "▮", count: filled) + String(repeating: "▯", count: 4 - filled)
                + ((gain ?? 0) >= 0.01 ? "+" : "")
        }.joined(separator: " ")
    }

    /// The status line for the shutter's `state` at `time`: `30.0 fps 5.1 ms  12/24  ENABLED  6 pics`
    /// (rate, detection time, markers/corners found, shutter, pictures).
    private func statusLine(_ state: ShutterState<FrameObservation>, at time: FrameTime, status: LiveSession.Status) -> String {
        let statistics = status.statistics
        let fps = statistics.framesPerSecond.map { String(format: "%.1f fps", $0) } ?? "-- fps"
        let detect = statistics.lastDetectionTime.map { String(format: "%.1f ms", $0.inSeconds * 1000) } ?? "-- ms"
        let saved = status.picturesSaved
        return "\(fps) \(detect)  \(statistics.lastCounts.markers)/\(statistics.lastCounts.corners)  \(state.phase.text(at: time))  "
            + "\(saved) pic\(saved == 1 ? "" : "s")"
    }
}
