import Debounce
import Foundation
import MarkerShutter
import Synchronization

/// How `live` shows a session on the terminal: the status line (at most ten times a second),
/// shutter changes as lines when standard error is not a terminal, pictures (and calibration
/// files) on standard output, and messages (each background calibration among them), one line per
/// change of a camera's condition. For a rig: each change of the rig as a line (a stall once, not
/// as it grows longer), the sets saved on standard output. Its commands are the
/// keyboard's.
struct LiveView: LiveSessionView {
    let console: Console
    /// Said after a background calibration that is good enough (`--calibrate`'s rule), if any.
    let goodCalibration: String?
    let keyboard: KeyboardInput
    /// The cameras' names, for a rig of several; empty for one camera.
    let rigCameras: [String]
    private let statusUpdates: Throttler<String, ContinuousClock>
    /// The first frame's time: the lines count seconds from it, the session's start (a camera's
    /// own clock counts from the machine's start).
    private let start = SessionStart()

    init(console: Console, goodCalibration: String?, keyboard: KeyboardInput, rigCameras: [String] = []) {
        self.console = console
        self.goodCalibration = goodCalibration
        self.keyboard = keyboard
        self.rigCameras = rigCameras
        statusUpdates = Throttler(interval: .milliseconds(100)) { console.setStatus($0) }
    }

    /// Starts reading the keyboard: its commands go to the session, other lines get a hint.
    func attach(_ send: @escaping @Sendable (LiveSession.Command) -> LiveSession.Command.Answer) {
        keyboard.start(send: { _ = send($0) }, unknown: { [console] text in
            console.message("unknown command \"\(text)\": type capture or quit")
        })
    }

    func show(_ event: LiveSession.Event) {
        if !rigCameras.isEmpty { return showRig(event) }
        switch event {
        case .frame(let report, let shutterChanged, let guidance):
            start.note(report.observation.time)
            statusUpdates.send(statusLine(report.step.state, at: report.observation.time, status: report.status) + "  "
                + Self.coverageText(guidance))
            if shutterChanged, !console.isTerminal {
                console.message(String(format: "t=%.3fs frame %d: shutter %@", start.seconds(at: report.observation.time),
                                       report.observation.index, report.step.state.phase.description))
            }
        case .shutterExpired(let expiry):
            statusUpdates.send(statusLine(expiry.state, at: expiry.time, status: expiry.status))
            if !console.isTerminal {
                console.message(String(format: "t=%.3fs no frame after frame %d: shutter %@", start.seconds(at: expiry.time),
                                       expiry.lastFrame, expiry.state.phase.description))
            }
        case .pictureSaved(let picture):
            let held = picture.holdAge.map { String(format: ", held %.2fs", $0.inSeconds) } ?? ""
            console.result("\(picture.image) (frame \(picture.frameIndex)\(held), \(picture.trigger.rawValue))")
        case .pictureRefused(.rigDisabled(let refusal)): console.message("no picture taken: \(refusal)")
        case .pictureRefused(let error): console.message("\(error)")
        case .pictureFailed(let error): console.message("picture not saved: \(error)")
        case .pictureNotTaken: console.message("picture not taken: the session is ending")
        case .recordingStopped(let error): console.message("recording stopped: \(error); the frames recorded so far are kept")
        case .frameSkipped(_, let file, let reason): console.message(FileNameText.escaped("skipping \(file): \(reason)"))
        case .calibrated(let update):
            let good = goodCalibration.map { " (\($0))" } ?? ""
            console.message(update.description + (update.isGood ? good : ""))
        case .calibrationFailed(let error): console.message("calibration: \(error)")
        case .calibrationWritten(let files): for file in files { console.result(file) }
        case .calibrationNotWritten(let error): console.message("calibration not written: \(error)")
        case .cameraControls(_, let values, let locked):
            console.message((locked ? "camera controls locked: " : "camera controls set: ") + Self.list(values))
        case .cameraChanged(_, let condition):
            console.message("camera " + Self.text(condition))
        case .rigChanged, .rigCalibrated:
            break
        }
    }

    /// A rig's event: changes of the rig as lines, the rig on the status line, sets on standard output.
    private func showRig(_ event: LiveSession.Event) {
        switch event {
        case .frame(let report, _, _):
            guard let state = report.rig else { return }
            if report.rigChanged { console.message(line(state)) }
            statusUpdates.send(line(state))
        case .rigChanged(let state):
            console.message(line(state))
        case .pictureSaved(let saved):
            console.result("\(saved.sidecar) (\(saved.images.joined(separator: ", ")); "
                + String(format: "%.1f ms apart", saved.largestDifference * 1000) + ", \(saved.trigger.rawValue))")
        case .pictureRefused(.rigDisabled(let refusal)): console.message("no set taken: \(refusal)")
        case .pictureRefused(let error): console.message("no set taken: \(error)")
        case .pictureFailed(let error): console.message("set not saved: \(error)")
        case .pictureNotTaken: console.message("set not taken: the session is ending")
        case .cameraChanged(let camera, let condition):
            console.message("camera \(name(camera)) " + Self.text(condition))
        case .cameraControls(let camera, let values, let locked):
            console.message("\(name(camera)): camera controls \(locked ? "locked" : "set"): \(Self.list(values))")
        case .rigCalibrated(let update): console.message("\(update)")
        case .calibrationFailed(let error): console.message("rig calibration: \(error)")
        case .recordingStopped(let error): console.message("recording stopped: \(error); the frames recorded so far are kept")
        case .frameSkipped(let camera, let file, let reason):
            console.message(FileNameText.escaped("\(name(camera)): skipping \(file): \(reason)"))
        case .shutterExpired, .calibrated, .calibrationWritten, .calibrationNotWritten:
            break
        }
    }

    private func name(_ camera: Int) -> String { rigCameras.indices.contains(camera) ? rigCameras[camera] : "\(camera)" }

    /// `rig enabled: frames 3.2 ms apart (left enabled, right held)` or `rig disabled: REASON (...)`.
    private func line(_ state: RigState) -> String {
        let cameras = zip(rigCameras, state.cameras).map { "\($0) \($1)" }.joined(separator: ", ")
        guard let set = state.set else { return "rig disabled: \(state.refusal.map { "\($0)" } ?? "") (\(cameras))" }
        let difference = String(format: "%.1f", set.largestDifference.inSeconds * 1000)
        return "rig enabled: frames \(difference) ms apart (\(cameras))"
    }

    /// `exposure_absolute=400, gain=10`: controls by name, in name order.
    private static func list(_ values: [String: Int64]) -> String {
        values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
    }

    /// A camera's condition after its name: `stalled: no frame for 167 ms`, `back after 2.512 s`, `lost: REASON`.
    private static func text(_ condition: LiveSession.CameraCondition) -> String {
        switch condition {
        case .stalled(let limit): "stalled: no frame for \(Int((limit.inSeconds * 1000).rounded())) ms"
        case .back(let after): "back" + (after.map { String(format: " after %.3f s", $0.inSeconds) } ?? "")
        case .lost(let reason): "lost: \(reason)"
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

/// When a session's frames began, on their clock: the first frame's time.
private final class SessionStart: Sendable {
    private let first = Mutex<FrameTime?>(nil)

    /// Notes a frame's time; the first one noted is the start.
    func note(_ time: FrameTime) { first.withLock { $0 = $0 ?? time } }

    /// Seconds from the start to `time` (from `time` itself before any frame).
    func seconds(at time: FrameTime) -> Double { first.withLock { ($0 ?? time).duration(to: time).inSeconds } }
}
