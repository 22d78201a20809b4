import Foundation
import MarkerDetection
import Pixels
import Testing
@testable import BrowserView
@testable import MarkerShutter

/// A rig in the browser view: the side-by-side picture's layout and pixels, the rig's and each
/// camera's state in the state document, the sets saved, and the answer to a set asked for.
/// Events are made by hand, as the rig session tells them; nothing here depends on timing.
@Suite struct RigViewTests {
    static let rule = ValidityRule(minimumMarkers: 1, minimumBoardCorners: 0, minimumSharpness: 0)
    static let names = ["left", "right"]
    static let folder = "/home/operator/rig/pictures"

    /// A detection of `markers` markers in the top-right corner of a `width` x `height` frame.
    static func detection(markers: Int, width: Int, height: Int) -> Detection {
        let found = (0..<markers).map { id in
            let x = Double(width - 40 + id), y = 10.0
            return Marker(id: id, corners: [ImagePoint(x: x, y: y), ImagePoint(x: x + 8, y: y), ImagePoint(x: x + 8, y: y + 8),
                                            ImagePoint(x: x, y: y + 8)])
        }
        return Detection(imageSize: ImageSize(width: width, height: height), markers: found, boardCorners: [], sharpness: 100,
                         duration: .milliseconds(3))
    }

    /// Camera `camera`'s frame `index` at `seconds`, every pixel `value`, with the rig after it.
    static func frame(_ camera: Int, index: Int, at seconds: Double, value: UInt8, size: (Int, Int), markers: Int,
                      rig: RigState) throws -> LiveSession.Event {
        let pixels = try flatFrame(value, width: size.0, height: size.1)
        let observation = FrameObservation(index: index, time: FrameTime(seconds: seconds), sequence: nil, file: nil,
                                           detection: detection(markers: markers, width: size.0, height: size.1), rule: rule,
                                           pixels: pixels)
        let report = LiveShutter.Report(observation: observation, step: ShutterStep(state: .disabled, changed: false),
                                        latency: .zero, pixels: pixels, camera: camera, rig: rig, rigChanged: true)
        return .frame(report, shutterChanged: false,
                      guidance: LiveSession.Guidance(view: nil, coverage: ViewCoverage().progress, gains: nil, pictures: 0))
    }

    /// Shows `event` of the rig (named ``names``, sets to ``folder``) in `feed`.
    static func show(_ event: LiveSession.Event, in feed: ViewFeed) {
        feed.showRig(cameras: names, folder: folder)
        feed.show(event, hold: .milliseconds(300))
    }

    static func enabled(_ times: [Double]) -> RigState {
        let members = times.enumerated().map { camera, seconds in
            RigSet.Member(camera: camera, index: 0, time: FrameTime(seconds: seconds), motion: 0.1)
        }
        return RigState(set: RigSet(members: members), refusal: nil, cameras: times.map { _ in .enabled })
    }

    static func disabled(_ refusal: RigRefusal, _ cameras: [RigState.CameraPhase]) -> RigState {
        RigState(set: nil, refusal: refusal, cameras: cameras)
    }

    static func saved(_ number: Int, apart: Double) -> LiveSession.Event {
        let stem = String(format: "set_%04d", number)
        return .pictureSaved(LiveSession.SavedPicture(
            number: number, images: names.map { "\(folder)/\($0)/\(stem).png" }, sidecar: "\(folder)/\(stem).json", frameIndex: 0,
            holdAge: nil, trigger: .request, pixels: nil, largestDifference: apart))
    }

    /// The state document as the server sends it, parsed.
    static func document(_ feed: ViewFeed) throws -> [String: Any] {
        let text = StateDocument.json(StateDocument(feed.snapshot, withPictures: true))
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func camerasShareOneHeightAndTheCompositeStaysAtMostFullHDWide() {
        func sizes(_ list: [(Int, Int)]) -> [ImageSize] { list.map { ImageSize(width: $0.0, height: $0.1) } }
        #expect(SideBySide.layout(sizes([(1280, 720), (1280, 720)])) == sizes([(960, 540), (960, 540)]))
        #expect(SideBySide.size(of: sizes([(1280, 720), (1280, 720)]), withBand: false) == ImageSize(width: 1920, height: 540))
        #expect(SideBySide.size(of: sizes([(1280, 720), (1280, 720)]), withBand: true) == ImageSize(width: 1920, height: 580))
        #expect(SideBySide.layout(sizes([(640, 480), (1280, 720)])) == sizes([(640, 480), (853, 480)]))
        #expect(SideBySide.size(of: sizes([(640, 480), (1280, 720)]), withBand: false) == ImageSize(width: 1493, height: 480))
        #expect(SideBySide.size(of: sizes([(1280, 720), (1280, 720), (1280, 720)]), withBand: false) == ImageSize(width: 1920, height: 360))
        #expect(SideBySide.size(of: sizes([(1920, 1080), (1920, 1080)]), withBand: false) == ImageSize(width: 1920, height: 540))
        #expect(SideBySide.size(of: sizes([(320, 240), (640, 480)]), withBand: false) == ImageSize(width: 640, height: 240))
        #expect(SideBySide.layout([]) == [])
    }

    @Test func compositeHoldsEachCameraScaledInItsPlaceWithTheRigBandAbove() throws {
        let left = SideBySide.Panel(pixels: try flatFrame(40, width: 320, height: 240), detection: nil,
                                    badge: Annotation.Badge(text: "left: VALID", isOK: true))
        let right = SideBySide.Panel(pixels: try flatFrame(200, width: 640, height: 480), detection: nil,
                                     badge: Annotation.Badge(text: "right: HELD", isOK: true))
        let picture = try SideBySide.compose([left, right])
        #expect(picture.width == 640 && picture.height == 240 && picture.format == .bgr24)
        // Below the badges: each camera's own pixels, the right one scaled from 640x480 to 320x240.
        #expect(picture.row(200)[100 * 3] == 40 && picture.row(239)[319 * 3 + 2] == 40)
        #expect(picture.row(200)[420 * 3] == 200 && picture.row(239)[639 * 3 + 2] == 200)

        let withRig = try SideBySide.compose([left, right], rig: Annotation.Badge(text: "rig ENABLED", isOK: true))
        #expect(withRig.width == 640 && withRig.height == 240 + SideBySide.bandHeight)
        #expect(withRig.row(39)[630 * 3] == 0, "the band is black beside the rig's badge")
        #expect(withRig.row(2)[2 * 3 + 1] > 100, "the rig's badge is green in the band's top-left corner")
        #expect(withRig.row(240)[100 * 3] == 40 && withRig.row(240)[420 * 3] == 200)

        // A camera without a frame yet is a black 640x480 panel.
        let waiting = SideBySide.Panel(pixels: nil, detection: nil, badge: Annotation.Badge(text: "right: WAITING", isOK: false))
        let half = try SideBySide.compose([left, waiting])
        #expect(half.width == 640 && half.height == 240)
        #expect(half.row(200)[420 * 3] == 0)
        #expect(throws: ViewFrameError.self) { try SideBySide.compose([]) }
    }

    @Test func stateDocumentGivesTheRigEachCameraAndTheSets() throws {
        let feed = ViewFeed()
        #expect(try Self.document(feed)["rig"] == nil, "a feed that shows no rig says nothing of one")

        Self.show(try Self.frame(0, index: 7, at: 1.0, value: 40, size: (320, 240), markers: 2,
                                 rig: Self.disabled(.notSeeing(["right"]), [.enabled, .stalled])), in: feed)
        var state = try Self.document(feed)
        #expect(state["shutter"] == nil && state["frame"] == nil, "the one camera's fields stay out of a rig's document")
        #expect((state["pictures"] as? [String: Any])?["taken"] as? Int == 0)
        var rig = try #require(state["rig"] as? [String: Any])
        #expect(rig["enabled"] as? Bool == false)
        #expect(rig["badge"] as? String == "disabled: right does not see the board")
        #expect(rig["refusal"] as? String == "right does not see the board")
        #expect(rig["apart_ms"] == nil)
        #expect(rig["t"] as? Double == 1.0)
        var cameras = try #require(rig["cameras"] as? [[String: Any]])
        #expect(cameras.count == 2)
        #expect(cameras[0]["name"] as? String == "left" && cameras[0]["state"] as? String == "enabled")
        #expect(cameras[0]["badge"] as? String == "VALID" && cameras[0]["frame"] as? Int == 7 && cameras[0]["t"] as? Double == 1.0)
        #expect(cameras[0]["markers"] as? Int == 2 && cameras[0]["corners"] as? Int == 0)
        #expect(cameras[1]["name"] as? String == "right" && cameras[1]["state"] as? String == "stalled")
        #expect(cameras[1]["badge"] as? String == "WAITING" && cameras[1]["frame"] == nil && cameras[1]["markers"] == nil)

        Self.show(try Self.frame(1, index: 3, at: 1.004, value: 200, size: (640, 480), markers: 1, rig: Self.enabled([1.0, 1.004])), in: feed)
        Self.show(Self.saved(1, apart: 0.004), in: feed)
        state = try Self.document(feed)
        rig = try #require(state["rig"] as? [String: Any])
        #expect(rig["enabled"] as? Bool == true)
        #expect(rig["badge"] as? String == "ENABLED: frames 4.0 ms apart")
        #expect(rig["apart_ms"] as? Double == 4.0 && rig["refusal"] == nil)
        cameras = try #require(rig["cameras"] as? [[String: Any]])
        #expect(cameras.map { $0["badge"] as? String } == ["VALID", "VALID"])
        let sets = try #require(rig["sets"] as? [String: Any])
        #expect(sets["taken"] as? Int == 1)
        let recent = try #require(sets["recent"] as? [[String: Any]])
        #expect(recent.count == 1)
        #expect(recent[0]["number"] as? Int == 1 && recent[0]["trigger"] as? String == "request")
        #expect(recent[0]["sidecar"] as? String == "set_0001.json", "names below the picture folder: where it is is no client's business")
        #expect(recent[0]["images"] as? [String] == ["left/set_0001.png", "right/set_0001.png"])
        #expect(recent[0]["apart_ms"] as? Double == 4.0)

        // The rig's refusals in the terminal's words; a camera's badge follows its state.
        for (refusal, text) in [(RigRefusal.apart(.milliseconds(21)), "frames 21 ms apart"),
                                (.moving(3.4, camera: "right"), "board moving 3.4 px/frame in right")] {
            Self.show(.rigChanged(Self.disabled(refusal, [.held, .disabled])), in: feed)
            rig = try #require(try Self.document(feed)["rig"] as? [String: Any])
            #expect(rig["badge"] as? String == "disabled: " + text && rig["refusal"] as? String == text)
            cameras = try #require(rig["cameras"] as? [[String: Any]])
            #expect(cameras.map { $0["badge"] as? String } == ["HELD", "NOT SEEING"])
            #expect(cameras.map { $0["state"] as? String } == ["held", "disabled"])
        }
        #expect(feed.rig?.badge == Annotation.Badge(text: "rig disabled: board moving 3.4 px/frame in right", isOK: false))
        #expect(feed.rig?.cameras[0].badge == Annotation.Badge(text: "left: HELD  2 markers, 0 corners", isOK: true))
        #expect(feed.rig?.cameras[1].badge == Annotation.Badge(text: "right: NOT SEEING  1 markers, 0 corners", isOK: false))
    }

    @Test func aRigShownBeforeItsFirstFrameWaitsForEveryCamera() throws {
        let feed = ViewFeed()
        feed.showRig(cameras: Self.names, folder: Self.folder)
        let rig = try #require(try Self.document(feed)["rig"] as? [String: Any])
        #expect(rig["enabled"] as? Bool == false && rig["badge"] as? String == "waiting" && rig["refusal"] == nil)
        let cameras = try #require(rig["cameras"] as? [[String: Any]])
        #expect(cameras.map { $0["badge"] as? String } == ["WAITING", "WAITING"])
        #expect(cameras.map { $0["state"] as? String } == ["stalled", "stalled"])
        #expect((rig["sets"] as? [String: Any])?["taken"] as? Int == 0)
        let picture = try SideBySide.compose(try #require(feed.rig).panels)
        #expect(picture.width == 1280 && picture.height == 480, "two black 640x480 panels")
    }

    @Test func theRecentSetsAreTheLastFive() throws {
        let feed = ViewFeed()
        for number in 1...7 { Self.show(Self.saved(number, apart: 0.001 * Double(number)), in: feed) }
        let sets = try #require((try Self.document(feed)["rig"] as? [String: Any])?["sets"] as? [String: Any])
        #expect(sets["taken"] as? Int == 7)
        let recent = try #require(sets["recent"] as? [[String: Any]])
        #expect(recent.map { $0["number"] as? Int } == [3, 4, 5, 6, 7])
        #expect(recent.map { $0["apart_ms"] as? Double } == [3, 4, 5, 6, 7])
    }

    @Test func aSetAskedForIsRefusedInTheRigsWords() {
        #expect("\(PictureError.rigDisabled(.notSeeing(["left"])))" == "left does not see the board")
        #expect("\(PictureError.rigDisabled(.apart(.milliseconds(21))))" == "frames 21 ms apart")
        #expect("\(PictureError.rigDisabled(.stalled(camera: "right", for: .milliseconds(170))))" == "right stalled: no frame for 170 ms")
    }
}
