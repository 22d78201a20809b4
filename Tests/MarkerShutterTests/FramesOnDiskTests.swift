import Foundation
import MarkerDetection
@testable import MarkerShutter
import Synchronization
import Testing

@Suite struct NaturalOrderTests {
    @Test func numbersCompareByValue() {
        #expect(NaturalOrder.sorted(["frame10.jpg", "frame2.jpg", "frame1.jpg", "frame002.jpg"])
            == ["frame1.jpg", "frame2.jpg", "frame002.jpg", "frame10.jpg"])
        #expect(NaturalOrder.sorted(["b", "a10b", "a2c", "a2b", "a"]) == ["a", "a2b", "a2c", "a10b", "b"])
        #expect(NaturalOrder.sorted(["left09.jpg", "left1.jpg", "left10.jpg"]) == ["left1.jpg", "left09.jpg", "left10.jpg"])
    }
}

@Suite struct FrameManifestTests {
    @Test func roundTripsItsLines() throws {
        let manifest = FrameManifest(entries: [
            .init(file: "frame_000000.jpg", t: 0, sequence: 812),
            .init(file: "frame_000001.jpg", t: 0.0333671, sequence: 813),
            .init(file: "odd \"name\".png", t: 12.5),
        ])
        #expect(manifest.text == """
            {"file":"frame_000000.jpg","t":0,"sequence":812}
            {"file":"frame_000001.jpg","t":0.033367,"sequence":813}
            {"file":"odd \\"name\\".png","t":12.5}

            """)
        let parsed = try FrameManifest(parsing: manifest.text)
        #expect(parsed.entries.map(\.file) == manifest.entries.map(\.file))
        #expect(parsed.entries[1].t == 0.033367)
        #expect(parsed.entries[2].sequence == nil)
    }

    /// Found by fuzzing: a huge time was written as "inf", which no parser reads. It is written as
    /// the number it is, and reading it says the time is out of range instead of overflowing.
    @Test func hugeTimesAreWrittenAsNumbersAndRefusedWithTheRangeWhenRead() throws {
        let manifest = FrameManifest(entries: [.init(file: "a.jpg", t: 0.01e308), .init(file: "b.jpg", t: 1.7e308)])
        #expect(manifest.text == "{\"file\":\"a.jpg\",\"t\":1e+306}\n{\"file\":\"b.jpg\",\"t\":1.7e+308}\n")
        #expect(throws: FrameManifestError.badLine(1, reason: "t must be -1000000000 to 1000000000 seconds, got 1e+306")) {
            try FrameManifest(parsing: manifest.text)
        }
    }

    @Test func refusesWhatItCannotReplay() {
        #expect(throws: FrameManifestError.badLine(2, reason: "expected {\"file\": ..., \"t\": seconds, \"sequence\": n}")) {
            try FrameManifest(parsing: "{\"file\":\"a.jpg\",\"t\":0}\nnot json\n")
        }
        #expect(throws: FrameManifestError.badLine(1, reason: "file \"../x.jpg\" must be a plain name inside the folder")) {
            try FrameManifest(parsing: "{\"file\":\"../x.jpg\",\"t\":0}")
        }
        #expect(throws: FrameManifestError.timeGoesBack(line: 2, file: "b.jpg", t: 0.5, previous: 1)) {
            try FrameManifest(parsing: "{\"file\":\"a.jpg\",\"t\":1}\n{\"file\":\"b.jpg\",\"t\":0.5}")
        }
    }
}

@Suite struct FrameFolderTests {
    func makeFolder(_ files: [String: String]) throws -> String {
        let path = NSTemporaryDirectory() + "frame-folder-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for (name, contents) in files {
            try contents.write(toFile: path + "/" + name, atomically: true, encoding: .utf8)
        }
        return path
    }

    @Test func withoutAManifestImagesAreTimedAtTheGivenRateInNaturalOrder() throws {
        let path = try makeFolder(["f10.jpg": "", "f2.PNG": "", "f1.jpg": "", "notes.txt": "", ".hidden.jpg": ""])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let folder = try FrameFolder(path: path, framesPerSecond: 25)
        #expect(folder.frames.map(\.file) == ["f1.jpg", "f2.PNG", "f10.jpg"])
        #expect(folder.frames.map(\.time) == [FrameTime(.zero), FrameTime(.milliseconds(40)), FrameTime(.milliseconds(80))])
        #expect(folder.timing == .rate(framesPerSecond: 25))
    }

    /// Foundation's listing turns such a name into U+FFFD, and the file could not be opened.
    @Test func aNameThatIsNotUTF8IsListedEscapedAndItsFileRead() throws {
        let path = try makeFolder(["a.jpg": ""])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let photo = TestPaths.sharedImages + "/chessboard/left01.jpg"
        let raw = Array((path + "/b").utf8) + [0xFF] + Array(".jpg".utf8)
        try FileManager.default.copyItem(atPath: photo, toPath: path + "/copy")
        let renamed = (raw + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { rename(path + "/copy", $0.baseAddress!) }
        }
        #expect(renamed == 0)
        let folder = try FrameFolder(path: path)
        #expect(folder.frames.map(\.file) == ["a.jpg", "b\\xFF.jpg"])
        let frame = folder.frames[1]
        #expect(frame.pathBytes == raw)
        #expect(folder.frames[0].pathBytes == nil)
        let pixels = try frame.readPixels()
        #expect(pixels.width == 640 && pixels.height == 480)
        #expect(try frame.readBytes() == Data(contentsOf: URL(fileURLWithPath: photo)))
        #expect(throws: ImageFileError.empty(path: path + "/a.jpg")) { try folder.frames[0].readPixels() }
    }

    /// A replay reads such a frame too, as `process` does, instead of skipping it as unreadable.
    @Test func aReplayDeliversAFrameWhoseNameIsNotUTF8() async throws {
        let path = try makeFolder([:])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let raw = Array((path + "/b").utf8) + [0xFF, 0xFE] + Array(".jpg".utf8)
        try FileManager.default.copyItem(atPath: TestPaths.sharedImages + "/chessboard/left01.jpg", toPath: path + "/copy")
        let renamed = (raw + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { rename(path + "/copy", $0.baseAddress!) }
        }
        #expect(renamed == 0)
        let source = ReplaySource(try FrameFolder(path: path))
        var delivered: [SourceFrame] = []
        var skipped: [MissingFrame] = []
        for try await item in source.start(notify: { _ in }) {
            switch item {
            case .frame(let frame): delivered.append(frame)
            case .missing(let missing): skipped.append(missing)
            }
        }
        #expect(skipped == [])
        #expect(delivered.map(\.file) == ["b\\xFF\\xFE.jpg"])
        #expect(delivered.first.map { [$0.pixels.width, $0.pixels.height] } == [640, 480])
    }

    @Test func aManifestGivesTheFramesAndTheirTimes() throws {
        let path = try makeFolder([
            "b.jpg": "", "a.jpg": "", "extra.jpg": "",
            "manifest.jsonl": "{\"file\":\"b.jpg\",\"t\":10.5,\"sequence\":7}\n{\"file\":\"a.jpg\",\"t\":10.55,\"sequence\":9}\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let folder = try FrameFolder(path: path)
        #expect(folder.timing == .manifest)
        #expect(folder.frames.map(\.file) == ["b.jpg", "a.jpg"])
        #expect(folder.frames.map(\.time) == [FrameTime(seconds: 10.5), FrameTime(seconds: 10.55)])
        #expect(folder.frames.map(\.sequence) == [7, 9])
    }

    /// A FIFO where the manifest belongs would block the reading of it forever.
    @Test func aManifestThatIsNotARegularFileIsRefusedUnread() throws {
        let path = try makeFolder(["a.jpg": ""])
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(mkfifo(path + "/manifest.jsonl", 0o644) == 0)
        #expect(throws: FrameFolderError.unreadable(path + "/manifest.jsonl", reason: "not a regular file")) {
            try FrameFolder(path: path)
        }
    }

    @Test func saysWhatIsWrongWithAFolder() throws {
        let empty = try makeFolder(["notes.txt": ""])
        let file = empty + "/notes.txt"
        defer { try? FileManager.default.removeItem(atPath: empty) }
        #expect(throws: FrameFolderError.missing("/nonexistent/frames")) { try FrameFolder(path: "/nonexistent/frames") }
        #expect(throws: FrameFolderError.notAFolder(file)) { try FrameFolder(path: file) }
        #expect(throws: FrameFolderError.empty(empty)) { try FrameFolder(path: empty) }
        #expect(throws: FrameFolderError.badRate(0)) { try FrameFolder(path: empty, framesPerSecond: 0) }
        let description = FrameFolderError.empty("/x").description
        #expect(description == "/x: no frames (image files ending in bmp, jpeg, jpg, png, tif, tiff, or a manifest.jsonl listing them)")
    }
}
