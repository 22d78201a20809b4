/// What the page (or a script) asks the session to do: the same commands as the keyboard.
public enum ViewCommand: String, Sendable, Hashable, CaseIterable {
    /// Take a picture of the held frame (`POST /capture`, space).
    case capture
    /// End the session (`POST /stop`, q).
    case stop

    /// The session's answer, returned to the client that asked.
    public enum Answer: Sendable, Hashable {
        /// Done or under way (a picture is being written; it arrives as a picture event).
        case accepted
        /// Not done, and why (for a capture: the text the terminal prints, such as
        /// "shutter disabled: no valid detection is held, so no picture was taken").
        case refused(reason: String)
    }
}
