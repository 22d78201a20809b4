import FileFormats
import Foundation
import MarkerDetection
@testable import MarkerShutter
import Pixels
import Testing

/// A rig session recorded (``RigRecorder``) and replayed (``RigRecording``, `LiveSession(replaying:)`),
/// in-process: the left camera at 30 fps, the right one at 25 fps 7 ms later, both fed the sample
/// session's frames (the board in view, then gone from frame 81, then back), each frame waited for
/// until detected. The replay gives the rig the same frames at the same times: the same state after
/// every frame and the same automatic sets.
@Suite struct RigRecordingTests {
    static let pattern = "charuco:5x7:DICT_6X6_250"

    static func configuration(pictures: String) throws -> LiveSession.Configuration {
        let pattern = try Pattern(parsing: Self.pattern)
        let cameras = [try RigCamera(name: "left", frameInterval: .seconds(1) / 30),
                       try RigCamera(name: "right", frameInterval: .seconds(1) / 25)]
        var configuration = LiveSession.Configuration(detector: try MarkerDetector(pattern: pattern),
                                                      rule: ValidityRule(defaultsFor: pattern), hold: .milliseconds(300), pictures: pictures)
        configuration.rig = try RigShutterMachine.Configuration(cameras: cameras, maxMotion: .off)
        configuration.automatic = true
        return configuration
    }

    /// What a test compares: each frame's camera, index, time and the rig after it; each set saved.
    static func timeline(_ events: [LiveSession.Event]) -> (frames: [String], sets: [String]) {
        var frames: [String] = []
        var sets: [String] = []
        for event in events {
            switch event {
            case .frame(let report, _, _):
                let observation = report.observation
                frames.append("\(report.camera) \(observation.index) \(observation.time.offset) \(observation.isValid) "
                    + "\(report.rig.map(String.init(describing:)) ?? "")\(report.rigChanged ? " *" : "")")
            case .pictureSaved(let saved):
                sets.append("\(saved.number) \(saved.trigger.rawValue) \(saved.largestDifference)")
            default: break
            }
        }
        return (frames, sets)
    }

    /// Records a live-like run: frames fed by time, each detected before the next.
    static func recordRun(into recording: String, pictures: String) async throws -> (frames: [String], sets: [String], summary: LiveSummary) {
        let samples = try FrameFolder(path: SampleSessionTests.folder).frames
        var configuration = try configuration(pictures: pictures)
        configuration.record = recording
        var feeds: [AsyncThrowingStream<SourceFrame, any Error>.Continuation] = []
        var sources: [LiveSession.Camera] = []
        for camera in configuration.rig?.cameras ?? [] {
            let (stream, continuation) = AsyncThrowingStream.makeStream(of: SourceFrame.self, throwing: (any Error).self)
            feeds.append(continuation)
            sources.append(LiveSession.Camera(
                name: camera.name, source: .source(StreamSource(named: camera.name, frames: stream, stop: { continuation.finish() }))))
        }
        let session = try LiveSession(cameras: sources, configuration: configuration)
        var iterator = session.events.makeAsyncIterator()
        var events: [LiveSession.Event] = []
        async let summary = session.run()
        // Kernel timestamps are whole microseconds, as the manifest keeps them.
        // Left: sample frames 0 to 11 and 81 to 101 and 0 to 11 again at 30 fps; right: every fifth of
        // six of them, at 25 fps, 7 ms later.
        let indexes = Array(0...11) + Array(81...101) + Array(0...11)
        let start = samples[0].time
        var feed: [(camera: Int, time: FrameTime, sample: Int)] = []
        for (n, sample) in indexes.enumerated() { feed.append((0, start + .microseconds(33_333 * n), sample)) }
        for n in 0..<(indexes.count * 5 / 6) { feed.append((1, start + .milliseconds(7) + .milliseconds(40) * n, indexes[n * 6 / 5])) }
        feed.sort { $0.time < $1.time }
        for item in feed {
            feeds[item.camera].yield(SourceFrame(pixels: try ImageFile.read(samples[item.sample].path), time: item.time))
            while let event = await iterator.next() {
                events.append(event)
                if case .frame(let report, _, _) = event, report.camera == item.camera { break }
            }
        }
        for continuation in feeds { continuation.finish() }
        while let event = await iterator.next() { events.append(event) }
        let (frames, sets) = timeline(events)
        return (frames, sets, await summary)
    }

    @Test func aReplayReproducesTheRecordedRigTimelineAndSets() async throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let recording = folder + "/recording"
        let live = try await Self.recordRun(into: recording, pictures: folder + "/pictures")
        #expect(live.summary.recording?.written == live.frames.count)
        #expect(live.summary.recordFolder == recording)
        #expect(live.frames.contains { $0.hasSuffix("disabled: left and right do not see the board *") }, "\(live.frames)")
        #expect(live.frames.filter { $0.hasSuffix("enabled *") }.count == 2, "\(live.frames)")
        #expect(live.sets.count >= 1)

        // The layout: each camera's frames in its folder, one manifest, the cameras in cameras.json.
        #expect(try FileManager.default.contentsOfDirectory(atPath: recording).sorted() == ["cameras.json", "events.jsonl", "left", "manifest.jsonl", "right"])
        #expect(try String(contentsOfFile: recording + "/cameras.json", encoding: .utf8)
            == "{\"cameras\":[{\"name\":\"left\",\"fps\":30},{\"name\":\"right\",\"fps\":25}]}\n")
        let lines = try String(contentsOfFile: recording + "/manifest.jsonl", encoding: .utf8).split(separator: "\n")
            .map { try ManifestLine(parsing: $0) }
        #expect(lines.count == live.frames.count)
        #expect(lines.map(\.camera) == live.frames.map { $0.hasPrefix("0 ") ? "left" : "right" })
        #expect(lines.filter { $0.camera == "left" }.map(\.file) == (0..<45).map { String(format: "frame_%06d.jpg", $0) })
        #expect(lines.filter { $0.camera == "right" }.map(\.file) == (0..<37).map { String(format: "frame_%06d.jpg", $0) })
        #expect(try FileManager.default.contentsOfDirectory(atPath: recording + "/right").count == 37)
        let samples = try FrameFolder(path: SampleSessionTests.folder).frames
        // `t` is the kernel timestamp the rig saw (here the sample's first time, then on).
        #expect(lines.first { $0.camera == "right" }?.t == (samples[0].time + .milliseconds(7)).seconds)

        let read = try RigRecording(folder: recording)
        #expect(read.cameras.map(\.name) == ["left", "right"])
        #expect(read.cameras.map(\.frameInterval) == [.seconds(1) / 30, .seconds(1) / 25])
        var configuration = try Self.configuration(pictures: folder + "/replayed")
        configuration.replayInRealTime = false
        let session = try LiveSession(replaying: read, configuration: configuration)
        async let summary = session.run()
        var events: [LiveSession.Event] = []
        for await event in session.events { events.append(event) }
        let result = await summary
        let replayed = Self.timeline(events)
        #expect(result.stopReason == nil)
        #expect(result.cameras.map(\.statistics.framesDetected) == [45, 37])
        #expect(replayed.frames == live.frames)
        #expect(replayed.sets == live.sets)
        let setNames = try FileManager.default.contentsOfDirectory(atPath: folder + "/replayed").filter { $0.hasPrefix("set_") }.sorted()
        for name in setNames {
            let original = try RigSetSidecar(parsing: Data(contentsOf: URL(fileURLWithPath: folder + "/pictures/" + name)))
            let again = try RigSetSidecar(parsing: Data(contentsOf: URL(fileURLWithPath: folder + "/replayed/" + name)))
            #expect(again.cameras.map(\.t) == original.cameras.map(\.t))
            #expect(again.cameras.map(\.frameIndex) == original.cameras.map(\.frameIndex))
        }
    }

    /// A recording written by hand: two cameras, two frames each.
    static func handMade(_ manifest: String, rig: String = "{\"cameras\":[{\"name\":\"left\",\"fps\":30},{\"name\":\"right\",\"fps\":25}]}\n")
        throws -> String
    {
        let folder = try TestPaths.temporaryFolder()
        try rig.write(toFile: folder + "/cameras.json", atomically: true, encoding: .utf8)
        try manifest.write(toFile: folder + "/manifest.jsonl", atomically: true, encoding: .utf8)
        for camera in ["left", "right"] {
            try FileManager.default.createDirectory(atPath: folder + "/" + camera, withIntermediateDirectories: true)
            for file in ["frame_000000.jpg", "frame_000001.jpg"] { try Data([1, 2, 3]).write(to: URL(fileURLWithPath: folder + "/\(camera)/\(file)")) }
        }
        return folder
    }

    static let good = """
        {"camera":"left","file":"frame_000000.jpg","t":10}
        {"camera":"right","file":"frame_000000.jpg","t":10.004}
        {"camera":"left","file":"frame_000001.jpg","t":10.033333}
        {"camera":"right","file":"frame_000001.jpg","t":10.044}

        """

    /// Every file of `folder`, with its bytes.
    static func contents(_ folder: String) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for path in FileManager.default.subpaths(atPath: folder) ?? [] {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isFolder), !isFolder.boolValue {
                result[path] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + path))
            }
        }
        return result
    }

    @Test func aGoodRecordingIsReadInOrder() throws {
        let folder = try Self.handMade(Self.good)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(RigRecording.isRig(folder))
        let recording = try RigRecording(folder: folder)
        #expect(recording.frames.map(\.camera) == [0, 1, 0, 1])
        #expect(recording.frames.map(\.time.offset) == [.seconds(10), .microseconds(10_004_000), .microseconds(10_033_333), .microseconds(10_044_000)])
        #expect(recording.frames[3].path == folder + "/right/frame_000001.jpg")
    }

    /// Each hostile recording is refused in words that name the line and what is wrong, and the
    /// recording is left as it was.
    @Test(arguments: [
        ("{\"camera\":\"middle\",\"file\":\"frame_000000.jpg\",\"t\":10}\n",
         "manifest.jsonl line 1: camera \"middle\" is not one of the rig's (left, right)"),
        ("{\"file\":\"frame_000000.jpg\",\"t\":10}\n",
         "manifest.jsonl line 1: names no camera; every line of a rig's manifest names its camera"),
        ("{\"camera\":\"left\",\"file\":\"../right/frame_000000.jpg\",\"t\":10}\n",
         "manifest.jsonl line 1: file \"../right/frame_000000.jpg\" must be a plain name inside left's folder"),
        ("{\"camera\":\"left\",\"file\":\"frame_000009.jpg\",\"t\":10}\n",
         "manifest.jsonl line 1: left/frame_000009.jpg is not a file in the recording"),
        ("{\"camera\":\"left\",\"file\":\"frame_000000.jpg\",\"t\":10}\n{\"camera\":\"right\",\"file\":\"frame_000000.jpg\",\"t\":9}\n"
            + "{\"camera\":\"left\",\"file\":\"frame_000001.jpg\",\"t\":9.5}\n",
         "manifest.jsonl line 3: left's time goes back: t 9.5 after 10"),
        ("{\"camera\":\"left\",\"file\":\"frame_000000.jpg\",\"t\":10}\n{\"camera\":\"left\",\"file\":\"frame_000001.jpg\",\"t\":10.1}\n",
         "manifest.jsonl: camera right has no frame"),
        ("{\"camera\":\"left\",\"file\":\"frame_000000.jpg\",\"t\":10}\n{\"camera\":\"left\",\"file\":\"frame_000000.jpg\",\"t\":10.1}\n",
         "manifest.jsonl line 2: left/frame_000000.jpg is named twice"),
        ("{\"camera\":\"left\",\"file\":\"frame_000000.jpg\",\"t\":-1}\n",
         "manifest.jsonl line 1: t -1.0 is not a timestamp from 0 to 1e9 seconds"),
        ("not json\n", "manifest.jsonl line 1: expected {\"camera\": ..., \"file\": ..., \"t\": seconds}"),
    ])
    func aHostileManifestIsRefused(manifest: String, message: String) throws {
        let folder = try Self.handMade(manifest)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let before = try Self.contents(folder)
        let error = #expect(throws: RigRecordingError.self) { try RigRecording(folder: folder) }
        #expect(error?.description == folder + "/" + message)
        #expect(try Self.contents(folder) == before)
    }

    /// `events.jsonl`, what the rig was told: read in order, and refused when it names a camera the
    /// rig does not have or takes the manifest's frames in another order or not at all.
    @Test(arguments: [
        ("{\"arrived\":\"left\",\"t\":10}\n{\"observed\":\"left\",\"file\":\"frame_000000.jpg\"}\n{\"arrived\":\"right\",\"t\":10.004}\n"
            + "{\"advance_arrivals\":10.02}\n{\"observed\":\"right\",\"file\":\"frame_000000.jpg\"}\n{\"advance\":10.03}\n"
            + "{\"arrived\":\"left\",\"t\":10.1,\"dropped\":2}\n"
            + "{\"observed\":\"left\",\"file\":\"frame_000001.jpg\"}\n{\"lost\":\"right\"}\n{\"observed\":\"right\",\"file\":\"frame_000001.jpg\"}\n",
         ""),
        ("{\"arrived\":\"left\",\"t\":10,\"dropped\":-1}\n", "events.jsonl line 1: dropped -1 is not a count of frames from 0 to 1000000"),
        ("{\"arrived\":\"middle\",\"t\":10}\n", "events.jsonl line 1: camera \"middle\" is not one of the rig's (left, right)"),
        ("{\"observed\":\"right\",\"file\":\"frame_000000.jpg\"}\n", "events.jsonl line 1: right/frame_000000.jpg is not the manifest's next frame"),
        ("{\"observed\":\"left\",\"file\":\"frame_000000.jpg\"}\n",
         "events.jsonl: 3 frames of the manifest are never observed, from right/frame_000000.jpg"),
        ("{\"advance\":-3}\n", "events.jsonl line 1: -3.0 is not a timestamp from 0 to 1e9 seconds"),
        ("{\"wait\":3}\n", "events.jsonl line 1: expected {\"arrived\": camera, \"t\": s[, \"dropped\": n]}, {\"observed\": camera, \"file\": name}, "
            + "{\"advance\": s}, {\"advance_arrivals\": s} or {\"lost\": camera}"),
    ])
    func theEventsAreReadOrRefused(events: String, message: String) throws {
        let folder = try Self.handMade(Self.good)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try events.write(toFile: folder + "/events.jsonl", atomically: true, encoding: .utf8)
        guard !message.isEmpty else {
            let steps = try RigRecording(folder: folder).steps
            #expect(steps == [.arrived(camera: 0, time: FrameTime(.seconds(10))), .observed(frame: 0),
                              .arrived(camera: 1, time: FrameTime(.microseconds(10_004_000))), .advanceArrivals(FrameTime(.microseconds(10_020_000))),
                              .observed(frame: 1), .advance(FrameTime(.microseconds(10_030_000))),
                              .arrived(camera: 0, time: FrameTime(.microseconds(10_100_000)), dropped: 2), .observed(frame: 2), .lost(camera: 1),
                              .observed(frame: 3)])
            return
        }
        let error = #expect(throws: RigRecordingError.self) { try RigRecording(folder: folder) }
        #expect(error?.description == folder + "/" + message)
    }

    /// Times no live rig writes, and a line longer than any it writes.
    static let eventsOutOfOrder: [(String, String)] = [
        // A camera's frames arrive in the order they were taken (the camera drops any whose time goes back).
        ("{\"arrived\":\"left\",\"t\":10.1}\n{\"arrived\":\"right\",\"t\":10.2}\n\n{\"arrived\":\"left\",\"t\":10}\n",
         "events.jsonl line 4: left's arrival at t=10 s is earlier than its arrival before it (t=10.1 s): "
            + "a camera's frames arrive in the order they were taken"),
        // A live rig moves its time on from its newest frame's timestamp, never to before it.
        ("{\"arrived\":\"right\",\"t\":10.1}\n{\"advance_arrivals\":10.05}\n",
         "events.jsonl line 2: time moves on to t=10.05 s, earlier than the newest arrival before it (t=10.1 s)"),
        ("{\"arrived\":\"right\",\"t\":10.1}\n{\"arrived\":\"left\",\"t\":10.2}\n{\"advance\":10.15}\n",
         "events.jsonl line 3: time moves on to t=10.15 s, earlier than the newest arrival before it (t=10.2 s)"),
        // Refused before the line is kept, whatever follows.
        ("{\"lost\":\"" + String(repeating: "a", count: 5000) + "\"}\n", "events.jsonl line 1: a line of more than 4096 bytes"),
    ]

    @Test(arguments: eventsOutOfOrder)
    func eventsOutOfOrderAreRefused(events: String, message: String) throws {
        try theEventsAreReadOrRefused(events: events, message: message)
    }

    /// What a live rig honestly records: time moving on that goes back a little (a frame that took
    /// longer to arrive moves the clock on from its own timestamp), arrivals of different cameras
    /// out of time order, and lines written by hand with spaces and keys in another order.
    @Test func timesThatALiveRigWritesAreRead() throws {
        let folder = try Self.handMade(Self.good)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try """
            {"arrived":"left","t":10}
            {"observed":"left","file":"frame_000000.jpg"}
            {"advance":10.2}
            {"arrived":"right","t":10.004}
            {"advance":10.1}
            { "file": "frame_000000.jpg", "observed": "right" }
            {"arrived":"left","t":10.033333,"dropped":1}
            {"observed":"left","file":"frame_000001.jpg"}
            {"arrived":"right","t":10.044}
            {"observed":"right","file":"frame_000001.jpg"}
            """.write(toFile: folder + "/events.jsonl", atomically: true, encoding: .utf8)
        let steps = try RigRecording(folder: folder).steps
        #expect(steps == [.arrived(camera: 0, time: FrameTime(.seconds(10))), .observed(frame: 0), .advance(FrameTime(.microseconds(10_200_000))),
                          .arrived(camera: 1, time: FrameTime(.microseconds(10_004_000))), .advance(FrameTime(.microseconds(10_100_000))),
                          .observed(frame: 1), .arrived(camera: 0, time: FrameTime(.microseconds(10_033_333)), dropped: 1), .observed(frame: 2),
                          .arrived(camera: 1, time: FrameTime(.microseconds(10_044_000))), .observed(frame: 3)])
    }

    /// A long list of events (here 200,000 after the frames', one microsecond apart, as dense as a
    /// file can hold them) is read line by line into as many steps, in order, each time exact.
    @Test func aLongEventListIsReadWhole() throws {
        let folder = try Self.handMade(Self.good)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let count = 200_000
        var text = ""
        for (camera, file, micros) in [("left", "frame_000000.jpg", 10_000_000), ("right", "frame_000000.jpg", 10_004_000),
                                       ("left", "frame_000001.jpg", 10_033_333), ("right", "frame_000001.jpg", 10_044_000)] {
            text += EventsLine.arrived(camera: camera, t: Double(micros) / 1e6, dropped: 0).text + EventsLine.observed(camera: camera, file: file).text
        }
        for n in 0..<count {
            let seconds = Double(20_000_000 + n) / 1e6
            text += n % 2 == 0 ? EventsLine.arrived(camera: "right", t: seconds, dropped: n % 3).text : EventsLine.advance(t: seconds).text
        }
        try text.write(toFile: folder + "/events.jsonl", atomically: true, encoding: .utf8)
        let steps = try RigRecording(folder: folder).steps
        #expect(steps.count == 8 + count)
        let extra = steps.dropFirst(8)
        let wrong = zip(0..<count, extra).first { n, step in
            let time = FrameTime(.microseconds(Int64(20_000_000 + n)))
            return step != (n % 2 == 0 ? .arrived(camera: 1, time: time, dropped: n % 3) : .advance(time))
        }
        #expect(wrong == nil, "\(String(describing: wrong))")
    }

    /// An `events.jsonl` that is a FIFO is refused at once rather than waited on.
    @Test func anEventListThatIsAFIFOIsRefused() throws {
        let folder = try Self.handMade(Self.good)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(mkfifo(folder + "/events.jsonl", 0o600) == 0)
        let error = #expect(throws: RigRecordingError.self) { try RigRecording(folder: folder) }
        #expect(error?.description == folder + "/events.jsonl cannot be read: not a regular file")
    }

    /// A frame file that is a link leading out of the recording is refused.
    @Test func aFrameLinkedOutsideIsRefused() throws {
        let folder = try Self.handMade(Self.good)
        let outside = try TestPaths.temporaryFolder()
        defer {
            try? FileManager.default.removeItem(atPath: folder)
            try? FileManager.default.removeItem(atPath: outside)
        }
        try Data([9]).write(to: URL(fileURLWithPath: outside + "/secret.jpg"))
        try FileManager.default.removeItem(atPath: folder + "/right/frame_000001.jpg")
        try FileManager.default.createSymbolicLink(atPath: folder + "/right/frame_000001.jpg", withDestinationPath: outside + "/secret.jpg")
        let error = #expect(throws: RigRecordingError.self) { try RigRecording(folder: folder) }
        let resolved = URL(fileURLWithPath: outside + "/secret.jpg").resolvingSymlinksInPath().path
        #expect(error?.description == folder + "/manifest.jsonl line 4: right/frame_000001.jpg leads outside the recording (to \(resolved))")
    }

    /// `cameras.json` must name 2 to 8 cameras with valid names and a rate.
    @Test(arguments: [
        ("{\"cameras\":[{\"name\":\"left\",\"fps\":30}]}", "cameras.json names 1 cameras; a rig has 2 to 8"),
        ("{\"cameras\":[{\"name\":\"left\",\"fps\":30},{\"name\":\"left\",\"fps\":30}]}", "cameras.json names camera left twice"),
        ("{\"cameras\":[{\"name\":\"left\",\"fps\":30},{\"name\":\"right\"}]}",
         "cameras.json: camera right needs fps from 1 to 1000 or frame_interval from 0.001 to 1 s"),
        // An interval that rounds to no time at all would divide by zero further on.
        ("{\"cameras\":[{\"name\":\"left\",\"fps\":30},{\"name\":\"right\",\"frame_interval\":1e-12}]}",
         "cameras.json: camera right needs fps from 1 to 1000 or frame_interval from 0.001 to 1 s"),
        ("[]", "cameras.json is not {\"cameras\":[{\"name\":...,\"fps\":...},...]}"),
    ])
    func aBadRigDescriptionIsRefused(rig: String, message: String) throws {
        let folder = try Self.handMade(Self.good, rig: rig)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let error = #expect(throws: RigRecordingError.self) { try RigRecording(folder: folder) }
        #expect(error?.description == message)
    }

    /// A single camera's recording is not a rig's.
    @Test func aSingleCameraRecordingIsNotARig() throws {
        #expect(!RigRecording.isRig(SampleSessionTests.folder))
    }
}
