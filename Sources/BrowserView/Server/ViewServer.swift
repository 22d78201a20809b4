import Foundation
import Hummingbird
import Logging
public import MarkerShutter
import NIOCore
import ServiceLifecycle
import SystemCalls
import Synchronization

/// The browser view over HTTP: the page, the MJPEG stream, the state, its events and the commands.
///
/// | endpoint | answer |
/// |---|---|
/// | `GET /` | the page (self-contained: no file or script from elsewhere) |
/// | `GET /stream.mjpg` | `multipart/x-mixed-replace` JPEGs of the newest frames (a rig's cameras side by side), at most ``Configuration/viewFPS`` a second |
/// | `GET /state` | the current report as JSON, with the recent pictures and their thumbnails; for a rig, `rig` (its state, each camera's, the sets); with `live --calibrate`, `calibration` (the newest solve: verdict, RMS, fx fy cx cy with 95% intervals, advice) |
/// | `GET /calibration/uncertainty.png` | the newest solve's projection-uncertainty map, drawn as uncertainty.png is, once per solve; 404 before the first |
/// | `GET /events` | Server-Sent Events: `state` on each new report (a slow client gets the newest), `shutter` on every change of the shutter's phase (none skipped; a client that joins late gets those before it), `picture` on each picture, `end` at the end |
/// | `POST /capture`, `POST /stop` | the command's answer as JSON: 200 when accepted, 409 with the reason when refused |
///
/// Every request is checked first (``ViewRequestPolicy``): a `Host` that is not the server's gets
/// 421, a request that changes something from another site's page 403, and, with a token
/// (``ViewAccess``), a request without it 401. Every answer forbids framing and type sniffing.
/// Connections and streams are held to ``ConnectionLimits``, and a client that does not read what
/// it is sent within ``Configuration/writeDeadline`` is disconnected.
///
/// ```swift
/// let feed = ViewFeed()
/// let server = try ViewServer(feed: feed, configuration: .init(address: ServeAddress(parsing: "8080"))) { command in
///     command == .capture ? .refused(reason: "shutter disabled") : .accepted
/// }
/// try await server.run { port in print("serving on port \(port)") }   // until stop()
/// ```
public final class ViewServer: Sendable {
    /// How the view serves.
    public struct Configuration: Sendable {
        /// Where to listen.
        public var address: ServeAddress
        /// The token requests must carry, if any.
        public var access: ViewAccess
        /// The most frames per second sent to each viewer (`--view-fps`, default 15), in ``viewFPSRange``.
        public var viewFPS: Int
        /// The view rates a server takes.
        public static let viewFPSRange = 1...120
        /// JPEG quality for frames given as pixels, 1...100.
        public var jpegQuality: Int
        /// Names besides the server's own that requests may give as `Host` (see ``HostPolicy``).
        public var allowedHosts: [String]
        /// How many connections stay open; `nil`: ``ConnectionLimits/forOpenFileLimit(_:)`` of the
        /// process's limit when the server is made.
        public var connectionLimits: ConnectionLimits?
        /// How long one write to a client (the head of an answer, a part of a stream) may wait for
        /// the client to read before its connection is closed (``defaultWriteDeadline``).
        public var writeDeadline: Duration
        /// A client that has not taken a write for this long is taken to have stopped reading.
        public static let defaultWriteDeadline = Duration.seconds(5)
        /// The clock that paces the stream and times the writes (a manual clock in tests).
        public var clock: any Clock<Duration>

        /// A configuration: no token, no further host names, 15 frames per second, quality 80,
        /// connection limits for the process's open-file limit, writes that must be taken within
        /// ``defaultWriteDeadline``, the continuous clock.
        public init(address: ServeAddress, access: ViewAccess = .open, allowedHosts: [String] = [], viewFPS: Int = 15,
                    jpegQuality: Int = 80, connectionLimits: ConnectionLimits? = nil,
                    writeDeadline: Duration = defaultWriteDeadline, clock: any Clock<Duration> = ContinuousClock()) {
            self.address = address
            self.access = access
            self.allowedHosts = allowedHosts
            self.connectionLimits = connectionLimits
            self.viewFPS = viewFPS
            self.jpegQuality = jpegQuality
            self.writeDeadline = writeDeadline
            self.clock = clock
        }
    }

    /// What the session answers to a command: `POST /capture` sends ``LiveSession/Command/capture``,
    /// `POST /stop` sends ``LiveSession/Command/stop(reason:)`` with ``stopReason``.
    public typealias CommandHandler = @Sendable (LiveSession.Command) async -> LiveSession.Command.Answer

    /// Where the newest calibration's projection-uncertainty map is served, as PNG (404 before the
    /// first solve).
    public static let calibrationMapPath = "/calibration/uncertainty.png"

    /// The reason a stop from the view gives, as the summary tells it.
    public static let stopReason = "stopped from the browser view"

    /// The feed the clients read.
    public let feed: ViewFeed
    /// The configuration.
    public let configuration: Configuration
    private let commands: CommandHandler
    private let policy: ViewRequestPolicy
    let connections: ConnectionRegistry
    private let group = Mutex<(group: ServiceGroup?, stopped: Bool)>((nil, false))

    /// A server for `feed`; nothing listens until ``run(onListening:)``.
    ///
    /// - Parameters:
    ///   - feed: Where frames, reports and pictures come from.
    ///   - configuration: Address, token, rate, quality, clock.
    ///   - commands: Called for each `POST /capture` and `POST /stop`; its answer goes back to the client.
    /// - Throws: ``ViewServerError`` for a view rate or JPEG quality out of range, or an allowed
    ///   host that is no name.
    public init(feed: ViewFeed, configuration: Configuration, commands: @escaping CommandHandler) throws(ViewServerError) {
        guard Configuration.viewFPSRange.contains(configuration.viewFPS) else { throw .viewFPS(configuration.viewFPS) }
        guard (1...100).contains(configuration.jpegQuality) else { throw .jpegQuality(configuration.jpegQuality) }
        do {
            let hosts = try HostPolicy(address: configuration.address, allowing: configuration.allowedHosts,
                                       machineName: HostPolicy.machineName())
            policy = ViewRequestPolicy(hosts: hosts, access: configuration.access)
        } catch {
            throw .allowedHost(error)
        }
        connections = ConnectionRegistry(limits: configuration.connectionLimits
            ?? .forOpenFileLimit(SystemCall.openFileLimit() ?? 1024))
        self.feed = feed
        self.configuration = configuration
        self.commands = commands
    }

    /// Serves until ``stop()``.
    ///
    /// - Parameter onListening: Called once listening, with the port bound (the one chosen by the
    ///   system when the address's port is 0).
    /// - Throws: When the address cannot be bound.
    public func run(onListening: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        var logger = Logger(label: "marker-shutter view")
        logger.logLevel = .critical  // standard output carries the session's results
        let connections = connections
        let app = Application(
            router: makeRouter(),
            server: .http1(configuration: .init(
                additionalChannelHandlers: [FailedConnectionCloser(), ConnectionGate(registry: connections)],
                idleTimeout: Self.idleTimeout)),
            configuration: ApplicationConfiguration(address: .hostname(configuration.address.host, port: configuration.address.port),
                                                    serverName: "marker-shutter"),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? 0) },
            logger: logger
        )
        let serviceGroup = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let stopped = group.withLock { g -> Bool in
            g.group = serviceGroup
            return g.stopped
        }
        if stopped { return }
        do {
            try await serviceGroup.run()
        } catch let error as IOError {
            throw ViewServerError.cannotListen(errno: error.errnoCode)  // bind or listen: in the system's words
        }
    }

    /// How long a connection may sit idle between requests (or in the middle of sending one) before
    /// it is closed, so that clients that connect and go quiet do not pile up. Streams being sent
    /// are never idle.
    static let idleTimeout = TimeAmount.seconds(60)

    /// Ends every stream and stops serving; ``run(onListening:)`` returns once open requests are done.
    public func stop() async {
        feed.finish(reason: "stopped")
        let serviceGroup = group.withLock { g -> ServiceGroup? in
            g.stopped = true
            return g.group
        }
        await serviceGroup?.triggerGracefulShutdown()
    }

    /// How many connections are open now.
    var openConnections: Int { connections.count }

    /// How many image and event streams are being sent now.
    var openStreams: Int { connections.streamCount }

    private func makeRouter() -> Router<ViewContext> {
        let router = Router(context: ViewContext.self)
        router.add(middleware: SecurityHeaders())
        router.add(middleware: ConnectionActivity(
            registry: connections, deadline: WriteDeadline(limit: configuration.writeDeadline, clock: configuration.clock)))
        router.add(middleware: RequestCheck(policy: policy))
        router.get("/") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                     body: .init(byteBuffer: ByteBuffer(string: ViewPage.html)))
        }
        router.get("/state") { [feed] _, _ in
            Self.json(.ok, StateDocument.json(StateDocument(feed.snapshot, withPictures: true)))
        }
        router.get("/calibration/uncertainty.png") { [feed] _, _ in
            guard let png = feed.calibrationMap else {
                return Self.json(.notFound, StateDocument.json(["error": "no calibration yet: the map comes with the first solve"]))
            }
            return Response(status: .ok, headers: [.contentType: "image/png", .cacheControl: "no-store"],
                            body: .init(byteBuffer: ByteBuffer(bytes: png)))
        }
        router.get("/stream.mjpg") { [self] request, context in mjpegResponse(request, on: context.connection) }
        router.get("/events") { [self] request, context in eventResponse(request, on: context.connection) }
        router.post("/capture") { [self] _, _ in await answer(.capture) }
        router.post("/stop") { [self] _, _ in await answer(.stop(reason: Self.stopReason)) }
        return router
    }

    private func answer(_ command: LiveSession.Command) async -> Response {
        switch await commands(command) {
        case .accepted:
            return Self.json(.ok, StateDocument.json(CommandDocument(command: command.name, accepted: true, reason: nil)))
        case .refused(let reason):
            return Self.json(.conflict, StateDocument.json(CommandDocument(command: command.name, accepted: false, reason: reason)))
        }
    }

    static func json(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                 body: .init(byteBuffer: ByteBuffer(string: text + "\n")))
    }
}

/// The answer to a command.
private struct CommandDocument: Encodable {
    let command: String
    let accepted: Bool
    let reason: String?
}

/// Why a view server was not made.
public enum ViewServerError: Error, Equatable, CustomStringConvertible {
    /// The view rate is outside ``ViewServer/Configuration/viewFPSRange``.
    case viewFPS(Int)
    /// The JPEG quality is outside 1...100.
    case jpegQuality(Int)
    /// A name allowed as `Host` is no host name or address.
    case allowedHost(HostPolicyError)
    /// The address could not be listened on (`errno` from bind or listen: in use, not this machine's, a privileged port).
    case cannotListen(errno: Int32)

    public var description: String {
        switch self {
        case .viewFPS(let value):
            "invalid view rate \(value): --view-fps must be from \(ViewServer.Configuration.viewFPSRange.lowerBound) "
                + "to \(ViewServer.Configuration.viewFPSRange.upperBound) frames per second"
        case .jpegQuality(let value): "invalid JPEG quality \(value): it must be from 1 to 100"
        case .allowedHost(let error): error.description
        case .cannotListen(let errno): SystemCallError.explanation(of: errno) + Self.advice(errno)
        }
    }

    private static func advice(_ errno: Int32) -> String {
        switch errno {
        case EADDRINUSE: "; another program listens there: choose another port, or 0 for any free one"
        case EACCES: "; ports below 1024 need privileges: choose a higher port"
        case EADDRNOTAVAIL: "; the address is not one of this machine's"
        default: ""
        }
    }
}
