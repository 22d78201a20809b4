import BrowserView
import MarkerShutter
import Synchronization

/// `live --serve`: the browser view beside the terminal. Listens before the session starts (so a
/// port that cannot be bound fails before anything opens), feeds the session's events to the page
/// and sends its commands to the session as the keyboard does. Shows one camera's session or a rig's.
final class BrowserServing: LiveSessionView {
    private let feed = ViewFeed()
    private let server: ViewServer
    /// The hold, for the page's badge.
    private let hold: Duration
    /// Where the page's commands go, once the session is attached (the page may ask before).
    private final class CommandSlot: Sendable {
        let send = Mutex<(@Sendable (LiveSession.Command) -> LiveSession.Command.Answer)?>(nil)
    }

    private let slot = CommandSlot()
    private let serving: Task<Void, any Error>
    /// The page's address, with the port actually bound and the token.
    let pageURL: String

    /// Starts listening as `options` say; the connection limits follow from the limit on open files.
    ///
    /// - Throws: `RuntimeError` when the address cannot be bound.
    init(_ options: ServeOptions, address: ServeAddress, hold: Duration) async throws {
        self.hold = hold
        let access = try ViewAccess(token: options.token)
        let slot = slot
        let configuration = ViewServer.Configuration(address: address, access: access, allowedHosts: options.allowHost,
                                                     viewFPS: options.viewFPS)
        server = try ViewServer(feed: feed, configuration: configuration) { command in
            guard let send = slot.send.withLock({ $0 }) else { return .refused(reason: "the session has not started yet") }
            return send(command)
        }
        let (bound, boundContinuation) = AsyncStream.makeStream(of: Int.self)
        let server = server
        serving = Task {
            defer { boundContinuation.finish() }
            try await server.run { port in boundContinuation.yield(port) }
        }
        var port: Int?
        for await value in bound {
            port = value
            break
        }
        guard let port else {
            let reason: String
            do {
                try await serving.value
                reason = "the server stopped"
            } catch {
                reason = "\(error)"
            }
            throw RuntimeError("cannot serve the browser view on \(address): \(reason)")
        }
        pageURL = ServeAddress(host: address.host, port: port).pageURL(token: options.token)
    }

    /// Returns once a browser reads the page's streams.
    func waitForViewer() async { await feed.waitForAudience() }

    /// From now on the page's commands go to `send`.
    func attach(_ send: @escaping @Sendable (LiveSession.Command) -> LiveSession.Command.Answer) {
        slot.send.withLock { $0 = send }
    }

    /// Hands one of the session's events to the page.
    func show(_ event: LiveSession.Event) {
        feed.show(event, hold: hold)
    }

    /// Shows the rig on the page, every camera waiting for its first frame.
    func showRig(cameras: [String], folder: String) {
        feed.showRig(cameras: cameras, folder: folder)
    }

    /// Ends the page's streams with `reason` and stops serving.
    func finish(reason: String) async {
        feed.finish(reason: reason)
        await server.stop()
        _ = try? await serving.value
    }
}
