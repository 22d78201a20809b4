public import MarkerDetection
public import MarkerShutter

extension ViewFeed {
    /// Hands a live session's event to the view: each frame with its detection and the shutter's
    /// badge, the report after it (with the session's counts the frame carries), each picture
    /// saved, and the shutter disabled by a stalled camera.
    ///
    /// - Parameters:
    ///   - event: The event, as ``LiveSession/events`` tells it.
    ///   - hold: The hold time.
    public func show(_ event: LiveSession.Event, hold: Duration) {
        switch event {
        case .frame(let report, _, let guidance):
            let state = ViewState(report: report, statistics: report.status.statistics, hold: hold, coverage: guidance.coverage)
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

extension ViewState {
    /// The badge drawn on the view's frames: the shutter (`ENABLED`, `HELD 0.12s`, `disabled`) and
    /// what was found, green unless the shutter is disabled.
    public var badge: Annotation.Badge {
        Annotation.Badge(shutter: phase, at: time, detail: "\(markers) markers, \(corners) corners")
    }
}
