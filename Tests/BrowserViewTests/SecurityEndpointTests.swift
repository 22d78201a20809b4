import Foundation
import HTTPTestSupport
import MarkerShutter
import Synchronization
import Testing
@testable import BrowserView

/// The view as a network service: other sites' pages, other names for the server, idle clients.
@Suite(.timeLimit(.minutes(10))) struct SecurityEndpointTests {
    private static let commandPaths = ["/capture", "/stop"]

    @Test func otherSitesCannotTakePicturesOrStop() async throws {
        let asked = Mutex<[LiveSession.Command]>([])
        try await withServer(commands: { command in
            asked.withLock { $0.append(command) }
            return .accepted
        }) { _, port async throws in
            let evil = "http://evil.example"
            let attempts: [(String, [String: String])] = [
                ("a text/plain fetch", ["Content-Type": "text/plain", "Origin": evil, "Sec-Fetch-Site": "cross-site"]),
                ("a form", ["Content-Type": "application/x-www-form-urlencoded", "Origin": evil]),
                ("a form, no Origin", ["Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "cross-site"]),
                ("another port of this machine", ["Origin": "http://127.0.0.1:\(port == 80 ? 81 : 80)", "Sec-Fetch-Site": "same-site"]),
                ("a sandboxed frame", ["Origin": "null"]),
                ("two origins", ["Origin": "http://127.0.0.1:\(port)\r\nOrigin: \(evil)"]),
            ]
            for path in Self.commandPaths {
                for (what, headers) in attempts {
                    let refused = try await request("POST", path, port: port, headers: headers, body: Array("x=1".utf8))
                    #expect(refused.status == 403, "\(what) to \(path)")
                    #expect(refused.text == "refused: only the view's own page may take pictures or stop the session\n")
                }
            }
            #expect(asked.withLock { $0 } == [], "a refused request reaches no handler")

            // The page's own requests, and a script's (no Origin), pass.
            let page = ["Origin": "http://127.0.0.1:\(port)", "Sec-Fetch-Site": "same-origin"]
            #expect(try await request("POST", "/capture", port: port, host: "127.0.0.1:\(port)", headers: page).status == 200)
            #expect(try await request("POST", "/capture", port: port, host: "localhost:\(port)",
                                      headers: ["Origin": "http://localhost:\(port)"]).status == 200)
            #expect(try await request("POST", "/stop", port: port).status == 200)
            #expect(asked.withLock { $0 } == [.capture, .capture, .stop(reason: "stopped from the browser view")])
        }
    }

    @Test func otherNamesForTheServerGet421Everywhere() async throws {
        let feed = ViewFeed()
        feed.show(.pixels(try flatFrame(60)))
        let asked = Mutex(0)
        try await withServer(feed: feed, commands: { _ in
            asked.withLock { $0 += 1 }
            return .accepted
        }) { _, port async throws in
            for host in ["evil.example:\(port)", "evil.example", "127.0.0.2:\(port)", "[::1]:\(port)", "127.0.0.1.evil.example"] {
                for (method, path) in [("GET", "/"), ("GET", "/state"), ("GET", "/stream.mjpg"), ("GET", "/events"),
                                       ("POST", "/capture"), ("POST", "/stop"), ("GET", "/nothing")] {
                    let refused = try await request(method, path, port: port, host: host)
                    #expect(refused.status == 421, "\(method) \(path) Host: \(host)")
                    #expect(refused.text.hasPrefix("this server does not answer to the name '\(host)'"), "\(refused.text)")
                }
            }
            for raw in ["GET /stream.mjpg HTTP/1.1\r\nConnection: close\r\n\r\n",
                        "GET /stream.mjpg HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n"] {
                let status = try await onThread {
                    let connection = try TestConnection(port: port)
                    try connection.sendRaw(Array(raw.utf8))
                    return try connection.readHead().status
                }
                #expect(status == 421, "\(raw.debugDescription)")
            }
            #expect(feed.viewerCount == 0 && feed.framesEncoded == 0, "no frame went out")
            #expect(asked.withLock { $0 } == 0)
            #expect(try await request("GET", "/state", port: port, host: "localhost:\(port)").status == 200)
            #expect(try await request("GET", "/state", port: port, host: "LOCALHOST.").status == 200)
            #expect(try await request("GET", "/state", port: port, host: "127.0.0.1:1").status == 200, "a tunnel's port")
        }
    }

    @Test func aNameAllowedIsAnswered() async throws {
        let configuration = ViewServer.Configuration(address: ServeAddress(port: 0), allowedHosts: ["camera.lab.example"])
        try await withServer(configuration: configuration) { _, port async throws in
            #expect(try await request("GET", "/state", port: port, host: "camera.lab.example:\(port)").status == 200)
            #expect(try await request("GET", "/state", port: port, host: "other.lab.example:\(port)").status == 421)
        }
        #expect(throws: ViewServerError.allowedHost(.badName("a:1"))) {
            try ViewServer(feed: ViewFeed(), configuration: .init(address: ServeAddress(port: 0), allowedHosts: ["a:1"])) { _ in .accepted }
        }
    }

    @Test func everyAnswerForbidsFramingAndSniffing() async throws {
        let feed = ViewFeed()
        feed.show(.pixels(try flatFrame(60)))
        try await withServer(feed: feed, configuration: .init(address: ServeAddress(port: 0), access: try ViewAccess(token: "t"))) { _, port async throws in
            var heads: [String: [String: String]] = [:]
            for (name, method, path, host, headers) in [
                ("page", "GET", "/?token=t", "127.0.0.1", [:]), ("state", "GET", "/state?token=t", "127.0.0.1", [:]),
                ("missing", "GET", "/nothing?token=t", "127.0.0.1", [:]), ("no token", "GET", "/", "127.0.0.1", [:]),
                ("other name", "GET", "/", "evil.example", [:]),
                ("other site", "POST", "/stop?token=t", "127.0.0.1", ["Origin": "http://evil.example"]),
            ] as [(String, String, String, String, [String: String])] {
                let response = try await request(method, path, port: port, host: host, headers: headers)
                heads["\(name) \(response.status)"] = response.headers
            }
            let stream = try await openStream("/stream.mjpg?token=t", port: port)
            stream.connection.hangUp()
            heads["stream \(stream.head.status)"] = stream.head.headers
            #expect(Set(heads.keys) == ["page 200", "state 200", "missing 404", "no token 401", "other name 421", "other site 403", "stream 200"])
            for (name, headers) in heads {
                #expect(headers["x-content-type-options"] == "nosniff", "\(name)")
                #expect(headers["content-security-policy"] == "frame-ancestors 'none'", "\(name)")
                #expect(headers["x-frame-options"] == "DENY", "\(name)")
                #expect(headers["referrer-policy"] == "no-referrer", "\(name)")
            }
        }
    }

    /// Idle and half-sent connections beyond the limit are closed, longest idle first, and never
    /// keep out a new request or end a stream being watched.
    @Test func idleConnectionsMakeRoomAndStreamsStay() async throws {
        let feed = ViewFeed()
        feed.show(.pixels(try flatFrame(30)))
        let limits = ConnectionLimits(maximum: 8, perClient: 8)
        let asked = Mutex(0)
        try await withServer(feed: feed, configuration: .init(address: ServeAddress(port: 0), connectionLimits: limits), commands: { _ in
            asked.withLock { $0 += 1 }
            return .accepted
        }) { server, port async throws in
            let (stream, head) = try await openStream("/stream.mjpg", port: port)
            #expect(head.status == 200)
            _ = try await onThread { try stream.readPart(boundary: ViewServer.boundary) }
            await waitForViewers(feed, 1)

            let idle = 40
            let connections = try await onThread {
                try (0..<idle).map { i in
                    let connection = try TestConnection(port: port)
                    if i % 2 == 1 { try connection.sendRaw(Array("GET /state HTTP/1.1\r\nHost: 12".utf8)) }  // half a request
                    return connection
                }
            }
            // The stream holds one place; all idle ones but seven are closed (ConnectionTableTests: which).
            try await waitUntil { connections.count(where: { $0.serverHasClosed() }) == idle - (limits.maximum - 1) }
            #expect(server.openConnections <= limits.maximum)

            #expect(try await request("POST", "/capture", port: port).status == 200)
            #expect(asked.withLock { $0 } == 1)
            feed.show(.pixels(try flatFrame(200)))
            let part = try await onThread { try stream.readPart(boundary: ViewServer.boundary) }
            #expect(abs(middleValue(try decodeJPEG(part.jpeg)) - 200) <= 2, "the stream goes on")
            stream.hangUp()
            for connection in connections { connection.hangUp() }
        }
    }
}

/// Polls `condition` until it holds, for at most two minutes: for what the server does on its own
/// threads (closing connections) that no event of the test's own tells.
func waitUntil(_ condition: @escaping @Sendable () -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(120)
    while !condition() {
        guard ContinuousClock.now < deadline else { throw Failure(description: "the condition did not hold within two minutes") }
        try await Task.sleep(for: .milliseconds(20))
    }
}
