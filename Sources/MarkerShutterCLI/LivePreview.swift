import MarkerDetection
import MarkerShutter
import PreviewWindow

/// `live --preview`: the session's frames in a window, annotated with their detection and the
/// shutter's badge; Space or Enter in the window takes a picture, `q` or closing the window quits.
struct LivePreview: LiveSessionView {
    let window: PreviewWindow
    /// Where a frame the window could not show is reported.
    let console: Console

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
