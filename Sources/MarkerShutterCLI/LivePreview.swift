import MarkerDetection
import MarkerShutter
import PreviewWindow

/// `live --preview`: the session's frames in a window, annotated with their detection and the
/// shutter's badge; Space or Enter in the window takes a picture, `q` or closing the window quits.
struct LivePreview: Sendable {
    let window: PreviewWindow

    /// Opens the window, or says there is no display. Called before the camera or any folder is
    /// opened, so that a run without a display changes nothing.
    ///
    /// - Throws: ``RuntimeError`` (exit status 1) naming what is missing.
    static func open() throws -> LivePreview {
        do {
            return LivePreview(window: try PreviewWindow(title: "marker-shutter live"))
        } catch .noDisplay(let reason) {
            throw RuntimeError("no display: --preview needs X11 (\(reason)); run without --preview for the status line alone")
        } catch {
            throw RuntimeError("\(error)")
        }
    }

    /// Sends the window's keys to `session`, and stops it when the window is closed.
    func control(_ session: LiveSession, console: Console) {
        Task { [window] in
            for await event in window.events {
                switch event {
                case .capture: session.requestPicture()
                case .quit: session.stop(reason: "quit")
                case .closed: session.stop(reason: "preview window closed")
                case .failed(let reason): console.message(reason)
                }
            }
        }
    }

    /// Shows a frame event's frame; other events change nothing in the window.
    func show(_ event: LiveSession.Event) {
        guard case .frame(let report, _, _) = event else { return }
        window.show(PreviewWindow.Frame(
            pixels: report.pixels, detection: report.observation.detection,
            badge: Annotation.Badge(shutter: report.step.state.phase, at: report.observation.time)))
    }

    /// Closes the window.
    func close() { window.close() }
}
