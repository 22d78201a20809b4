import Foundation
import MarkerDetection
@testable import MarkerShutter
import Pixels
import Synchronization
import Testing

/// Commands reach a session one way, ``LiveSession/send(_:)``, from views attached through
/// ``LiveSession/present(to:)``; the events they are shown carry the counts they show.
@Suite(.timeLimit(.minutes(10))) struct LiveSessionCommandTests {
    /// A view that hands what it is shown to the test, and lets the test send commands as a view does.
    final class RecordingView: LiveSessionView {
        let shown: AsyncStream<LiveSession.Event>
        private let continuation: AsyncStream<LiveSession.Event>.Continuation
        private let sender = Mutex<(@Sendable (LiveSession.Command) -> LiveSession.Command.Answer)?>(nil)
        /// How many times ``attach(_:)`` was called.
        let attachments = Mutex(0)

        init() { (shown, continuation) = AsyncStream.makeStream(of: LiveSession.Event.self) }

        func attach(_ send: @escaping @Sendable (LiveSession.Command) -> LiveSession.Command.Answer) {
            sender.withLock { $0 = send }
            attachments.withLock { $0 += 1 }
        }

        func show(_ event: LiveSession.Event) { continuation.yield(event) }

        func finish() { continuation.finish() }

        func send(_ command: LiveSession.Command) throws -> LiveSession.Command.Answer {
            let send = try #require(sender.withLock { $0 }, "the view was shown an event before it was attached")
            return send(command)
        }
    }

    @Test func aViewsCommandsAreAnsweredAsTheKeyboardsAreAndItsEventsCarryTheCounts() async throws {
        let pictures = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: pictures) }
        let frames = try FrameFolder(path: SampleSessionTests.folder).frames
        let pattern = try Pattern(parsing: "charuco:5x7:DICT_6X6_250")
        let configuration = LiveSession.Configuration(detector: try MarkerDetector(pattern: pattern),
                                                      rule: ValidityRule(defaultsFor: pattern),
                                                      hold: .milliseconds(300), pictures: pictures)
        let (stream, source) = AsyncThrowingStream.makeStream(of: SourceItem.self, throwing: (any Error).self)
        let session = try LiveSession(source: .source(StreamSource(named: "sample", stream, mayStall: false, stop: { source.finish() })),
                                      configuration: configuration)
        let view = RecordingView(), other = RecordingView()
        let presenting = Task { await session.present(to: [view, other]) }
        let running = Task { await session.run() }
        var shown = view.shown.makeAsyncIterator()
        var events: [LiveSession.Event] = []

        /// Hands over frame `index` and waits until the view was shown it.
        func feed(_ index: Int) async throws -> LiveShutter.Report {
            let frame = frames[index]
            source.yield(.frame(SourceFrame(pixels: try ImageFile.read(frame.path), time: frame.time,
                                            sequence: frame.sequence, file: frame.file)))
            while let event = await shown.next() {
                events.append(event)
                if case .frame(let report, _, _) = event { return report }
            }
            throw CancellationError()
        }

        // The sample's board is seen from its first frame: a picture asked for by the view is taken.
        let first = try await feed(0)
        #expect(first.step.state.phase == .enabled)
        #expect(first.status.statistics.framesDetected == 1)
        #expect(first.status.picturesSaved == 0)
        #expect(try view.send(.capture) == .accepted)
        while let event = await shown.next() {
            events.append(event)
            if case .pictureSaved = event { break }
        }
        // Counts come with the events: every frame detected so far, the picture saved.
        var index = 1
        var report = try await feed(index)
        #expect(report.status.statistics.framesDetected == 2)
        #expect(report.status.picturesSaved == 1)
        // The shutter is disabled a hold after the board is lost: the view's request is refused,
        // in the terminal's words.
        while report.step.state.phase != .disabled, index + 1 < frames.count {
            index += 1
            report = try await feed(index)
            #expect(report.status.statistics.framesDetected == index + 1)
        }
        try #require(report.step.state.phase == .disabled, "the sample's board is never lost")
        #expect(try view.send(.capture) == .refused(reason: "shutter disabled: no valid detection is held, so no picture was taken"))
        // A stop from a view ends the run with its reason; a second stop is accepted and changes nothing.
        #expect(try other.send(.stop(reason: "stopped from a view")) == .accepted)
        #expect(try view.send(.stop(reason: "a second stop")) == .accepted)
        let summary = await running.value
        await presenting.value
        view.finish()
        while let event = await shown.next() { events.append(event) }

        #expect(summary.stopReason == "stopped from a view")
        #expect(summary.pictures == LiveSummary.Pictures(saved: 1, refused: 1))
        #expect(view.attachments.withLock { $0 } == 1 && other.attachments.withLock { $0 } == 1)
        let refused = events.compactMap { event -> PictureError? in
            guard case .pictureRefused(let error) = event else { return nil }
            return error
        }
        #expect(refused == [.shutterDisabled])
        #expect(LiveSession.Command.capture.name == "capture")
        #expect(LiveSession.Command.stop(reason: "quit").name == "stop")
    }

    @Test func aCaptureWhileTheSessionEndsIsRefusedWithTheReason() async throws {
        let pictures = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: pictures) }
        let driver = try SessionDriver(pictures: pictures)
        let session = driver.session
        async let summary = session.run()
        try await driver.feed(0)
        await driver.finish()
        _ = await summary
        #expect(session.send(.capture) == .refused(reason: "the session is ending: no more pictures are taken"))
    }
}
