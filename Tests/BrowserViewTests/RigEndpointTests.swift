import Foundation
import HTTPTestSupport
import MarkerShutter
import Synchronization
import Testing
@testable import BrowserView

/// A rig served: the same server and the same rules as one camera's view. The side-by-side picture
/// is drawn only while someone watches (once per frame however many watch, the newest only), the
/// state carries the rig, the page's capture asks for a set and shows a refusal, and requests from
/// other names or other sites get nothing. Each step waits for what it checks; the time limit only
/// turns a server that never answers into a failure instead of a hang.
@Suite(.timeLimit(.minutes(10))) struct RigEndpointTests {
    static let boundary = "markershutterframe"

    /// Frames of both cameras (320x240 and 640x480, flat `left` and `right`), the rig enabled.
    static func showFrames(_ feed: ViewFeed, left: UInt8, right: UInt8, index: Int) throws {
        let rig = RigViewTests.enabled([Double(index), Double(index) + 0.004])
        RigViewTests.show(try RigViewTests.frame(0, index: index, at: Double(index), value: left, size: (320, 240), markers: 1, rig: rig), in: feed)
        RigViewTests.show(try RigViewTests.frame(1, index: index, at: Double(index) + 0.004, value: right, size: (640, 480), markers: 1,
                                         rig: rig), in: feed)
    }

    @Test func theCamerasAreDrawnSideBySideOnlyWhileSomeoneWatches() async throws {
        let feed = ViewFeed()
        try await withServer(feed: feed, configuration: .init(address: ServeAddress(port: 0), viewFPS: 120)) { _, port async throws in
            try Self.showFrames(feed, left: 10, right: 20, index: 1)
            try Self.showFrames(feed, left: 40, right: 200, index: 2)
            #expect(!feed.isWatched)
            #expect(feed.framesEncoded == 0, "nothing is composed or encoded while nobody watches")

            let one = try TestConnection(port: port), two = try TestConnection(port: port)
            for connection in [one, two] {
                let part = try await onThread {
                    try connection.send("GET", "/stream.mjpg")
                    _ = try connection.readHead()
                    return try connection.readPart(boundary: Self.boundary)
                }
                let pixels = try decodeJPEG(part.jpeg)
                #expect(pixels.width == 640 && pixels.height == 240, "both cameras at 240 rows, side by side")
                #expect(abs(Int(pixels.row(200)[100 * 3]) - 40) <= 3, "the left camera's newest frame on the left")
                #expect(abs(Int(pixels.row(200)[420 * 3]) - 200) <= 3, "the right camera's newest frame on the right")
            }
            #expect(feed.framesEncoded == 1, "the newest picture, once for both viewers")
            one.hangUp()
            two.hangUp()
            await waitForViewers(feed, 0)
            try Self.showFrames(feed, left: 60, right: 90, index: 3)
            #expect(feed.framesEncoded == 1)
        }
    }

    /// Every change of the rig is a `rig` event, none skipped: a client that joins after five
    /// changes, while frames that change nothing else came between them, gets all five in order,
    /// and then each new one. A frame whose set is only further apart is not a change.
    @Test func everyChangeOfTheRigIsAnEventNoneSkipped() async throws {
        let feed = ViewFeed()
        let show = { (event: LiveSession.Event) in RigViewTests.show(event, in: feed) }
        try await withServer(feed: feed) { _, port async throws in
            show(.rigChanged(RigViewTests.disabled(.waiting(camera: "right"), [.enabled, .stalled])))
            try Self.showFrames(feed, left: 40, right: 200, index: 1)              // enabled, 4 ms apart
            try Self.showFrames(feed, left: 40, right: 200, index: 2)              // still enabled: no change
            show(.rigChanged(RigViewTests.disabled(.notSeeing(["left"]), [.disabled, .enabled])))
            show(.rigChanged(RigViewTests.disabled(.moving(3.4, camera: "right"), [.enabled, .enabled])))
            show(.rigChanged(RigViewTests.disabled(.moving(3.4, camera: "right"), [.enabled, .enabled])))  // the same: no change
            try Self.showFrames(feed, left: 40, right: 200, index: 3)

            let (connection, head) = try await openStream("/events", port: port)
            #expect(head.status == 200)
            var changes: [String] = []
            while changes.count < 5 {
                let event = try await onThread { try connection.readEvent() }
                if event.name == "rig" { changes.append(event.data) }
            }
            // Each at the first frame that showed it: an enabled rig is enabled from its left frame on.
            #expect(changes == [
                #"{"enabled":false,"refusal":"no frame from right yet"}"#,
                #"{"apart_ms":4,"enabled":true,"t":1}"#,
                #"{"enabled":false,"refusal":"left does not see the board","t":2.004}"#,
                #"{"enabled":false,"refusal":"board moving 3.4 px/frame in right","t":2.004}"#,
                #"{"apart_ms":4,"enabled":true,"t":3}"#,
            ])
            show(.rigChanged(RigViewTests.disabled(.dropped(2, camera: "left"), [.enabled, .enabled])))
            var next = try await onThread { try connection.readEvent() }
            while next.name != "rig" { next = try await onThread { try connection.readEvent() } }
            #expect(next.data == #"{"enabled":false,"refusal":"left dropped 2 frames","t":3.004}"#)
            connection.hangUp()
        }
    }

    @Test func stateAndEventsCarryTheRig() async throws {
        let feed = ViewFeed()
        try await withServer(feed: feed) { _, port async throws in
            try Self.showFrames(feed, left: 40, right: 200, index: 5)
            let state = try await request("/state", port: port).json()
            let rig = try #require(state["rig"] as? [String: Any])
            #expect(rig["badge"] as? String == "ENABLED: frames 4.0 ms apart")
            #expect((rig["cameras"] as? [[String: Any]])?.map { $0["frame"] as? Int } == [5, 5])

            let (connection, head) = try await openStream("/events", port: port)
            #expect(head.status == 200)
            var first = try await onThread { try connection.readEvent() }
            while first.name == "rig" { first = try await onThread { try connection.readEvent() } }  // the changes before come first
            #expect(first.name == "state" && first.data.contains("\"rig\":{"), "\(first.data)")
            RigViewTests.show(.rigChanged(RigViewTests.disabled(.notSeeing(["left"]), [.disabled, .enabled])), in: feed)
            var next = try await onThread { try connection.readEvent() }
            while next.name != "state" || !next.data.contains("left does not see the board") {
                next = try await onThread { try connection.readEvent() }
            }
            feed.finish(reason: "quit")
            var last = try await onThread { try connection.readEvent() }
            while last.name != "end" { last = try await onThread { try connection.readEvent() } }
            #expect(last.data == #"{"reason":"quit"}"#)
            connection.hangUp()
        }
    }

    @Test func thePagesCaptureAsksForASetAndShowsTheRefusal() async throws {
        let asked = Mutex<[LiveSession.Command]>([])
        let answers = Mutex<[LiveSession.Command.Answer]>([
            .refused(reason: "\(PictureError.rigDisabled(.moving(3.4, camera: "right")))"), .accepted,
        ])
        try await withServer(commands: { command in
            asked.withLock { $0.append(command) }
            return answers.withLock { $0.removeFirst() }
        }) { _, port async throws in
            let page = ["Origin": "http://127.0.0.1:\(port)", "Sec-Fetch-Site": "same-origin"]
            let refused = try await request("POST", "/capture", port: port, host: "127.0.0.1:\(port)", headers: page)
            #expect(refused.status == 409)
            #expect(refused.text == #"{"accepted":false,"command":"capture","reason":"board moving 3.4 px/frame in right"}"# + "\n")
            let accepted = try await request("POST", "/capture", port: port, host: "127.0.0.1:\(port)", headers: page)
            #expect(accepted.status == 200)
            #expect(asked.withLock { $0 } == [.capture, .capture])

            // The page knows a rig when it sees one: its capture takes a set.
            let html = try await request("/", port: port).text
            for needed in ["id=\"rigbadge\"", "id=\"cameras\"", "id=\"sets\"", "Take set", "taking a set", "showRig(s.rig)"] {
                #expect(html.contains(needed), "the page lacks \(needed)")
            }
        }
    }

    @Test func otherNamesAndOtherSitesGetNothingOfTheRig() async throws {
        let asked = Mutex<[LiveSession.Command]>([])
        let feed = ViewFeed()
        try Self.showFrames(feed, left: 40, right: 200, index: 1)
        try await withServer(feed: feed, commands: { command in
            asked.withLock { $0.append(command) }
            return .accepted
        }) { _, port async throws in
            for path in ["/", "/state", "/stream.mjpg", "/events"] {
                #expect(try await request("GET", path, port: port, host: "evil.example:\(port)").status == 421, "\(path)")
            }
            let refused = try await request("POST", "/capture", port: port,
                                            headers: ["Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"])
            #expect(refused.status == 403)
            #expect(asked.withLock { $0 } == [], "a refused request asks for no set")
            #expect(feed.framesEncoded == 0 && feed.viewerCount == 0, "no picture went out")
        }
    }
}
