import FileFormats
import Foundation
import MarkerDetection
@testable import MarkerShutter
import Pixels
import Synchronization
import Testing

/// `process` of a rig's recording (``RigProcessRun``): each camera's rows, as that camera alone
/// would have them, and the rig's changes, the same as `live --replay` of the recording gives.
@Suite struct RigProcessTests {
    static let pattern = "charuco:5x7:DICT_6X6_250"

    /// The sample session's frames the board is valid in (see `Samples/README.md`).
    static func sampleIsValid(_ index: Int) -> Bool {
        (0...29).contains(index) || (33...54).contains(index) || (57...71).contains(index) || (102...119).contains(index)
    }

    /// Which sample frame right's frame `n` shows.
    static func rightSample(_ n: Int) -> Int { n * 6 / 5 }

    /// A rig's recording made by hand from the sample session, with no `events.jsonl` (each frame
    /// arrives and is detected in turn): left shows every sample frame at its time plus 100 s (30
    /// fps); right, at 25 fps from 7 ms later, sample frame `n * 6 / 5` as its frame `n`, 100 frames.
    static func sampleRecording(in folder: String) throws -> String {
        let recording = folder + "/recording"
        let samples = try FrameFolder(path: SampleSessionTests.folder).frames
        for camera in ["left", "right"] {
            try FileManager.default.createDirectory(atPath: recording + "/" + camera, withIntermediateDirectories: true)
        }
        try "{\"cameras\":[{\"name\":\"left\",\"fps\":30},{\"name\":\"right\",\"fps\":25}]}\n"
            .write(toFile: recording + "/cameras.json", atomically: true, encoding: .utf8)
        var lines: [(t: Int64, text: String)] = []
        for (n, sample) in samples.enumerated() {
            let name = String(format: "frame_%06d.jpg", n)
            try FileManager.default.copyItem(atPath: sample.path, toPath: recording + "/left/" + name)
            let micros = 100_000_000 + Int64((sample.time.seconds * 1e6).rounded())
            lines.append((micros, ManifestLine(camera: "left", file: name, t: Double(micros) / 1e6, sequence: nil).text))
        }
        for n in 0..<100 {
            let name = String(format: "frame_%06d.jpg", n)
            try FileManager.default.copyItem(atPath: samples[rightSample(n)].path, toPath: recording + "/right/" + name)
            let micros = 100_007_000 + Int64(40_000 * n)
            lines.append((micros, ManifestLine(camera: "right", file: name, t: Double(micros) / 1e6, sequence: nil).text))
        }
        try lines.sorted { $0.t < $1.t }.map(\.text).joined().write(toFile: recording + "/manifest.jsonl", atomically: true, encoding: .utf8)
        return recording
    }

    static func configuration(_ recording: String, maxMotion: RigShutterMachine.Configuration.MotionLimit = .automatic,
                              mode: DetectionMode = .fast) throws -> RigProcessRun.Configuration {
        let read = try RigRecording(folder: recording, allowingMissingFrames: true)
        let pattern = try Pattern(parsing: Self.pattern)
        let rig = try RigShutterMachine.Configuration(cameras: read.cameras, maxMotion: maxMotion)
        var configuration = RigProcessRun.Configuration(recording: read, rig: rig, detector: try MarkerDetector(pattern: pattern, mode: mode),
                                                        rule: ValidityRule(defaultsFor: pattern))
        configuration.options.jobs = 2
        return configuration
    }

    /// Runs `configuration` into `path` and returns the result and the lines.
    static func run(_ configuration: RigProcessRun.Configuration, into path: String,
                    shouldStop: @escaping @Sendable () -> Bool = { false }, onFrame: () -> Void = {})
        throws -> (result: RigProcessRun.Result, lines: [String])
    {
        var configuration = configuration
        configuration.output = .replacing(path)
        let result = try RigProcessRun(configuration).run(shouldStop: shouldStop, onFrame: onFrame)
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        return (result, lines)
    }

    /// A line with its `detect_ms` (how long detection took) taken out.
    static func timeless(_ line: String) -> String {
        line.replacingOccurrences(of: #","detect_ms":[0-9.]+"#, with: "", options: .regularExpression)
    }

    /// The rig's state as a comparable text: enabled with its set (camera and index), or why not,
    /// and each camera's shutter.
    static func text(_ state: RigState, names: [String]) -> String {
        let cameras = zip(names, state.cameras).map { "\($0) \($1)" }.joined(separator: ", ")
        guard let set = state.set else { return "disabled: \(state.refusal.map { "\($0)" } ?? "") (\(cameras))" }
        return "enabled " + set.members.map { "\(names[$0.camera]) \($0.index)" }.joined(separator: " ")
            + String(format: " %.6f", set.largestDifference.inSeconds) + " (\(cameras))"
    }

    static func text(_ change: RigProcessLine.Change) -> String {
        let cameras = change.cameras.map { "\($0.camera) \($0.shutter)" }.joined(separator: ", ")
        switch change.state {
        case .enabled(let difference, let set):
            return "enabled " + set.map { "\($0.camera) \($0.index)" }.joined(separator: " ") + String(format: " %.6f", difference)
                + " (\(cameras))"
        case .disabled(let why):
            return "disabled: \(why) (\(cameras))"
        }
    }

    /// A rig recorded live (``RigRecorder``, with its `events.jsonl`) and processed: the rig lines
    /// are the changes `live --replay` of the same recording makes, one for one, and each camera's
    /// rows come in the order the rig took its frames.
    @Test func theRigLinesAreTheChangesOfAReplay() async throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let recording = folder + "/recording"
        _ = try await RigRecordingTests.recordRun(into: recording, pictures: folder + "/pictures")
        let read = try RigRecording(folder: recording)
        let names = read.cameras.map(\.name)

        var replayConfiguration = try RigRecordingTests.configuration(pictures: folder + "/replayed")
        replayConfiguration.replayInRealTime = false
        replayConfiguration.automatic = false
        let session = try LiveSession(replaying: read, configuration: replayConfiguration)
        async let summary = session.run()
        var replayed: [String] = []
        for await event in session.events {
            switch event {
            case .frame(let report, _, _) where report.rigChanged: replayed.append(Self.text(report.rig!, names: names))
            case .rigChanged(let state): replayed.append(Self.text(state, names: names))
            default: break
            }
        }
        #expect(await summary.stopReason == nil)

        var configuration = RigProcessRun.Configuration(recording: read, rig: try #require(replayConfiguration.rig), detector: replayConfiguration.detector,
                                                        rule: replayConfiguration.rule)
        configuration.options.jobs = 2
        let (result, lines) = try Self.run(configuration, into: folder + "/rows.jsonl")
        #expect(result.exit == .complete)
        let parsed = try lines.map { try RigProcessLine(parsing: $0) }
        var changes: [RigProcessLine.Change] = []
        var cameraOrder: [String] = []
        for line in parsed {
            switch line {
            case .rig(let change): changes.append(change)
            case .frame(let camera, let row):
                cameraOrder.append(camera)
                #expect(row.index == cameraOrder.filter { $0 == camera }.count - 1)
            }
        }
        #expect(changes.map(Self.text) == replayed)
        #expect(changes.count >= 4, "\(replayed)")
        #expect(changes.contains { if case .enabled = $0.state { true } else { false } }, "\(replayed)")
        #expect(changes.contains { $0.state == .disabled(why: "left and right do not see the board") }, "\(replayed)")
        #expect(cameraOrder == read.frames.map { names[$0.camera] })
        #expect(result.rigChanges == changes.count)
        // Each line's time is the machine's, never going back.
        #expect(zip(changes, changes.dropFirst()).allSatisfy { $0.t <= $1.t })
    }

    /// Each camera's rows are exactly those `process` writes for a folder of that camera's frames
    /// alone (with the same timestamps), `camera` put first: the valid frames are those of the
    /// sample's script.
    @Test func eachCamerasRowsAreThoseOfThatCameraAlone() throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let recording = try Self.sampleRecording(in: folder)
        let (result, lines) = try Self.run(try Self.configuration(recording), into: folder + "/rows.jsonl")
        #expect(result.exit == .complete)
        let manifest = try String(contentsOfFile: recording + "/manifest.jsonl", encoding: .utf8).split(separator: "\n")
            .map { try ManifestLine(parsing: $0) }
        for camera in ["left", "right"] {
            let alone = folder + "/" + camera
            try FileManager.default.createDirectory(atPath: alone, withIntermediateDirectories: true)
            var text = ""
            for line in manifest where line.camera == camera {
                try FileManager.default.copyItem(atPath: "\(recording)/\(camera)/\(line.file)", toPath: "\(alone)/\(line.file)")
                text += ManifestLine(file: line.file, t: line.t, sequence: nil).text
            }
            try text.write(toFile: alone + "/manifest.jsonl", atomically: true, encoding: .utf8)
            let pattern = try Pattern(parsing: Self.pattern)
            var single = ProcessRun.Configuration(folder: try FrameFolder(path: alone), detector: try MarkerDetector(pattern: pattern),
                                                  rule: ValidityRule(defaultsFor: pattern))
            single.output = .replacing(alone + ".jsonl")
            #expect(try ProcessRun(single).run().exit == .complete)
            let expected = try String(contentsOfFile: alone + ".jsonl", encoding: .utf8).split(separator: "\n")
                .map { Self.timeless("{\"camera\":\"\(camera)\"," + $0.dropFirst()) }
            let rows = lines.filter { $0.hasPrefix("{\"camera\":\"\(camera)\",") }.map(Self.timeless)
            #expect(rows == expected)
        }
        let left = try #require(result.cameras.first)
        let right = try #require(result.cameras.last)
        #expect(left.summary.frames == 120 && left.summary.validFrames == 85)
        #expect(right.summary.frames == 100 && right.summary.validFrames == (0..<100).filter { Self.sampleIsValid(Self.rightSample($0)) }.count)
        #expect(right.summary.validFrames == 70)
    }

    /// Detection on one thread per camera or several: the same lines, byte for byte but for how
    /// long each detection took.
    @Test func theLinesDoNotDependOnTheJobs() throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let recording = try Self.sampleRecording(in: folder)
        var one = try Self.configuration(recording)
        one.options.jobs = 1
        var many = one
        many.options.jobs = 6
        many.coreLimit = 8
        let (first, lines) = try Self.run(one, into: folder + "/one.jsonl")
        let (second, again) = try Self.run(many, into: folder + "/many.jsonl")
        #expect(first.jobs == 2 && first.cameras.map(\.summary.jobs) == [1, 1])
        #expect(second.jobs == 6 && second.cameras.map(\.summary.jobs) == [3, 3])
        #expect(lines.count == 220 + first.rigChanges)
        #expect(lines.map(Self.timeless) == again.map(Self.timeless))
    }

    /// A frame file that is corrupt, and one that is missing: each gets its camera's row with its
    /// `error`, every other frame its row, and the run says it is incomplete, naming both.
    @Test func aBrokenFrameGetsItsErrorRowAndNothingElseIsLost() throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let recording = try Self.sampleRecording(in: folder)
        try Data("not a picture".utf8).write(to: URL(fileURLWithPath: recording + "/right/frame_000005.jpg"))
        try FileManager.default.removeItem(atPath: recording + "/left/frame_000007.jpg")
        let (result, lines) = try Self.run(try Self.configuration(recording), into: folder + "/rows.jsonl")
        #expect(result.exit == .incomplete)
        let rows = try lines.compactMap { line -> (String, ProcessRow)? in
            guard case .frame(let camera, let row) = try RigProcessLine(parsing: line) else { return nil }
            return (camera, row)
        }
        #expect(rows.count == 220)
        let errors = rows.filter { if case .unreadable = $0.1.outcome { true } else { false } }
        #expect(errors.map { "\($0.0) \($0.1.index) \($0.1.file ?? "")" } == ["right 5 frame_000005.jpg", "left 7 frame_000007.jpg"])
        #expect(result.cameras.map(\.summary.errors.count) == [1, 1])
        #expect(result.cameras.map(\.summary.validFrames) == [84, 69])
        #expect(result.description.contains("\n    left/frame_000007.jpg: "), "\(result.description)")
        #expect(result.description.contains("\n    right/frame_000005.jpg: "), "\(result.description)")
        #expect(result.description.contains("  left: 120 frames, 119 detected, 84 valid, 1 error; "), "\(result.description)")
    }

    /// The summary names each camera (frames, detected, valid, errors, its own shutter) and the rig
    /// (its changes and how long it was enabled).
    @Test func theSummaryNamesEachCameraAndTheRig() throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let recording = try Self.sampleRecording(in: folder)
        let (result, lines) = try Self.run(try Self.configuration(recording, maxMotion: .pixelsPerFrame(5)), into: folder + "/rows.jsonl")
        let changes = try lines.compactMap { line -> RigProcessLine.Change? in
            guard case .rig(let change) = try RigProcessLine(parsing: line) else { return nil }
            return change
        }
        var enabled = Duration.zero
        var since: Double?
        for change in changes {
            if case .enabled = change.state { since = since ?? change.t } else if let start = since {
                enabled += .microseconds(Int64(((change.t - start) * 1e6).rounded()))
                since = nil
            }
        }
        // Still enabled at the end: until the last frame the machine saw.
        let last = try #require(try lines.compactMap { line -> Double? in
            guard case .frame(_, let row) = try RigProcessLine(parsing: line) else { return nil }
            return row.t
        }.max())
        let open = try #require(since, "right's last frames show the board, and left's")
        enabled += .microseconds(Int64(((last - open) * 1e6).rounded()))
        let description = result.description.split(separator: "\n").map(String.init)
        #expect(description.count == 5, "\(result.description)")
        #expect(description[0] == "\(recording): rig of 2 cameras (left, right), 220 frames, timestamps from manifest.jsonl")
        #expect(description[1].hasPrefix("  processed in "))
        #expect(description[2] == "  left: 120 frames, 120 detected, 85 valid, 0 errors; "
            + "shutter enabled 3.27 s in 2 stretches: 0-80, 102-119")
        #expect(description[3].hasPrefix("  right: 100 frames, 100 detected, 70 valid, 0 errors; shutter enabled "), "\(description[3])")
        #expect(description[4] == String(format: "  rig: %d changes, enabled %.2f s in %d stretches", changes.count, enabled.inSeconds,
                                         changes.filter { if case .enabled = $0.state { true } else { false } }.count))
        print(result.description)
    }

    /// `annotate`: each camera's frames drawn into a folder of its own, named as its frames; the
    /// lines are those of a run that draws nothing. A drawing that cannot be written is a warning
    /// naming its camera and frame, and the run is incomplete.
    @Test func eachCamerasFramesAreDrawnIntoItsOwnFolder() throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let recording = try Self.sampleRecording(in: folder)
        let plain = try Self.run(try Self.configuration(recording), into: folder + "/plain.jsonl")
        var configuration = try Self.configuration(recording)
        let drawn = folder + "/drawn"
        configuration.annotate = drawn
        let (result, lines) = try Self.run(configuration, into: folder + "/rows.jsonl")
        #expect(result.exit == .complete)
        #expect(lines.map(Self.timeless) == plain.lines.map(Self.timeless))
        #expect(try FileManager.default.contentsOfDirectory(atPath: drawn).sorted() == ["left", "right"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: drawn + "/left").sorted() == (0..<120).map { String(format: "frame_%06d.jpg", $0) })
        #expect(try FileManager.default.contentsOfDirectory(atPath: drawn + "/right").sorted() == (0..<100).map { String(format: "frame_%06d.jpg", $0) })
        let picture = try ImageFile.read(drawn + "/right/frame_000006.jpg")
        #expect(picture.width == 640 && picture.height == 480)
        #expect(result.description.contains("\n  annotated: each camera's frames drawn into \(drawn)/NAME"), "\(result.description)")

        // A folder where a drawing should go: that drawing is a warning, the rest are written.
        let again = folder + "/again"
        try FileManager.default.createDirectory(atPath: again + "/right/frame_000004.jpg", withIntermediateDirectories: true)
        configuration.annotate = again
        let (blocked, blockedLines) = try Self.run(configuration, into: folder + "/blocked.jsonl")
        #expect(blocked.exit == .incomplete)
        #expect(blockedLines.map(Self.timeless) == plain.lines.map(Self.timeless))
        #expect(blocked.warnings.count == 1 && blocked.warnings.first?.hasPrefix("right: annotating frame_000004.jpg: ") == true,
                "\(blocked.warnings)")
        #expect(blocked.description.contains("\n  warning: right: annotating frame_000004.jpg: "), "\(blocked.description)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: again + "/left").count == 120)
    }

    /// A stop keeps the lines before it, whole, and says how far the run came.
    @Test func aStopKeepsTheLinesBeforeIt() throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let recording = try Self.sampleRecording(in: folder)
        let written = Mutex(0)
        let (result, lines) = try Self.run(try Self.configuration(recording), into: folder + "/rows.jsonl",
                                           shouldStop: { written.withLock { $0 >= 10 } }, onFrame: { written.withLock { $0 += 1 } })
        #expect(result.exit == .interrupted)
        #expect(lines.filter { $0.hasPrefix("{\"camera\":") }.count == 10)
        #expect(try lines.allSatisfy { _ = try RigProcessLine(parsing: $0); return true })
        #expect(result.description.hasSuffix("\n  interrupted: stopped after 10 of 220 frames"), "\(result.description)")
    }

    /// A write that fails ends the output and the exit says what failed.
    @Test func aFailedWriteSaysWhatFailed() throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var configuration = try Self.configuration(try Self.sampleRecording(in: folder))
        configuration.output = .through("/dev/full")
        let result = try RigProcessRun(configuration).run()
        #expect(result.exit == .outputFailed(
            "cannot write /dev/full: write failed: No space left on device (ENOSPC); free some space or write elsewhere; "
                + "the 0 rows written before it are kept"))
    }
}
