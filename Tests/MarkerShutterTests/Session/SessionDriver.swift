import DebounceTesting
import Foundation
import MarkerDetection
@testable import MarkerShutter
import Pixels
import Testing

/// Runs a ``LiveSession`` in-process on the sample session's frames, handing over one frame at a time
/// and waiting until it is detected before the next: every frame is detected (none is skipped while
/// detection is busy), however slow the machine, so the timeline is exact.
final class SessionDriver {
    static var pattern: Pattern { get throws { try Pattern(parsing: "charuco:5x7:DICT_6X6_250") } }
    let session: LiveSession
    let frames: [FrameFolder.Frame]
    private let continuation: AsyncThrowingStream<SourceItem, any Error>.Continuation
    private var iterator: AsyncStream<LiveSession.Event>.Iterator
    /// Every event so far, in order.
    private(set) var events: [LiveSession.Event] = []

    /// A session over the sample's frames, pictures into `pictures`; `change` adjusts the configuration.
    /// `mayStall`: whether the session treats the source as a camera whose frames may stop.
    init(pictures: String, mayStall: Bool = false, change: (inout LiveSession.Configuration) -> Void = { _ in }) throws {
        frames = try FrameFolder(path: SampleSessionTests.folder).frames
        let detector = try MarkerDetector(pattern: Self.pattern)
        var configuration = LiveSession.Configuration(detector: detector, rule: ValidityRule(defaultsFor: try Self.pattern),
                                                      hold: .milliseconds(300), pictures: pictures)
        change(&configuration)
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: SourceItem.self, throwing: (any Error).self)
        self.continuation = continuation
        session = try LiveSession(source: .source(StreamSource(named: "sample", stream, mayStall: mayStall, stop: { continuation.finish() })),
                                  configuration: configuration)
        iterator = session.events.makeAsyncIterator()
    }

    /// Hands over frame `index` and waits until it is detected; false when the session has ended.
    @discardableResult
    func feed(_ index: Int) async throws -> Bool {
        let frame = frames[index]
        let pixels = try ImageFile.read(frame.path)
        continuation.yield(.frame(SourceFrame(pixels: pixels, time: frame.time, sequence: frame.sequence, file: frame.file)))
        while let event = await iterator.next() {
            events.append(event)
            if case .frame(let report, _, _) = event, report.observation.index >= 0 { return true }
        }
        return false
    }

    /// Hands over a frame that cannot be read, at `time`, and waits until the session has told of it.
    func feedMissing(at time: FrameTime, file: String) async throws {
        continuation.yield(.missing(MissingFrame(time: time, file: file, reason: "no such file")))
        _ = try await waitFor("the skipped frame") { event -> Bool? in
            guard case .frameSkipped(_, file, "no such file") = event else { return nil }
            return true
        }
    }

    /// Waits for the first event that `match` makes something of, passing over the others (kept
    /// in ``events``); fails the test when the session ends first.
    func waitFor<T>(_ what: String, _ match: (LiveSession.Event) -> T?) async throws -> T {
        while let event = await next() {
            if let matched = match(event) { return matched }
        }
        Issue.record("expected \(what) before the end")
        throw SessionEnded()
    }

    /// The session ended before an event a test waited for.
    struct SessionEnded: Error {}

    /// A session over a camera-like source (its frames may stop), telling time by `clock`, which
    /// stands still while frames are fed however slowly they are; its pictures go to a temporary
    /// folder removed with the driver.
    static func camera(hold: Duration, clock: ManualClock) throws -> SessionDriver {
        let driver = try SessionDriver(pictures: TestPaths.temporaryFolder(), mayStall: true) {
            $0.hold = hold
            $0.clock = SessionClock(clock)
        }
        driver.ownsPictures = true
        return driver
    }

    /// Whether the picture folder is the driver's own, removed with it.
    private var ownsPictures = false

    deinit {
        if ownsPictures { try? FileManager.default.removeItem(atPath: session.configuration.pictures) }
    }

    /// Hands over frames `indices` one at a time (see ``feed(_:)``).
    func feed(_ indices: ClosedRange<Int>) async throws {
        for index in indices { try await feed(index) }
    }

    /// Waits for the next event and returns what `match` makes of it; fails the test when the
    /// event is not `what` was expected.
    func next<T>(_ what: String, _ match: (LiveSession.Event) -> T?) async throws -> T {
        let event = await next()
        let matched = event.flatMap(match)
        return try #require(matched, "expected \(what), got \(event.map { "\($0)" } ?? "the end")")
    }

    /// Waits for the next event (nil when the session has ended).
    func next() async -> LiveSession.Event? {
        let event = await iterator.next()
        if let event { events.append(event) }
        return event
    }

    /// Ends the source, and collects the events left until the session's end.
    func finish() async {
        continuation.finish()
        while let event = await iterator.next() { events.append(event) }
    }

    /// Ends the source with `error`, and collects the events left.
    func fail(_ error: any Error) async {
        continuation.finish(throwing: error)
        while let event = await iterator.next() { events.append(event) }
    }

    /// The shutter's changes: frame index and phase.
    var changes: [(frame: Int, phase: String)] {
        events.compactMap { event in
            guard case .frame(let report, true, _) = event else { return nil }
            return (report.observation.index, report.step.state.phase.description)
        }
    }

    /// The pictures saved.
    var saved: [LiveSession.SavedPicture] {
        events.compactMap { event in
            guard case .pictureSaved(let picture) = event else { return nil }
            return picture
        }
    }

    /// Each frame's guidance, with the frame's index.
    var guidance: [(frame: Int, guidance: LiveSession.Guidance)] {
        events.compactMap { event in
            guard case .frame(let report, _, let guidance) = event else { return nil }
            return (report.observation.index, guidance)
        }
    }

    /// The background solves' results.
    var calibrations: [LiveCalibration.Update] {
        events.compactMap { event in
            guard case .calibrated(let update) = event else { return nil }
            return update
        }
    }

    /// The refusals.
    var refused: [PictureError] {
        events.compactMap { event in
            guard case .pictureRefused(let error) = event else { return nil }
            return error
        }
    }
}
