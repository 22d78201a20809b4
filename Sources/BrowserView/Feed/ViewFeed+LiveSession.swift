import Calibration
public import MarkerDetection
public import MarkerShutter

extension ViewFeed {
    /// Hands a live session's event to the view. For one camera: each frame with its detection and
    /// the shutter's badge, the report after it (with the camera's counts the frame carries), each
    /// picture saved, the shutter disabled by a stalled camera, and each background calibration
    /// (``ViewCalibration``; a rig's as its summary lines) or why it failed. For a rig (once
    /// ``showRig(cameras:folder:)`` was called): each camera's frame with its detection and the
    /// cameras' and the rig's states, and each set saved; the cameras are drawn side by side
    /// (``SideBySide``) only while someone watches, from the newest frame of each.
    ///
    /// - Parameters:
    ///   - event: The event, as ``LiveSession/events`` tells it.
    ///   - hold: The hold time.
    public func show(_ event: LiveSession.Event, hold: Duration) {
        switch event {
        case .calibrated(let update): return show(ViewCalibration(update))
        case .rigCalibrated(let update): return showRigCalibration(update.report.summary)
        case .calibrationFailed(let error): return calibrationFailed("\(error)")
        default: break
        }
        if showsRig {
            changeRig({ $0.apply(event) }, start: { RigView(cameras: [], folder: "") })
            return
        }
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
            add(ViewPicture(number: picture.number, file: picture.image, frameIndex: picture.frameIndex, trigger: picture.trigger,
                            holdAge: picture.holdAge, pixels: picture.pixels))
        default:
            break
        }
    }

    /// Shows a rig before its first event: every camera waiting for its first frame, so that the
    /// page shows the rig from the start; the session's events then go to the rig.
    ///
    /// - Parameters:
    ///   - cameras: The rig's cameras' names, in its order.
    ///   - folder: The picture folder the sets go to.
    public func showRig(cameras: [String], folder: String) {
        changeRig({ _ in true }, start: { RigView(cameras: cameras, folder: folder) })
    }

    /// The rig as the view shows it now, or `nil` when the feed shows no rig.
    public var rig: RigView? { snapshot.rig }
}

extension ViewState {
    /// The badge drawn on the view's frames: the shutter (`ENABLED`, `HELD 0.12s`, `disabled`) and
    /// what was found, green unless the shutter is disabled.
    public var badge: Annotation.Badge {
        Annotation.Badge(shutter: phase, at: time, detail: "\(markers) markers, \(corners) corners")
    }
}
