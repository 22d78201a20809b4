public import MarkerShutter

extension ViewFeed {
    /// Hands a rig session's event to the view: each camera's frame with its detection and the
    /// cameras' and the rig's states, and each set saved. The cameras are drawn side by side
    /// (``SideBySide``) only while someone watches, from the newest frame of each.
    ///
    /// - Parameters:
    ///   - event: The event, as ``RigSession/events`` tells it.
    ///   - cameras: The rig's cameras' names, in its order.
    ///   - folder: The picture folder the sets go to (their names are shown below it).
    public func show(_ event: RigSession.Event, cameras: [String], folder: String) {
        changeRig({ $0.apply(event) }, start: { RigView(cameras: cameras, folder: folder) })
    }

    /// Shows a rig before its first event: every camera waiting for its first frame, so that the
    /// page shows the rig from the start.
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

extension RigSession.SetRequest {
    /// The answer the view's `POST /capture` gives for a set asked for: accepted, or refused with
    /// the rig's reason in the terminal's words (`left does not see the board`).
    public var commandAnswer: LiveSession.Command.Answer {
        switch self {
        case .accepted: .accepted
        case .refused(let refusal): .refused(reason: "\(refusal)")
        case .busy: .refused(reason: "too many sets wait to be written; try again")
        case .notTaken: .refused(reason: "the session is ending")
        }
    }
}

extension RigSession {
    /// A command from a view, sent to the rig: `capture` asks for a set, `stop` ends the session.
    ///
    /// - Returns: The answer the view gives back.
    public func send(_ command: LiveSession.Command) -> LiveSession.Command.Answer {
        switch command {
        case .capture:
            return requestSet().commandAnswer
        case .stop(let reason):
            stop(reason: reason)
            return .accepted
        }
    }
}
