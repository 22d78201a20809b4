import Foundation
import MarkerDetection
@testable import MarkerShutter
import Testing

/// The camera controls set for a live session, as recorded: on the manifest line where they change,
/// carried forward when the recording is read, and in the sidecar of each picture.
@Suite struct CameraControlRecordTests {
    static let controls: [String: Int64] = ["exposure_auto": 1, "exposure_absolute": 400, "gain": 10]

    @Test func aManifestLineCarriesTheControlsAndOlderReadersPassOverThem() throws {
        let entry = FrameManifest.Entry(file: "frame_000000.jpg", t: 0, sequence: 812, controls: Self.controls)
        let line = entry.text
        #expect(line == #"{"file":"frame_000000.jpg","t":0,"sequence":812,"controls":{"exposure_absolute":400,"exposure_auto":1,"gain":10}}"#
            + "\n")
        let text = line + FrameManifest.Entry(file: "frame_000001.jpg", t: 0.033, sequence: 813).text
        #expect(try FrameManifest(parsing: text).entries == [entry, .init(file: "frame_000001.jpg", t: 0.033, sequence: 813)])

        // A reader written before controls were recorded: the fields it knows, nothing else.
        struct OlderEntry: Decodable, Equatable {
            let file: String
            let t: Double
            let sequence: UInt64?
        }
        let older = try text.split(separator: "\n").map { try JSONDecoder().decode(OlderEntry.self, from: Data($0.utf8)) }
        #expect(older == [OlderEntry(file: "frame_000000.jpg", t: 0, sequence: 812),
                          OlderEntry(file: "frame_000001.jpg", t: 0.033, sequence: 813)])
    }

    @Test func controlsThatAreNotWholeNumbersAreRefused() {
        for controls in [#""gain""#, #"{"gain":"high"}"#, #"{"gain":1.5}"#, "[1]"] {
            #expect(throws: FrameManifestError.badLine(1, reason: "expected {\"file\": ..., \"t\": seconds, \"sequence\": n}")) {
                try FrameManifest(parsing: #"{"file":"a.jpg","t":0,"controls":"# + controls + "}")
            }
        }
    }

    @Test func theRecorderNamesTheControlsWhereTheyChangeAndTheFolderCarriesThemForward() throws {
        let path = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let recorder = try FrameRecorder(folder: path + "/session")
        let pixels = try ImageFile.read(TestPaths.sharedImages + "/charuco/board.jpg")
        let changed = Self.controls.merging(["gain": 20]) { $1 }
        let perFrame: [[String: Int64]] = [[:], Self.controls, Self.controls, changed, changed]
        for (n, controls) in perFrame.enumerated() {
            recorder.record(SourceFrame(pixels: pixels, time: FrameTime(seconds: Double(n) / 30), sequence: UInt64(n))
                .with(controls: controls))
        }
        #expect(recorder.finish().written == 5)
        let text = try String(contentsOfFile: path + "/session/manifest.jsonl", encoding: .utf8)
        #expect(try FrameManifest(parsing: text).entries.map(\.controls) == [nil, Self.controls, nil, changed, nil])
        let folder = try FrameFolder(path: path + "/session")
        #expect(folder.frames.map(\.controls) == perFrame)
    }

    /// Recorded with controls, replayed live: the pictures' sidecars name the controls the frames were taken with.
    @Test func picturesOfAReplayedRecordingNameItsControls() async throws {
        let path = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let sample = try FrameFolder(path: SampleSessionTests.folder)
        let recorder = try FrameRecorder(folder: path + "/recording")
        for (n, frame) in sample.frames.prefix(8).enumerated() {
            recorder.record(SourceFrame(pixels: try frame.readPixels(), time: FrameTime(seconds: Double(n) / 1000),
                                        sequence: frame.sequence).with(controls: Self.controls))
        }
        #expect(recorder.finish().written == 8)

        let pattern = try Pattern(parsing: "charuco:5x7:DICT_6X6_250")
        var configuration = LiveSession.Configuration(detector: try MarkerDetector(pattern: pattern),
                                                      rule: ValidityRule(defaultsFor: pattern), hold: .milliseconds(300),
                                                      pictures: path + "/pictures")
        configuration.automatic = true
        let session = try LiveSession(source: .replay(path: path + "/recording", framesPerSecond: 30), configuration: configuration)
        let events = Task { var saved: [LiveSession.SavedPicture] = []
            for await event in session.events { if case .pictureSaved(let picture) = event { saved.append(picture) } }
            return saved
        }
        let summary = await session.run()
        let saved = await events.value
        #expect(summary.failure == nil)
        let first = try #require(saved.first, "no picture was taken: \(summary)")
        let sidecar = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: first.sidecar)))
            as? [String: Any])
        #expect(sidecar["controls"] as? [String: Int] == ["exposure_auto": 1, "exposure_absolute": 400, "gain": 10])
        #expect(try String(contentsOfFile: first.sidecar, encoding: .utf8)
            .contains(#""controls":{"exposure_absolute":400,"exposure_auto":1,"gain":10}"#))
    }
}
