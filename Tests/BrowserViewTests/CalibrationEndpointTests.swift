import Foundation
import HTTPTestSupport
import MarkerDetection
import MarkerShutter
import Pixels
import Testing
@testable import BrowserView

/// The newest background calibration on the view: `calibration` in the state and its events, the
/// uncertainty map at `GET /calibration/uncertainty.png`, and the window's panel. The feed is
/// handed plain values; `live --calibrate` on the sample session checks the real solves
/// (BrowserPageTests).
@Suite(.timeLimit(.minutes(10))) struct CalibrationEndpointTests {
    /// A 90x60 map whose every pixel differs from its neighbours, so that a copy is told from a scaled one.
    static func map() throws -> PixelBuffer {
        try PixelBuffer(width: 90, height: 60, format: .bgr24) { bytes in
            for y in 0..<60 {
                for x in 0..<90 {
                    bytes[(y * 90 + x) * 3] = UInt8(x)
                    bytes[(y * 90 + x) * 3 + 1] = UInt8(y * 4)
                    bytes[(y * 90 + x) * 3 + 2] = 200
                }
            }
        }
    }

    static func calibration(map: PixelBuffer?) -> ViewCalibration {
        ViewCalibration(
            views: 8, pictures: 9, rms: 0.214, kind: "not-good",
            verdict: "not good: the corners cover 31% of the image (50% wanted)",
            reasons: ["the corners cover 31% of the image (50% wanted)"],
            parameters: [ViewCalibration.Parameter(name: "fx", value: 601.25, interval95: 2.5),
                         ViewCalibration.Parameter(name: "fy", value: 600.75, interval95: 2.25),
                         ViewCalibration.Parameter(name: "cx", value: 320.5, interval95: .nan),
                         ViewCalibration.Parameter(name: "cy", value: 240.5, interval95: 1.5)],
            advice: ["the corners cover only 31% of the image: move the target toward its edges and corners"], map: map)
    }

    @Test func theStateAndTheMapFollowEachSolve() async throws {
        let feed = ViewFeed()
        try await withServer(feed: feed) { _, port async throws in
            // Before the first solve: no calibration, and the map is not found.
            #expect(try await request("/state", port: port).json()["calibration"] == nil)
            let missing = try await request("/calibration/uncertainty.png", port: port)
            #expect(missing.status == 404)
            #expect(missing.headers["content-type"] == "application/json")

            let map = try Self.map()
            feed.show(Self.calibration(map: map))
            let state = try await request("/state", port: port).json()
            let calibration = try #require(state["calibration"] as? [String: Any])
            #expect(calibration["views"] as? Int == 8)
            #expect(calibration["pictures"] as? Int == 9, "one picture set aside")
            #expect(calibration["rms"] as? Double == 0.214)
            #expect(calibration["verdict"] as? String == "not good: the corners cover 31% of the image (50% wanted)")
            #expect(calibration["kind"] as? String == "not-good")
            #expect(calibration["reasons"] as? [String] == ["the corners cover 31% of the image (50% wanted)"])
            #expect(calibration["advice"] as? [String]
                == ["the corners cover only 31% of the image: move the target toward its edges and corners"])
            #expect(calibration["solves"] as? Int == 1)
            #expect(calibration["map"] as? String == "/calibration/uncertainty.png?solve=1")
            let parameters = try #require(calibration["parameters"] as? [[String: Any]])
            #expect(parameters.compactMap { $0["name"] as? String } == ["fx", "fy", "cx", "cy"])
            #expect(parameters.compactMap { $0["value"] as? Double } == [601.25, 600.75, 320.5, 240.5])
            #expect(parameters.map { $0["interval95"] as? Double } == [2.5, 2.25, nil, 1.5], "no interval that is no number")

            let served = try await request("/calibration/uncertainty.png?solve=1", port: port)
            #expect(served.status == 200)
            #expect(served.headers["content-type"] == "image/png")
            #expect(served.body.prefix(8) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            let decoded = try ImageFile.decode(served.body)
            #expect((decoded.width, decoded.height) == (90, 60))
            #expect(decoded.row(37) == map.row(37), "the map as it was drawn, not scaled")

            // A failed solve is said beside the calibration before; the next solve replaces both.
            feed.calibrationFailed("too few views")
            let failed = try #require(try await request("/state", port: port).json()["calibration"] as? [String: Any])
            #expect(failed["error"] as? String == "too few views")
            #expect(failed["views"] as? Int == 8)
            var second = Self.calibration(map: try flatFrame(7, width: 30, height: 20))
            second.views = 9
            feed.show(second)
            let after = try #require(try await request("/state", port: port).json()["calibration"] as? [String: Any])
            #expect(after["error"] == nil)
            #expect(after["map"] as? String == "/calibration/uncertainty.png?solve=2")
            let newer = try ImageFile.decode(try await request("/calibration/uncertainty.png", port: port).body)
            #expect((newer.width, newer.height) == (30, 20))
        }
    }

    @Test func theEventsCarryTheCalibration() async throws {
        let feed = ViewFeed()
        try await withServer(feed: feed) { _, port async throws in
            feed.update(ViewState(frameIndex: 3, time: FrameTime(seconds: 0.1), phase: .enabled, hold: .milliseconds(300)))
            let (connection, _) = try await openStream("/events", port: port)
            _ = try await onThread { try (0..<2).map { _ in try connection.readEvent() } }  // the shutter's change, the state
            feed.show(Self.calibration(map: nil))
            let event = try await onThread { try connection.readEvent() }
            #expect(event.name == "state")
            let document = try #require(try JSONSerialization.jsonObject(with: Data(event.data.utf8)) as? [String: Any])
            let calibration = try #require(document["calibration"] as? [String: Any])
            #expect(calibration["verdict"] as? String == "not good: the corners cover 31% of the image (50% wanted)")
            #expect(calibration["map"] == nil, "no map drawn, none served")
            #expect(try await request("/calibration/uncertainty.png", port: port).status == 404)
            connection.hangUp()
        }
    }

    /// A rig's solve: its summary lines, no camera's figures, no map.
    @Test func aRigsCalibrationIsItsSummary() async throws {
        let feed = ViewFeed()
        feed.showRig(cameras: ["left", "right"], folder: "sets")
        try await withServer(feed: feed) { _, port async throws in
            feed.showRigCalibration(["rig: 2 cameras, 9 sets used, 0 dropped (pattern charuco:5x7:DICT_6X6_250)",
                                     "  RMS reprojection error: 0.196 px"])
            let state = try await request("/state", port: port).json()
            let calibration = try #require(state["calibration"] as? [String: Any])
            #expect(calibration["summary"] as? [String] == ["rig: 2 cameras, 9 sets used, 0 dropped (pattern charuco:5x7:DICT_6X6_250)",
                                                            "  RMS reprojection error: 0.196 px"])
            #expect(calibration["verdict"] == nil && calibration["map"] == nil)
            #expect(state["rig"] != nil)
            #expect(try await request("/calibration/uncertainty.png", port: port).status == 404)
        }
    }

    @Test func theMapIsCheckedAsEveryEndpointIs() async throws {
        let feed = ViewFeed()
        feed.show(Self.calibration(map: try Self.map()))
        let configuration = ViewServer.Configuration(address: ServeAddress(port: 0), access: try ViewAccess(token: "s3cret"))
        try await withServer(feed: feed, configuration: configuration) { _, port async throws in
            #expect(try await request("/calibration/uncertainty.png", port: port).status == 401)
            #expect(try await request("GET", "/calibration/uncertainty.png?token=s3cret", port: port, host: "evil.example:\(port)").status
                == 421)
            let served = try await request("/calibration/uncertainty.png?token=s3cret&solve=1", port: port)
            #expect(served.status == 200)
            #expect(served.headers["x-content-type-options"] == "nosniff")
        }
    }

    /// The window's panel: the frame untouched above it, the map copied pixel for pixel into its
    /// right corner when it fits, and the lines in the verdict's words.
    @Test func thePanelHoldsTheLinesAndTheMap() throws {
        let frame = try flatFrame(90, width: 640, height: 480)
        let map = try Self.map()
        let calibration = Self.calibration(map: map)
        let lines = CalibrationPanel.lines(for: calibration, width: 800)
        #expect(lines.first == CalibrationPanel.Line("calibration: 8 views, RMS 0.214 px"))
        #expect(lines.dropFirst().first == CalibrationPanel.Line("verdict: not good: the corners cover 31% of the image (50% wanted)",
                                                                 tone: .bad))
        #expect(lines.map(\.text).contains("fx 601.2 +/- 2.5   fy 600.8 +/- 2.2"))
        #expect(lines.map(\.text).contains("cx 320.5   cy 240.5 +/- 1.5"))
        #expect(lines.contains(CalibrationPanel.Line("advice: the corners cover only 31% of the image: move the target toward its edges and",
                                                     tone: .weak)), "\(lines)")
        #expect(lines.count == 6)

        let composed = try CalibrationPanel.compose(frame, lines: lines, map: map)
        #expect(composed.width == 640)
        #expect(composed.height == 480 + max(lines.count * 18 + 10, 68))
        #expect(composed.row(100) == frame.row(100))
        // The map's row 10 at the panel's right, 4 pixels in from its corner.
        let row = composed.row(480 + 4 + 10)
        #expect(Array(row[(640 - 90 - 4) * 3..<(640 - 4) * 3]) == map.row(10))
        // Text is drawn on the panel's background.
        let panelRow = composed.row(480 + 14)
        #expect(stride(from: 0, to: 400 * 3, by: 3).contains { panelRow[$0] > 150 })
        #expect(CalibrationPanel.ascii("fx 601.2 ± 2.5 — ok") == "fx 601.2 +/- 2.5 ? ok")
        #expect(CalibrationPanel.wrap(String(repeating: "word ", count: 100), columns: 20).count == 3)
    }
}
