import BrowserView
import Calibration
import MarkerDetection
import MarkerShutter
import PreviewWindow
import Synchronization

/// `live --preview`: the session's frames in a window, annotated with their detection and the
/// shutter's badge; Space or Enter in the window takes a picture, `q` or closing the window quits.
/// For a rig, the cameras side by side, each with its badge, under the rig's; Space or Enter takes a set.
/// With `--calibrate`, a panel under the frames shows the newest background calibration
/// (``CalibrationPanel``): the verdict, the RMS error, fx fy cx cy with their 95% intervals, the
/// first advice and the uncertainty map, small, in its corner; a rig's, its summary from `rig:` on.
struct LivePreview: LiveSessionView {
    let window: PreviewWindow
    /// Where a frame the window could not show is reported.
    let console: Console
    /// A rig's newest frames and states, when the window shows a rig.
    private final class RigBox: Sendable {
        let view = Mutex<RigView?>(nil)
    }

    private let rig = RigBox()

    /// The newest calibration the panel shows: a camera's, or a rig's summary lines, and why the
    /// newest solve failed.
    private struct ShownCalibration: Sendable {
        var camera: ViewCalibration?
        var rigLines: [String]?
        var failure: String?

        /// The panel's lines for a picture `width` pixels wide; empty before the first solve.
        func lines(width: Int, map: Bool) -> [CalibrationPanel.Line] {
            let textWidth = width - (map ? CalibrationPanel.mapHeight * 4 / 3 + 16 : 0) - 16
            if let rigLines {
                let joint = rigLines.drop { !$0.hasPrefix("rig:") }.prefix(LivePreview.rigLineLimit)
                return joint.map { CalibrationPanel.Line($0) }
                    + CalibrationPanel.lines(for: nil, failure: failure, width: textWidth)
            }
            guard camera != nil || failure != nil else { return [] }
            return CalibrationPanel.lines(for: camera, failure: failure, width: textWidth)
        }
    }

    private final class CalibrationBox: Sendable {
        let value = Mutex(ShownCalibration())
    }

    private let calibration = CalibrationBox()

    /// One camera's newest frame, drawn again when a solve ends.
    private final class FrameBox: Sendable {
        let frame = Mutex<PreviewWindow.Frame?>(nil)
    }

    private let newest = FrameBox()
    /// The most lines of a rig's summary the panel shows.
    static let rigLineLimit = 8

    init(window: PreviewWindow, console: Console) {
        self.window = window
        self.console = console
    }

    /// Opens the window, or says there is no display. Called before the camera or any folder is
    /// opened, so that a run without a display changes nothing.
    ///
    /// - Throws: ``RuntimeError`` (exit status 1) naming what is missing.
    static func open(console: Console) throws -> LivePreview {
        do {
            return LivePreview(window: try PreviewWindow(title: "marker-shutter live"), console: console)
        } catch .noDisplay(let reason) {
            throw RuntimeError("no display: --preview needs X11 (\(reason)); run without --preview for the status line alone")
        } catch {
            throw RuntimeError("\(error)")
        }
    }

    /// The session's command for something done at the window; `nil` for a failure to show a frame.
    static func command(for event: PreviewWindow.Event) -> LiveSession.Command? {
        switch event {
        case .capture: .capture
        case .quit: .stop(reason: "quit")
        case .closed: .stop(reason: "preview window closed")
        case .failed: nil
        }
    }

    /// Sends the window's keys to the session, and stops it when the window is closed.
    func attach(_ send: @escaping @Sendable (LiveSession.Command) -> LiveSession.Command.Answer) {
        Task { [window, console] in
            for await event in window.events {
                if let command = Self.command(for: event) {
                    _ = send(command)
                } else if case .failed(let reason) = event {
                    console.message(reason)
                }
            }
        }
    }

    /// Shows the rig in the window from now on: the cameras side by side, each waiting for its first frame.
    ///
    /// - Parameters:
    ///   - cameras: The rig's cameras' names, in its order.
    ///   - folder: The folder the sets go to.
    func showRig(cameras: [String], folder: String) {
        rig.view.withLock { $0 = RigView(cameras: cameras, folder: folder) }
    }

    /// Shows a frame event's frame, annotated; a background solve, or its failure, draws the newest
    /// picture again with its panel; other events change nothing in the window. For a rig, the
    /// cameras' newest frames side by side, drawn on the window's thread only when the window gets
    /// to them.
    func show(_ event: LiveSession.Event) {
        switch event {
        case .calibrated(let update):
            let shown = ViewCalibration(update)
            calibration.value.withLock { $0.camera = shown; $0.failure = nil }
            showAgain()
            return
        case .rigCalibrated(let update):
            let lines = update.report.summary
            calibration.value.withLock { $0.rigLines = lines; $0.failure = nil }
            showAgain()
            return
        case .calibrationFailed(let error):
            calibration.value.withLock { $0.failure = "\(error)" }
            showAgain()
            return
        default: break
        }
        let picture = rig.view.withLock { stored -> (RigView, Bool)? in
            guard var view = stored else { return nil }
            let changed = view.apply(event)
            stored = view
            return (view, changed)
        }
        if let (view, changed) = picture {
            if changed { showRig(view) }
            return
        }
        guard case .frame(let report, _, _) = event else { return }
        let frame = PreviewWindow.Frame(pixels: report.pixels, detection: report.observation.detection,
                                        badge: Annotation.Badge(shutter: report.step.state.phase, at: report.observation.time))
        newest.frame.withLock { $0 = frame }
        showCamera(frame)
    }

    /// Draws the newest picture again with the newest calibration: a solve may end after the last
    /// frame (a camera stalled, a replay paused), and is shown then rather than at the next frame.
    private func showAgain() {
        if let view = rig.view.withLock({ $0 }) {
            showRig(view)
        } else if let frame = newest.frame.withLock({ $0 }) {
            showCamera(frame)
        }
    }

    /// Shows one camera's frame, annotated, with the newest calibration's panel under it once there is one.
    private func showCamera(_ frame: PreviewWindow.Frame) {
        let shown = calibration.value.withLock { $0 }
        guard shown.camera != nil || shown.failure != nil else {
            window.show(frame)
            return
        }
        window.show(making: {
            let drawn = try Annotation.draw(frame.detection, on: frame.pixels, badge: frame.badge)
            let map = shown.camera?.map
            return try CalibrationPanel.compose(drawn, lines: shown.lines(width: drawn.width, map: map != nil), map: map)
        })
    }

    /// Shows the rig's cameras side by side under its badge, with the newest calibration's panel
    /// under them, drawn on the window's thread.
    private func showRig(_ view: RigView) {
        let (panels, badge) = (view.panels, view.badge)
        let shown = calibration.value.withLock { $0 }
        window.show(making: {
            let picture = try SideBySide.compose(panels, rig: badge)
            let lines = shown.lines(width: picture.width, map: false)
            return lines.isEmpty ? picture : try CalibrationPanel.compose(picture, lines: lines, map: nil)
        })
    }

    /// Closes the window.
    func close() { window.close() }
}
