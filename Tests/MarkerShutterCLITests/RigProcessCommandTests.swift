import Foundation
import Testing

/// `marker-shutter process RIG_RECORDING`: each camera's rows and the rig's changes, one JSON Lines
/// stream; the summary names each camera and the rig; what does not go with a rig is refused.
@Suite struct RigProcessCommandTests {
    static let pattern = ["--pattern", "charuco:5x7:DICT_6X6_250"]

    /// A rig's recording made from the sample session (no `events.jsonl`): left, every sample frame
    /// at its time plus 100 s; right, at 25 fps from 7 ms later, sample frame `n * 6 / 5` as its frame `n`.
    static func recording(in folder: String) throws -> String {
        let recording = folder + "/rig-recording"
        let sample = MarkerShutterBinary.packageRoot + "/Samples/charuco-session"
        let manifest = try String(contentsOfFile: sample + "/manifest.jsonl", encoding: .utf8).split(separator: "\n")
        let times = try manifest.map { line -> Int64 in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return Int64((try #require(object["t"] as? Double) * 1e6).rounded())
        }
        for camera in ["left", "right"] {
            try FileManager.default.createDirectory(atPath: recording + "/" + camera, withIntermediateDirectories: true)
        }
        try "{\"cameras\":[{\"name\":\"left\",\"fps\":30},{\"name\":\"right\",\"fps\":25}]}\n"
            .write(toFile: recording + "/cameras.json", atomically: true, encoding: .utf8)
        var lines: [(t: Int64, text: String)] = []
        func add(_ camera: String, _ n: Int, sample index: Int, micros: Int64) throws {
            let name = String(format: "frame_%06d.jpg", n)
            try FileManager.default.copyItem(atPath: sample + String(format: "/frame_%06d.jpg", index), toPath: "\(recording)/\(camera)/\(name)")
            let seconds = String(format: "%.6f", Double(micros) / 1e6)
            lines.append((micros, "{\"camera\":\"\(camera)\",\"file\":\"\(name)\",\"t\":\(seconds)}\n"))
        }
        for n in times.indices { try add("left", n, sample: n, micros: 100_000_000 + times[n]) }
        for n in 0..<100 { try add("right", n, sample: n * 6 / 5, micros: 100_007_000 + 40_000 * Int64(n)) }
        try lines.sorted { $0.t < $1.t }.map(\.text).joined().write(toFile: recording + "/manifest.jsonl", atomically: true, encoding: .utf8)
        return recording
    }

    /// The guide's example, run as the guide shows it: every frame's row under its camera, the rig's
    /// changes between them, and the summary the guide prints.
    @Test func theGuidesRigRecordingGivesEachCamerasRowsAndTheRigsChanges() throws {
        let folder = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let recording = try Self.recording(in: folder)
        let guide = try String(contentsOfFile: MarkerShutterBinary.packageRoot + "/Docs/guide.md", encoding: .utf8)
        let example = try #require(DocumentedExample.parse(guide).first { $0.command.hasPrefix("marker-shutter process rig-recording ") })
        #expect(example.command == "marker-shutter process rig-recording --max-motion 5 --output rig-rows.jsonl")
        let result = try DocsExamplesTests.shell(example.command, in: folder)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
        let documented = try #require(example.output)
        let mismatch = DocsExamplesTests.mismatch(documented: documented, printed: result.standardError)
        #expect(mismatch == nil, "\(mismatch ?? "")\n--- printed:\n\(result.standardError)")

        let lines = try String(contentsOfFile: folder + "/rig-rows.jsonl", encoding: .utf8).split(separator: "\n").map(String.init)
        let rows = lines.filter { $0.hasPrefix("{\"camera\":") }
        let changes = lines.filter { $0.hasPrefix("{\"rig\":") }
        #expect(rows.count == 220 && changes.count == 14 && lines.count == 234)
        #expect(rows.first?.hasPrefix("{\"camera\":\"left\",\"index\":0,\"file\":\"frame_000000.jpg\",\"t\":100,\"sequence\":null,\"valid\":true,")
            == true, "\(rows.first ?? "")")
        #expect(rows.filter { $0.hasPrefix("{\"camera\":\"right\",") }.count == 100)
        // Before right's first frame, the rig waits for it: the first line says so, at left's first frame.
        #expect(lines.first == "{\"rig\":\"disabled\",\"t\":100,\"why\":\"no frame from right yet\","
            + "\"cameras\":[{\"camera\":\"left\",\"shutter\":\"disabled\"},{\"camera\":\"right\",\"shutter\":\"stalled\"}]}")
        // The first set, as the guide and Docs/formats.md show it, right after right's frame 6.
        let enabled = "{\"rig\":\"enabled\",\"t\":100.247,\"largest_difference_s\":0.013343,"
            + "\"set\":[{\"camera\":\"left\",\"index\":7},{\"camera\":\"right\",\"index\":6}],"
            + "\"cameras\":[{\"camera\":\"left\",\"shutter\":\"enabled\"},{\"camera\":\"right\",\"shutter\":\"enabled\"}]}"
        let first = try #require(lines.firstIndex(of: enabled), "\(changes)")
        #expect(lines[first - 1].hasPrefix("{\"camera\":\"right\",\"index\":6,\"file\":\"frame_000006.jpg\",\"t\":100.247,"))
        #expect(changes.filter { $0.hasPrefix("{\"rig\":\"enabled\",") }.count == 2)
        // The recording is as it was.
        #expect(try FileManager.default.contentsOfDirectory(atPath: recording).sorted() == ["cameras.json", "left", "manifest.jsonl", "right"])
    }

    /// What does not go with a rig's recording, or only with one, is a usage error before any work.
    @Test func optionsThatDoNotGoWithARigAreRefused() throws {
        let folder = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let recording = try Self.recording(in: folder)
        for (arguments, message) in [
            (["--select", "picks"], "--select does not go with a rig's recording: `live --replay` of it with --auto takes the sets"),
            (["--require", "3"], "--require takes all or a number from 2 to 2 (the cameras given), not 3"),
            (["--max-motion", "fast"], "--max-motion takes a number of pixels per frame more than 0, or off, got fast"),
        ] {
            try MarkerShutterBinary.expectUsageError(["process", recording] + Self.pattern + arguments, message: message)
        }
        let sample = MarkerShutterBinary.packageRoot + "/Samples/charuco-session"
        try MarkerShutterBinary.expectUsageError(["process", sample, "--sync-tolerance", "5"],
                                                 message: "--sync-tolerance goes with a rig's recording (a folder with cameras.json); \(sample) is one camera's")
    }

    /// A recording the reader refuses is an error naming the file and the line, status 1, before
    /// anything is written; the recording is left as it was.
    @Test func aRecordingTheReaderRefusesNamesTheLine() throws {
        let folder = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let recording = try Self.recording(in: folder)
        let manifest = try String(contentsOfFile: recording + "/manifest.jsonl", encoding: .utf8)
        var lines = manifest.split(separator: "\n").map(String.init)
        lines[1] = lines[1].replacingOccurrences(of: "\"camera\":\"right\"", with: "\"camera\":\"middle\"")
        try (lines.joined(separator: "\n") + "\n").write(toFile: recording + "/manifest.jsonl", atomically: true, encoding: .utf8)
        let result = try MarkerShutterBinary.run(["process", recording, "--output", "rows.jsonl"] + Self.pattern, in: folder)
        #expect(result.status == 1)
        #expect(result.standardError.contains("cannot process \(recording): \(recording)/manifest.jsonl line 2: "
            + "camera \"middle\" is not one of the rig's (left, right)\n"), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/rows.jsonl"))

        try manifest.write(toFile: recording + "/manifest.jsonl", atomically: true, encoding: .utf8)
        try "{\"arrived\":\"left\",\"t\":100}\n{\"observed\":\"right\",\"file\":\"frame_000000.jpg\"}\n"
            .write(toFile: recording + "/events.jsonl", atomically: true, encoding: .utf8)
        let events = try MarkerShutterBinary.run(["process", recording, "--output", "rows.jsonl"] + Self.pattern, in: folder)
        #expect(events.status == 1)
        #expect(events.standardError.contains("cannot process \(recording): \(recording)/events.jsonl line 2: "
            + "right/frame_000000.jpg is not the manifest's next frame\n"), "\(events.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/rows.jsonl"))
    }

    /// `--shard` takes one camera's frames: a rig's recording is named and no shard is written.
    @Test func aRigsRecordingIsNotSharded() throws {
        let folder = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let recording = try Self.recording(in: folder)
        let result = try MarkerShutterBinary.run(["process", recording, "--shard", "0/1", "--output", "shards"] + Self.pattern, in: folder)
        #expect(result.status == 1)
        #expect(result.standardError.contains("nothing to process: \(recording) is a rig's recording; --shard takes one camera's frames"),
                "\(result.standardError)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: folder + "/shards")) ?? []).isEmpty)
    }

    /// An output that is a file of the recording is refused, even with --force, and the file is kept.
    @Test func theRecordingIsNeverWritten() throws {
        let folder = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let recording = try Self.recording(in: folder)
        let manifest = try String(contentsOfFile: recording + "/manifest.jsonl", encoding: .utf8)
        for target in ["manifest.jsonl", "cameras.json", "left/frame_000003.jpg"] {
            let result = try MarkerShutterBinary.run(["process", recording, "--output", recording + "/" + target, "--force"] + Self.pattern,
                                                     in: folder)
            #expect(result.status == 1, "\(target): \(result.standardError)")
            #expect(result.standardOutput.isEmpty)
        }
        try FileManager.default.createSymbolicLink(atPath: folder + "/link", withDestinationPath: recording)
        for target in [recording, recording + "/left", folder + "/link"] {
            let result = try MarkerShutterBinary.run(["process", recording, "--annotate", target, "--output", "rows.jsonl"] + Self.pattern,
                                                     in: folder)
            #expect(result.status == 1, "\(target): \(result.standardError)")
            #expect(result.standardError.contains("--annotate "), "\(result.standardError)")
            #expect(!FileManager.default.fileExists(atPath: folder + "/rows.jsonl"))
        }
        #expect(try String(contentsOfFile: recording + "/manifest.jsonl", encoding: .utf8) == manifest)
        #expect(try Data(contentsOf: URL(fileURLWithPath: recording + "/left/frame_000003.jpg"))
            == Data(contentsOf: URL(fileURLWithPath: MarkerShutterBinary.packageRoot + "/Samples/charuco-session/frame_000003.jpg")))
    }
}
