extension LiveSession {
    /// What a person or a script asks of a running session. The keyboard, the browser view and the
    /// preview window all speak it, and ``send(_:)`` is the one place it is carried out.
    public enum Command: Sendable, Hashable {
        /// Take a picture of the held valid frame.
        case capture
        /// End the session; `reason` is what the summary says ("quit", "preview window closed").
        case stop(reason: String)

        /// The session's answer to a command, given at once; the events tell the rest.
        public enum Answer: Sendable, Hashable {
            /// Done or under way (a picture being written arrives as ``Event/pictureSaved(_:)``).
            case accepted
            /// Not done, and why, in the words the terminal prints (for a capture while the shutter
            /// is disabled: "shutter disabled: no valid detection is held, so no picture was taken").
            case refused(reason: String)
        }

        /// The command's name, as the browser view's endpoints and the line commands spell it:
        /// `capture` or `stop`.
        public var name: String {
            switch self {
            case .capture: "capture"
            case .stop: "stop"
            }
        }
    }

    /// Carries out `command`, whoever sent it.
    ///
    /// - Returns: `.accepted`, or `.refused` with the reason: the shutter is disabled, too many
    ///   pictures wait to be written, or the session is ending. A stop is always accepted (only the
    ///   first stop's reason is kept).
    @discardableResult
    public func send(_ command: Command) -> Command.Answer {
        switch command {
        case .capture:
            switch requestPicture() {
            case .accepted: return .accepted
            case .refused(let error): return .refused(reason: "\(error)")
            case .notTaken: return .refused(reason: "the session is ending: no more pictures are taken")
            }
        case .stop(let reason):
            stop(reason: reason)
            return .accepted
        }
    }

    /// Shows every event to `views`, in order, until the session ends; each view is attached
    /// first, so that its commands reach ``send(_:)``.
    ///
    /// - Parameter views: The terminal, the browser view, the preview window: each is shown the same
    ///   events and none asks the session back (the events carry what they show).
    package func present(to views: [any LiveSessionView]) async {
        for view in views { view.attach { [self] command in send(command) } }
        for await event in events {
            for view in views { view.show(event) }
        }
    }
}
