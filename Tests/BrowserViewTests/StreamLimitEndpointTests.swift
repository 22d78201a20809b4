import DebounceTesting
import Foundation
import HTTPTestSupport
import MarkerShutter
import Pixels
import Testing
@testable import BrowserView

/// Clients that ask for the image or event stream, or for many answers, and never read: they
/// cannot lock other clients out, they are disconnected once a write to them has waited out the
/// write deadline, and the camera never waits for them.
///
/// The server's clock is a manual one that the test advances: a write is "not taken in time" when
/// it is still waiting after the test has moved the clock past the deadline, however slow the
/// machine. Every wait is for an event (a connection closed, a count reached); the time limits
/// only turn a server that never does it into a failure instead of a hang.
@Suite(.timeLimit(.minutes(10))) struct StreamLimitEndpointTests {
    /// Twice the number of connections from one address that, when each streamed, used to lock
    /// every other client out.
    static let flood = 64

    /// The page, the state and a picture are served while 64 connections from the same address hold
    /// the image and event streams unread; a browser's own stream still plays; the camera's frames
    /// and pictures are published without waiting; and every never-reading connection is closed.
    @Test func neverReadingStreamsLockNobodyOutAndAreDropped() async throws {
        let feed = ViewFeed()
        let frames = try [noiseFrame(seed: 1), noiseFrame(seed: 2)]
        let pictures = try (1...2).map { ViewPicture(number: $0, file: "/pictures/capture_000\($0).png", frameIndex: $0,
                                                     trigger: .request, holdAge: nil, pixels: try noiseFrame(seed: UInt64($0))) }
        feed.show(.pixels(frames[0]))
        let clock = ManualClock()
        let limits = ConnectionLimits.forOpenFileLimit(1024)  // the defaults
        #expect(limits == ConnectionLimits(maximum: 128, perClient: 32, streams: 32, streamsPerClient: 16))
        let configuration = ViewServer.Configuration(address: ServeAddress(port: 0), connectionLimits: limits, clock: clock)
        try await withServer(feed: feed, configuration: configuration) { server, port async throws in
            // Half ask for the image stream, half for the events; none reads a byte.
            let flooding = try await onThread {
                try (0..<Self.flood).map { i in
                    let connection = try TestConnection(port: port)
                    try? connection.sendRaw(Array("GET \(i % 2 == 0 ? "/stream.mjpg" : "/events") HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
                    return connection
                }
            }
            // Each is either sent a stream or closed; only the newest 16 streams of the address stay.
            try await waitUntil { flooding.count(where: { $0.serverHasHungUp() }) + server.openStreams == Self.flood }
            #expect(server.connections.seen == Self.flood)
            #expect(server.openStreams == limits.streamsPerClient)
            try await waitUntil { feed.viewerCount + feed.listenerCount == limits.streamsPerClient }  // the ended ones' loops stop

            // Another client of the same address is answered (a try may meet a connection closed
            // to make room, hence a few).
            for (method, path) in [("GET", "/"), ("GET", "/state"), ("POST", "/capture")] {
                var statuses: [Int] = []
                while statuses.last != 200, statuses.count < 3 {
                    statuses.append((try? await request(method, path, port: port).status) ?? 0)
                }
                #expect(statuses.last == 200, "\(method) \(path): \(statuses)")
            }
            // A browser's own stream plays: it ends the flood's oldest instead of being refused.
            let (viewer, head) = try await openStream("/stream.mjpg", port: port)
            #expect(head.status == 200)
            let part = try await onThread { try viewer.readPart(boundary: ViewServer.boundary) }
            #expect(try decodeJPEG(part.jpeg).width == 640)
            viewer.hangUp()
            try await waitUntil { server.openStreams == limits.streamsPerClient - 1 }

            // The camera goes on showing frames and adding pictures; the streams left fill their
            // buffers, and each write that waits past the deadline closes its connection.
            var rounds = 0
            while flooding.contains(where: { !$0.serverHasHungUp() }), rounds < 5_000 {
                rounds += 1
                feed.show(.pixels(frames[rounds % 2]))
                feed.add(pictures[rounds % 2])
                clock.advance(by: configuration.writeDeadline)
                try await Task.sleep(for: .milliseconds(10))  // lets the server write, without being waited for
            }
            #expect(flooding.allSatisfy { $0.serverHasHungUp() }, "after \(rounds) rounds")
            #expect(feed.frameVersion == 1 + rounds, "every frame shown was taken at once")
            #expect(feed.snapshot.picturesTaken == rounds)
            try await waitUntil { server.openStreams == 0 && server.openConnections == 0 }
            await waitForViewers(feed, 0)
            await waitForListeners(feed, 0)
            print("never-reading streams: \(Self.flood), closed at once or to make room: \(Self.flood - limits.streamsPerClient), "
                  + "closed by the write deadline after \(rounds) rounds of a frame and a picture")
            for connection in flooding { connection.hangUp() }
        }
    }

    /// A viewer that reads is never disconnected, however far the clock moves between frames: the
    /// deadline times each write, not the stream.
    @Test func aViewerThatReadsIsNeverDisconnected() async throws {
        let feed = ViewFeed()
        let clock = ManualClock()
        let configuration = ViewServer.Configuration(address: ServeAddress(port: 0), viewFPS: 10, writeDeadline: .seconds(2), clock: clock)
        try await withServer(feed: feed, configuration: configuration) { server, port async throws in
            let (viewer, head) = try await openStream("/stream.mjpg", port: port)
            #expect(head.status == 200)
            for value: UInt8 in [40, 120, 200] {
                feed.show(.pixels(try flatFrame(value)))
                let part = try await onThread { try viewer.readPart(boundary: ViewServer.boundary) }
                #expect(abs(middleValue(try decodeJPEG(part.jpeg)) - Int(value)) <= 2)
                // The stream rests after the write, so the write's timer is gone: only the rest is left.
                try await waitUntil { clock.sleeperDeadlines == [clock.now + .milliseconds(100)] }
                clock.advance(by: configuration.writeDeadline * 10)
            }
            #expect(!viewer.serverHasHungUp())
            #expect(server.openStreams == 1)
            viewer.hangUp()
            await waitForViewers(feed, 0)
        }
    }

    /// A client that sends many requests at once and never reads the answers holds its connection
    /// only until a write waits past the deadline.
    @Test func aClientThatDoesNotReadItsAnswersIsDisconnected() async throws {
        let clock = ManualClock()
        let configuration = ViewServer.Configuration(address: ServeAddress(port: 0), writeDeadline: .seconds(3), clock: clock)
        try await withServer(configuration: configuration) { server, port async throws in
            let pipelining = try TestConnection(port: port)
            let asks = Array(String(repeating: "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", count: 2_000).utf8)
            // On a thread of its own: the server stops reading once it cannot write.
            let sending = Task { try await onThread { try? pipelining.sendRaw(asks) } }
            var rounds = 0
            while !pipelining.serverHasHungUp(), rounds < 5_000 {
                rounds += 1
                clock.advance(by: configuration.writeDeadline)
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(pipelining.serverHasHungUp(), "after \(rounds) rounds")
            pipelining.hangUp()
            _ = try await sending.value
            #expect(try await request("/state", port: port).status == 200)
            try await waitUntil { server.openConnections == 0 }
        }
    }
}

/// A BGR frame of noise from `seed`, which JPEG cannot shrink much: large writes, quickly filling
/// a client's buffers.
private func noiseFrame(seed: UInt64, width: Int = 640, height: Int = 480) throws -> PixelBuffer {
    var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
    return try PixelBuffer(width: width, height: height, format: .bgr24) { bytes in
        for i in bytes.indices {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            bytes[i] = UInt8(truncatingIfNeeded: state >> 32)
        }
    }
}
