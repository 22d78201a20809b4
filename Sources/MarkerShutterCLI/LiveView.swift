import Debounce
import Foundation
import MarkerShutter

/// How `live` shows a session on the terminal: the status line (at most ten times a second),
/// shutter changes as lines when standard error is not a terminal, pictures on standard output,
/// and messages.
struct LiveView: Sendable {
    let console: Console
    let session: LiveSession
    private let statusUpdates: Throttler<String, ContinuousClock>

    init(console: Console, session: LiveSession) {
        self.console = console
        self.session = session
        statusUpdates = Throttler(interval: .milliseconds(100)) { console.setStatus($0) }
    }

    func show(_ event: LiveSession.Event) {
        switch event {
        case .frame(let report, let shutterChanged):
            statusUpdates.send(statusLine(report.step.state, at: report.observation.time))
            if shutterChanged, !console.isTerminal {
                console.message(String(format: "t=%.3fs frame %d: shutter %@", report.observation.time.seconds,
                                       report.observation.index, report.step.state.phase.description))
            }
        case .shutterExpired(let expiry):
            statusUpdates.send(statusLine(expiry.state, at: expiry.time))
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
        }
    }

    /// Stops the status line (before the summary).
    func finish() {
        statusUpdates.cancel()
        console.clearStatus()
    }

    /// The status line for the shutter's `state` at `time`.
    private func statusLine(_ state: ShutterState<FrameObservation>, at time: FrameTime) -> String {
        let statistics = session.statistics
        let shutterText: String
        switch state.phase {
        case .enabled: shutterText = "ENABLED"
        case .held: shutterText = String(format: "HELD %.2fs", state.holdAge(at: time)?.inSeconds ?? 0)
        case .disabled: shutterText = "disabled"
        }
        let fps = statistics.framesPerSecond.map { String(format: "%.1f fps", $0) } ?? "-- fps"
        let detect = statistics.lastDetectionTime.map { String(format: "detect %.1f ms", $0.inSeconds * 1000) } ?? "detect --"
        let saved = session.picturesSaved
        return "\(fps) | \(detect) | \(statistics.lastCounts.markers) markers \(statistics.lastCounts.corners) corners | "
            + "\(shutterText) | \(saved) picture\(saved == 1 ? "" : "s")"
    }
}
