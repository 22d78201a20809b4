/// A view of a live session (the terminal, the browser view, the preview window): it is shown each
/// of the session's events and sends its commands back through the function it is given. Every
/// view attaches the same way, through ``LiveSession/present(to:)``.
package protocol LiveSessionView: Sendable {
    /// Called once, before the first event: the view keeps `send` and calls it for each command
    /// (a key, a button, a request), getting the session's answer back.
    func attach(_ send: @escaping @Sendable (LiveSession.Command) -> LiveSession.Command.Answer)

    /// Shows one event. Events carry everything a view shows (``LiveSession/Status`` among them).
    func show(_ event: LiveSession.Event)
}
