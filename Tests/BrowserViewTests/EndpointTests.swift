import HTTPTestSupport
import DebounceTesting
import Foundation
import MarkerDetection
import MarkerShutter
import Pixels
import Synchronization
import Testing
@testable import BrowserView

/// The endpoints against a scripted in-memory feed: no camera, and no outcome that depends on
/// timing (each step waits for what it checks: a part, an event, a viewer count). The time limit
/// only turns a server that never answers into a failure instead of a hang.
@Suite(.timeLimit(.minutes(10))) struct EndpointTests {
    static let boundary = "markershutterframe"

    private static func held(frame: Int, since: Double, at: Double) -> ViewState {
        ViewState(frameIndex: frame, time: FrameTime(seconds: at), phase: .held(since: FrameTime(seconds: since)),
                  hold: .milliseconds(300), framesPerSecond: 30, detectionTime: .microseconds(4_250), markers: 12,
                  corners: 20, coverage: ViewCoverage.Progress(x: 0.5, y: 0.25, size: 0.1, skew: 0))
    }

    private static func picture(_ number: Int, frame: Int) throws -> ViewPicture {
        ViewPicture(number: number, file: "/home/operator/pictures/capture_000\(number).png", frameIndex: frame, trigger: .request, holdAge: nil, pixels: try flatFrame(90, width: 640, height: 480))
    }

    @Test func pageIsOneSelfContainedFile() async throws {
        try await withServer { _, port async throws in
            let page = try await request("/", port: port)
            #expect(page.status == 200)
            #expect(page.headers["content-type"] == "text/html; charset=utf-8")
            let html = page.text
            for needed in ["Take picture", "Stop", "stream.mjpg", "new EventSource", "\"capture\"", "\"stop\"",
                           "e.key === \" \"", "e.key === \"q\"", "id=\"badge\"", "id=\"fps\"", "id=\"detect\"", "id=\"thumbs\""] {
                #expect(html.contains(needed), "the page lacks \(needed)")
            }
            // Nothing is fetched from elsewhere: no absolute addresses at all.
            #expect(!html.contains("http://") && !html.contains("https://") && !html.contains("//cdn"))
        }
    }

    @Test func stateIsTheCurrentReportAsJSON() async throws {
        let feed = ViewFeed()
        try await withServer(feed: feed) { _, port async throws in
            let empty = try await request("/state", port: port)
            #expect(empty.status == 200)
            #expect(empty.headers["content-type"] == "application/json")
            let before = try empty.json()
            #expect(before["running"] as? Bool == true)
            #expect(before["shutter"] == nil)
            #expect((before["pictures"] as? [String: Any])?["taken"] as? Int == 0)

            feed.update(Self.held(frame: 41, since: 1.0, at: 1.1))
            feed.add(try Self.picture(1, frame: 40))
            let state = try await request("/state", port: port).json()
            #expect(state["frame"] as? Int == 41)
            #expect(state["shutter"] as? String == "held")
            #expect(state["badge"] as? String == "HELD 0.10s")
            #expect(abs((state["hold_left"] as? Double ?? -1) - 0.2) < 1e-9)
            #expect(state["hold"] as? Double == 0.3)
            #expect(state["fps"] as? Double == 30)
            #expect(state["detect_ms"] as? Double == 4.25)
            #expect(state["markers"] as? Int == 12)
            #expect(state["corners"] as? Int == 20)
            #expect((state["coverage"] as? [String: Double]) == ["x": 0.5, "y": 0.25, "size": 0.1, "skew": 0])
            let pictures = try #require(state["pictures"] as? [String: Any])
            #expect(pictures["taken"] as? Int == 1)
            let recent = try #require(pictures["recent"] as? [[String: Any]])
            #expect(recent.count == 1)
            #expect(recent[0]["file"] as? String == "capture_0001.png", "the file's name; where the server keeps it is no client's business")
            #expect(recent[0]["frame"] as? Int == 40)
            #expect(recent[0]["trigger"] as? String == "request")
            let thumbnail = try #require(recent[0]["thumbnail"] as? String)
            let prefix = "data:image/jpeg;base64,"
            #expect(thumbnail.hasPrefix(prefix))
            let small = try decodeJPEG([UInt8](try #require(Data(base64Encoded: String(thumbnail.dropFirst(prefix.count))))))
            #expect(small.width == 160 && small.height == 120)
            #expect(abs(middleValue(small) - 90) <= 2)
        }
    }

    @Test func unknownPathsAre404() async throws {
        try await withServer { _, port async throws in
            #expect(try await request("/nothing", port: port).status == 404)
            #expect(try await request("/stream.mjpg/more", port: port).status == 404)
            #expect(try await request("/state.json", port: port).status == 404)
            #expect(try await request("POST", "/state", port: port).status == 404)
            #expect(try await request("GET", "/capture", port: port).status == 404)
        }
    }

    @Test func streamIsMultipartOfDecodableJPEGs() async throws {
        let feed = ViewFeed()
        try await withServer(feed: feed, configuration: .init(address: ServeAddress(port: 0), viewFPS: 120)) { _, port async throws in
            let (connection, head) = try await openStream("/stream.mjpg", port: port)
            #expect(head.status == 200)
            #expect(head.headers["content-type"] == "multipart/x-mixed-replace; boundary=\(Self.boundary)")

            feed.show(.pixels(try flatFrame(40)))
            let first = try await onThread { try connection.readPart(boundary: Self.boundary) }
            #expect(first.headers["content-type"] == "image/jpeg")
            #expect(first.headers["content-length"] == "\(first.jpeg.count)")
            let firstPixels = try decodeJPEG(first.jpeg)
            #expect(firstPixels.width == 64 && firstPixels.height == 48)
            #expect(abs(middleValue(firstPixels) - 40) <= 2)

            feed.show(.pixels(try flatFrame(200)))
            let second = try await onThread { try connection.readPart(boundary: Self.boundary) }
            #expect(abs(middleValue(try decodeJPEG(second.jpeg)) - 200) <= 2)

            // A JPEG handed over ready-made is sent byte for byte.
            let ready = try ImageFile.encode(try flatFrame(120), as: .jpeg(quality: 90))
            feed.show(.jpeg(ready))
            #expect(try await onThread { try connection.readPart(boundary: Self.boundary) }.jpeg == ready)
            connection.hangUp()
        }
    }

    @Test func annotatedFramesShowTheBadge() async throws {
        let feed = ViewFeed()
        try await withServer(feed: feed, configuration: .init(address: ServeAddress(port: 0), viewFPS: 120)) { _, port async throws in
            let connection = try await openStream("/stream.mjpg", port: port).connection
            let detection = Detection(imageSize: ImageSize(width: 320, height: 240), markers: [], boardCorners: [],
                                      sharpness: nil, duration: .zero)
            feed.show(.pixels(try flatFrame(128, width: 320, height: 240), detection: detection,
                              badge: Annotation.Badge(text: "ENABLED", isOK: true)))
            let pixels = try decodeJPEG(try await onThread { try connection.readPart(boundary: Self.boundary) }.jpeg)
            #expect(pixels.width == 320 && pixels.height == 240)
            // The green badge box is in the top-left corner; the rest of the frame stays gray.
            let corner = pixels.row(10).prefix(3 * 40)
            #expect(corner.enumerated().contains { $0.offset % 3 == 1 && abs(Int($0.element) - 128) > 40 })
            #expect(abs(middleValue(pixels) - 128) <= 2)
            connection.hangUp()
        }
    }

    @Test func framesAreEncodedOnlyWhileSomeoneWatches() async throws {
        let feed = ViewFeed()
        try await withServer(feed: feed, configuration: .init(address: ServeAddress(port: 0), viewFPS: 120)) { _, port async throws in
            for value: UInt8 in [10, 20, 30] { feed.show(.pixels(try flatFrame(value))) }
            #expect(!feed.isWatched)
            #expect(feed.framesEncoded == 0)

            let one = try TestConnection(port: port), two = try TestConnection(port: port)
            for connection in [one, two] {
                let part = try await onThread {
                    try connection.send("GET", "/stream.mjpg")
                    _ = try connection.readHead()
                    return try connection.readPart(boundary: Self.boundary)
                }
                #expect(abs(middleValue(try decodeJPEG(part.jpeg)) - 30) <= 2)
            }
            #expect(feed.isWatched)
            #expect(feed.framesEncoded == 1)  // the newest frame, once for both viewers
            one.hangUp()
            two.hangUp()
            await waitForViewers(feed, 0)
            feed.show(.pixels(try flatFrame(40)))
            #expect(feed.framesEncoded == 1)
        }
    }

    @Test func slowViewerGetsTheNewestFrameAtTheViewRate() async throws {
        let feed = ViewFeed()
        let clock = ManualClock()
        let configuration = ViewServer.Configuration(address: ServeAddress(port: 0), viewFPS: 10, clock: clock)
        try await withServer(feed: feed, configuration: configuration) { _, port async throws in
            let connection = try await openStream("/stream.mjpg", port: port).connection
            feed.show(.pixels(try flatFrame(10)))
            let first = try await onThread { try connection.readPart(boundary: Self.boundary) }
            #expect(abs(middleValue(try decodeJPEG(first.jpeg)) - 10) <= 2)

            // After a frame, the viewer's stream rests for 1/10 s of the clock (the timer of the
            // write's deadline, on the same clock, is gone once the write is done).
            try await waitUntil { clock.sleeperDeadlines == [clock.now + .milliseconds(100)] }
            for value: UInt8 in [60, 110, 160] { feed.show(.pixels(try flatFrame(value))) }
            clock.advance(by: .milliseconds(100))
            // Frames shown meanwhile are not queued: the next part is the newest.
            let next = try await onThread { try connection.readPart(boundary: Self.boundary) }
            #expect(abs(middleValue(try decodeJPEG(next.jpeg)) - 160) <= 2)
            await clock.waitForSleepers(count: 1)
            #expect(feed.framesEncoded == 2)
            connection.hangUp()
            await waitForViewers(feed, 0)
        }
    }

    @Test func eventsAreServerSentEventsOfStatesAndPictures() async throws {
        let feed = ViewFeed()
        try await withServer(feed: feed) { _, port async throws in
            let (connection, head) = try await openStream("/events", port: port)
            #expect(head.status == 200)
            #expect(head.headers["content-type"] == "text/event-stream")

            feed.update(ViewState(frameIndex: 3, time: FrameTime(seconds: 0.1), phase: .enabled, hold: .milliseconds(300)))
            let change = try await onThread { try connection.readEvent() }
            #expect(change.name == "shutter")
            #expect(change.data == #"{"frame":3,"shutter":"enabled","t":0.1}"#)
            let first = try await onThread { try connection.readEvent() }
            #expect(first.name == "state")
            let state = try #require(try JSONSerialization.jsonObject(with: Data(first.data.utf8)) as? [String: Any])
            #expect(state["shutter"] as? String == "enabled")
            #expect(state["badge"] as? String == "ENABLED")
            #expect(state["frame"] as? Int == 3)

            feed.add(try Self.picture(1, frame: 3))
            let picture = try await onThread { try connection.readEvent() }
            #expect(picture.name == "picture")
            let saved = try #require(try JSONSerialization.jsonObject(with: Data(picture.data.utf8)) as? [String: Any])
            #expect(saved["number"] as? Int == 1)
            #expect(saved["file"] as? String == "capture_0001.png")
            #expect((saved["thumbnail"] as? String)?.hasPrefix("data:image/jpeg;base64,") == true)
            let after = try await onThread { try connection.readEvent() }
            #expect(after.name == "state")
            #expect(after.data.contains("\"taken\":1"))

            feed.finish(reason: "quit")
            let (last, rest) = try await onThread { () -> ([(name: String, data: String)], [UInt8]) in
                ([try connection.readEvent(), try connection.readEvent()], try connection.readBodyToEnd())
            }
            #expect(rest.isEmpty)  // the stream ends after `end`
            #expect(last.map(\.name) == ["state", "end"])
            #expect(last[0].data.contains("\"running\":false"))
            #expect(last[1].data == #"{"reason":"quit"}"#)
        }
    }

    /// Reports between two changes of the shutter may be skipped by a slow client; the changes are
    /// not, and a client that joins late gets those before it, oldest first.
    @Test func everyShutterChangeReachesEveryClientInOrder() async throws {
        let feed = ViewFeed()
        let phases: [(frame: Int, phase: ShutterState<FrameObservation>.Phase)] = [
            (0, .enabled), (1, .enabled), (2, .held(since: FrameTime(seconds: 2))), (3, .held(since: FrameTime(seconds: 2))),
            (4, .disabled), (5, .disabled), (6, .enabled),
        ]
        for (frame, phase) in phases {
            feed.update(ViewState(frameIndex: frame, time: FrameTime(seconds: Double(frame)), phase: phase, hold: .milliseconds(300)))
        }
        try await withServer(feed: feed) { _, port async throws in
            let (connection, _) = try await openStream("/events", port: port)
            let events = try await onThread { try (0..<5).map { _ in try connection.readEvent() } }
            #expect(events.map(\.name) == ["shutter", "shutter", "shutter", "shutter", "state"])
            #expect(events.prefix(4).map(\.data) == [
                #"{"frame":0,"shutter":"enabled","t":0}"#, #"{"frame":2,"shutter":"held","t":2}"#,
                #"{"frame":4,"shutter":"disabled","t":4}"#, #"{"frame":6,"shutter":"enabled","t":6}"#,
            ])
            #expect(events[4].data.contains(#""frame":6"#))
        }
    }

    @Test func clientsThatHangUpMidStreamAreDropped() async throws {
        let feed = ViewFeed()
        try await withServer(feed: feed, configuration: .init(address: ServeAddress(port: 0), viewFPS: 120)) { _, port async throws in
            feed.show(.pixels(try flatFrame(50)))
            let viewer = try TestConnection(port: port), listener = try TestConnection(port: port)
            try await onThread {
                try viewer.send("GET", "/stream.mjpg")
                _ = try viewer.readHead()
                _ = try viewer.readPart(boundary: Self.boundary)
                try listener.send("GET", "/events")
                _ = try listener.readHead()
            }
            await waitForListeners(feed, 1)
            #expect(feed.viewerCount == 1)
            // Hang up while the server waits for the next frame or event: both loops end at once.
            viewer.hangUp()
            listener.hangUp()
            await waitForViewers(feed, 0)
            await waitForListeners(feed, 0)

            // The server goes on serving.
            let again = try TestConnection(port: port)
            feed.show(.pixels(try flatFrame(150)))
            let part = try await onThread {
                try again.send("GET", "/stream.mjpg")
                _ = try again.readHead()
                return try again.readPart(boundary: Self.boundary)
            }
            #expect(abs(middleValue(try decodeJPEG(part.jpeg)) - 150) <= 2)
            again.hangUp()
        }
    }

    @Test func fiftyClientsAtOnce() async throws {
        let feed = ViewFeed()
        feed.show(.pixels(try flatFrame(77, width: 320, height: 240)))
        feed.update(Self.held(frame: 9, since: 0.2, at: 0.3))
        // Fifty clients, all from 127.0.0.1 here: one address's limits raised to let them all in.
        let limits = ConnectionLimits(maximum: 128, perClient: 128, streams: 64, streamsPerClient: 64)
        try await withServer(feed: feed, configuration: .init(address: ServeAddress(port: 0), viewFPS: 120, connectionLimits: limits)) { _, port async throws in
            let connections = try (0..<50).map { _ in try TestConnection(port: port) }
            let outcomes = try await withThrowingTaskGroup(of: String.self) { group in
                for (i, connection) in connections.enumerated() {
                    group.addTask {
                        switch i % 3 {
                        case 0:
                            let part = try await onThread { () -> StreamPart in
                                try connection.send("GET", "/stream.mjpg")
                                guard try connection.readHead().status == 200 else { throw Failure(description: "stream refused") }
                                return try connection.readPart(boundary: Self.boundary)
                            }
                            let pixels = try decodeJPEG(part.jpeg)
                            return "frame \(pixels.width)x\(pixels.height) \(abs(middleValue(pixels) - 77) <= 2)"
                        case 1:
                            let (change, event) = try await onThread { () -> ((name: String, data: String), (name: String, data: String)) in
                                try connection.send("GET", "/events")
                                guard try connection.readHead().status == 200 else { throw Failure(description: "events refused") }
                                return (try connection.readEvent(), try connection.readEvent())
                            }
                            return "\(change.name) \(event.name) \(event.data.contains("\"badge\":\"HELD 0.10s\""))"
                        default:
                            let state = try await request("/state", port: port)
                            return "state \(state.status) \(state.text.contains("\"frame\":9"))"
                        }
                    }
                }
                return try await group.reduce(into: [String: Int]()) { $0[$1, default: 0] += 1 }
            }
            #expect(outcomes == ["frame 320x240 true": 17, "shutter state true": 17, "state 200 true": 16])
            #expect(feed.viewerCount == 17)
            #expect(feed.framesEncoded == 1)
            for connection in connections { connection.hangUp() }
            await waitForViewers(feed, 0)
            await waitForListeners(feed, 0)
        }
    }

    @Test func tokenIsRequiredWhenGiven() async throws {
        let asked = Mutex(0)
        let configuration = ViewServer.Configuration(address: ServeAddress(port: 0), access: try ViewAccess(token: "s3cret"))
        try await withServer(configuration: configuration, commands: { _ in
            asked.withLock { $0 += 1 }
            return .accepted
        }) { _, port async throws in
            for (method, path) in [("GET", "/"), ("GET", "/state"), ("GET", "/stream.mjpg"), ("GET", "/events"),
                                   ("POST", "/capture"), ("POST", "/stop"), ("GET", "/nothing"), ("GET", "/?token=s3cre"),
                                   ("GET", "/state?token=wrong")] {
                let refused = try await request(method, path, port: port)
                #expect(refused.status == 401, "\(method) \(path)")
                #expect(refused.headers["www-authenticate"] == "Bearer")
            }
            #expect(asked.withLock { $0 } == 0)
            #expect(try await request("/?token=s3cret", port: port).status == 200)
            #expect(try await request("/state", port: port, headers: ["Authorization": "Bearer s3cret"]).status == 200)
            #expect(try await request("POST", "/capture?token=s3cret", port: port).status == 200)
            #expect(asked.withLock { $0 } == 1)
            #expect(try await request("/nothing?token=s3cret", port: port).status == 404)
        }
    }

    @Test func commandsAnswerWithTheSessionsReason() async throws {
        let reason = "shutter disabled: no valid detection is held, so no picture was taken"
        let received = Mutex<[LiveSession.Command]>([])
        try await withServer(commands: { command in
            received.withLock { $0.append(command) }
            return command == .capture ? .refused(reason: reason) : .accepted
        }) { _, port async throws in
            let refused = try await request("POST", "/capture", port: port)
            #expect(refused.status == 409)
            #expect(refused.headers["content-type"] == "application/json")
            let answer = try refused.json()
            #expect(answer["command"] as? String == "capture")
            #expect(answer["accepted"] as? Bool == false)
            #expect(answer["reason"] as? String == reason)

            let stopped = try await request("POST", "/stop", port: port)
            #expect(stopped.status == 200)
            #expect(try stopped.json()["accepted"] as? Bool == true)
            #expect(received.withLock { $0 } == [.capture, .stop(reason: "stopped from the browser view")])
        }
    }

    @Test func stoppingTheServerEndsOpenStreams() async throws {
        let feed = ViewFeed()
        let connection = try await withServerReturning(feed: feed) { server, port in
            let connection = try await openStream("/stream.mjpg", port: port).connection
            await waitForViewers(feed, 1)
            await server.stop()
            return connection
        }
        // The stream ended properly (the last chunk came), and `run` returned.
        #expect(try await onThread { try connection.readBodyToEnd() }.isEmpty)
        #expect(feed.viewerCount == 0)
    }

    @Test func badRatesAreRefused() {
        #expect(throws: ViewServerError.viewFPS(0)) {
            try ViewServer(feed: ViewFeed(), configuration: .init(address: ServeAddress(port: 0), viewFPS: 0)) { _ in .accepted }
        }
        #expect(ViewServerError.viewFPS(500).description == "invalid view rate 500: --view-fps must be from 1 to 120 frames per second")
    }
}

/// `withServer`, returning what `body` returns.
private func withServerReturning<T: Sendable>(feed: ViewFeed, _ body: @escaping (ViewServer, Int) async throws -> T) async throws -> T {
    let result = Mutex<T?>(nil)
    try await withServer(feed: feed) { server, port in
        let value = try await body(server, port)
        result.withLock { $0 = value }
    }
    return try #require(result.withLock { $0 })
}
