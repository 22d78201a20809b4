import FileFormats
import Foundation
import MarkerDetection
@testable import MarkerShutter
import Pixels
import Testing

/// A ``LiveSession`` of a rig in-process: two cameras fed the sample session's frames (the right one 5 ms after
/// the left), one frame at a time, each waited for until detected, so the rig's timeline is exact
/// however slow the machine.
@Suite struct RigSessionTests {
    /// A rig of two fed sources and the events seen so far.
    final class Driver {
        let session: LiveSession
        let frames: [FrameFolder.Frame]
        let pictures: String
        private let feeds: [AsyncThrowingStream<SourceFrame, any Error>.Continuation]
        private var iterator: AsyncStream<LiveSession.Event>.Iterator
        private(set) var events: [LiveSession.Event] = []

        init(maxMotion: RigShutterMachine.Configuration.MotionLimit = .off) throws {
            frames = try FrameFolder(path: SampleSessionTests.folder).frames
            pictures = try TestPaths.temporaryFolder()
            let pattern = try Pattern(parsing: "charuco:5x7:DICT_6X6_250")
            let cameras = [try RigCamera(name: "left", frameInterval: .seconds(1) / 30),
                           try RigCamera(name: "right", frameInterval: .seconds(1) / 30)]
            let rig = try RigShutterMachine.Configuration(cameras: cameras, maxMotion: maxMotion)
            var configuration = LiveSession.Configuration(detector: try MarkerDetector(pattern: pattern),
                                                          rule: ValidityRule(defaultsFor: pattern), hold: .milliseconds(300), pictures: pictures)
            configuration.rig = rig
            var feeds: [AsyncThrowingStream<SourceFrame, any Error>.Continuation] = []
            var sources: [LiveSession.Camera] = []
            for camera in cameras {
                let (stream, continuation) = AsyncThrowingStream.makeStream(of: SourceFrame.self, throwing: (any Error).self)
                feeds.append(continuation)
                sources.append(LiveSession.Camera(
                    name: camera.name, source: .source(StreamSource(named: camera.name, frames: stream, stop: { continuation.finish() }))))
            }
            self.feeds = feeds
            session = try LiveSession(cameras: sources, configuration: configuration)
            iterator = session.events.makeAsyncIterator()
        }

        deinit { try? FileManager.default.removeItem(atPath: pictures) }

        /// Feeds sample frame `index` to both cameras (the right one 5 ms later) and waits until
        /// each is detected; returns the rig after the right one.
        @discardableResult
        func feed(_ index: Int) async throws -> RigState {
            let pixels = try ImageFile.read(frames[index].path)
            var state: RigState?
            for camera in 0...1 {
                let time = frames[index].time + (camera == 1 ? .milliseconds(5) : .zero)
                feeds[camera].yield(SourceFrame(pixels: pixels, time: time))
                state = try await waitFor("frame \(index) of camera \(camera)") { event in
                    guard case .frame(let report, _, _) = event, report.camera == camera else { return nil }
                    return report.rig
                }
            }
            return state!
        }

        func waitFor<T>(_ what: String, _ match: (LiveSession.Event) -> T?) async throws -> T {
            while let event = await iterator.next() {
                events.append(event)
                if let matched = match(event) { return matched }
            }
            Issue.record("expected \(what) before the end")
            throw CancellationError()
        }

        func fail(camera: Int) { feeds[camera].finish(throwing: SourceError(.gone, "\(camera == 0 ? "left" : "right"): unplugged")) }

        func finish() async {
            for feed in feeds { feed.finish() }
            while let event = await iterator.next() { events.append(event) }
        }
    }

    /// A set asked for while both cameras see the board is saved in the rig layout, each camera's
    /// sidecar an ordinary picture sidecar; one asked for once the board has left is refused and
    /// names both cameras.
    @Test func aSetIsSavedWhileBothSeeTheBoardAndRefusedOnceItLeft() async throws {
        let driver = try Driver()
        let session = driver.session
        async let summary = session.run()
        for index in 0...5 { try await driver.feed(index) }
        #expect(session.state.description == "enabled")
        guard case .accepted = session.requestPicture() else {
            Issue.record("the set was not taken")
            return
        }
        let saved = try await driver.waitFor("the set saved") { event -> LiveSession.SavedPicture? in
            guard case .pictureSaved(let saved) = event, saved.trigger == .request else { return nil }
            return saved
        }
        #expect(saved.number == 1)
        #expect(saved.sidecar == driver.pictures + "/set_0001.json")
        // The board is gone from frame 81: each camera holds its frame 5 until 0.3 s after frame 81.
        for index in 81...95 { try await driver.feed(index) }
        #expect(session.requestPicture() == .refused(.rigDisabled(.notSeeing(["left", "right"]))))
        await driver.finish()
        let result = await summary

        #expect(result.pictures == LiveSummary.Pictures(saved: 1, refused: 1, busy: 0, failed: 0))
        #expect(result.cameras.map(\.statistics.framesDetected) == [21, 21])
        let names = try FileManager.default.contentsOfDirectory(atPath: driver.pictures).sorted()
        #expect(names == ["left", "right", "set_0001.json"])
        let set = try RigSetSidecar(parsing: Data(contentsOf: URL(fileURLWithPath: driver.pictures + "/set_0001.json")))
        #expect(set.cameras.map(\.name) == ["left", "right"])
        #expect(set.cameras.map(\.frameIndex) == [5, 5])
        #expect(abs(set.largestDifference - 0.005) < 1e-6)
        #expect(set.maxMotion == nil)
        for camera in ["left", "right"] {
            let sidecar = try PictureSidecar(parsing: Data(contentsOf: URL(fileURLWithPath: driver.pictures + "/\(camera)/set_0001.json")))
            #expect(sidecar.image == "set_0001.png")
            #expect(sidecar.frameIndex == 5)
            #expect(FileManager.default.fileExists(atPath: driver.pictures + "/\(camera)/set_0001.png"))
        }
    }

    /// A camera whose capture fails is lost: with every camera required, the session stops at
    /// once and says which camera and why.
    @Test func aCameraLostStopsARigThatNeedsIt() async throws {
        let driver = try Driver()
        let session = driver.session
        async let summary = session.run()
        for index in 0...2 { try await driver.feed(index) }
        driver.fail(camera: 1)
        await driver.finish()
        let result = await summary
        #expect(result.stopReason == "right is gone: the rig needs all its cameras, 1 left")
        #expect(result.lostCameras == ["right"])
        #expect(result.failures.count == 1 && result.failures[0].hasPrefix("right: "))
        #expect(driver.events.contains { if case .cameraChanged(1, .lost) = $0 { true } else { false } })
    }
}
