public import MarkerDetection
public import MarkerShutter

extension ViewFeed {
    /// Hands a live session's event to the view: each frame with its detection and the shutter's
    /// badge, the report after it, each picture saved, and the shutter disabled by a stalled camera.
    ///
    /// - Parameters:
    ///   - event: The event, as ``LiveSession/events`` tells it.
    ///   - statistics: The session's statistics now (for the frame rate).
    ///   - hold: The hold time.
    public func show(_ event: LiveSession.Event, statistics: LiveStatistics, hold: Duration) {
        switch event {
        case .frame(let report, _, let guidance):
            let state = ViewState(report: report, statistics: statistics, hold: hold, coverage: guidance.coverage)
            if let pixels = report.observation.pixels {
                show(.pixels(pixels, detection: report.observation.detection, badge: state.badge))
            }
            update(state)
        case .shutterExpired(let expiry):
            guard var state = snapshot.report else { return }
            state.phase = expiry.state.phase
            state.time = expiry.time
            update(state)
        case .pictureSaved(let picture):
            add(ViewPicture(files: picture.files, frameIndex: picture.frameIndex, trigger: picture.trigger,
                            holdAge: picture.holdAge, pixels: picture.pixels))
        default:
            break
        }
    }
}

extension LiveSession {
    /// Carries out a command from the view, with the keyboard's answer: a capture is refused with the
    /// reason the terminal prints when the shutter is disabled or the session is ending.
    public func answer(_ command: ViewCommand) -> ViewCommand.Answer {
        switch command {
        case .capture:
            switch requestPicture() {
            case .accepted: return .accepted
            case .refused(let error): return .refused(reason: "\(error)")
            case .notTaken: return .refused(reason: "the session is ending: no more pictures are taken")
            }
        case .stop:
            stop(reason: "stopped from the browser view")
            return .accepted
        }
    }
}

extension ViewState {
    /// The badge drawn on the view's frames: the shutter (`ENABLED`, `HELD 0.12s`, `disabled`) and
    /// what was found, green unless the shutter is disabled.
    public var badge: Annotation.Badge {
        Annotation.Badge(shutter: phase, at: time, detail: "\(markers) markers, \(corners) corners")
    }
}
