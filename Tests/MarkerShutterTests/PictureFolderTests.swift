import FileFormats
import Foundation
import MarkerDetection
import MarkerShutter
import Pixels
import Testing

/// A valid observation of the shared ChArUco photo, with its pixels.
private func charucoObservation(index: Int = 7) throws -> FrameObservation {
    let pixels = try ImageFile.read(TestPaths.sharedImages + "/charuco/board.jpg")
    let pattern = try Pattern(parsing: "charuco:5x7:DICT_6X6_250")
    let detection = try MarkerDetector(pattern: pattern).detect(pixels)
    return FrameObservation(index: index, time: FrameTime(seconds: 1.25), sequence: 42, file: "board.jpg",
                            detection: detection, rule: ValidityRule(defaultsFor: pattern), pixels: pixels)
}

@Suite struct PictureFolderTests {
    @Test func savesTheHeldFrameLosslesslyWithItsSidecar() throws {
        let path = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: path) }
        var folder = try PictureFolder(path: path, pattern: try Pattern(parsing: "charuco:5x7:DICT_6X6_250"))
        let observation = try charucoObservation()
        #expect(observation.isValid)
        let state = ShutterState<FrameObservation>(phase: .held(since: FrameTime(seconds: 1.3)), held: (observation.index, observation))
        let saved = try folder.save(observation, state: state, at: FrameTime(seconds: 1.4), trigger: .request)
        #expect(saved.image == path + "/capture_0001.png")
        let written = try ImageFile.read(saved.image)
        #expect(written.width == 640 && written.height == 480)
        #expect((0..<480).allSatisfy { written.row($0) == observation.pixels!.row($0) }, "PNG is lossless")
        let sidecar = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: saved.sidecar))) as? [String: Any])
        #expect(sidecar["frame_index"] as? Int == 7)
        #expect(sidecar["shutter"] as? String == "held")
        #expect(abs((sidecar["hold_age_s"] as? Double ?? 0) - 0.1) < 1e-9)
        #expect(sidecar["t"] as? Double == 1.25)
        #expect(sidecar["sequence"] as? Int == 42)
        #expect((sidecar["corners"] as? [Any])?.count == 24)
        #expect(sidecar["pattern"] as? String == "charuco:5x7:DICT_6X6_250")
        #expect(sidecar["controls"] == nil, "no camera controls were set")
        let names = try FileManager.default.contentsOfDirectory(atPath: path).sorted()
        #expect(names == ["capture_0001.json", "capture_0001.png"], "no temporary file is left")
    }

    @Test func numbersContinueAfterPicturesAlreadyThere() throws {
        let path = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let earlier = Data("earlier session".utf8)
        try earlier.write(to: URL(fileURLWithPath: path + "/capture_0041.png"))
        var folder = try PictureFolder(path: path, pattern: try Pattern(parsing: "charuco:5x7:DICT_6X6_250"))
        #expect(folder.nextNumber == 42)
        let observation = try charucoObservation()
        let saved = try folder.save(observation, state: ShutterState(phase: .enabled, held: (7, observation)),
                                    at: observation.time, trigger: .auto)
        #expect(saved.number == 42)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path + "/capture_0041.png")) == earlier)
    }

    @Test func anInvalidObservationHasNoPixelsToSave() throws {
        let path = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let pattern = try Pattern(parsing: "chessboard:9x6")
        let pixels = try ImageFile.read(TestPaths.sharedImages + "/charuco/board.jpg")
        let observation = FrameObservation(index: 0, time: FrameTime(.zero), sequence: nil, file: nil,
                                           detection: try MarkerDetector(pattern: pattern).detect(pixels),
                                           rule: ValidityRule(defaultsFor: pattern), pixels: pixels)
        #expect(!observation.isValid)
        #expect(observation.pixels == nil)
        var folder = try PictureFolder(path: path, pattern: pattern)
        #expect(throws: PictureError.noFrame) {
            try folder.save(observation, state: .disabled, at: observation.time, trigger: .request)
        }
    }
}

@Suite struct AtomicFileTests {
    @Test func aFailedWriteSaysWhereWhatAndWhyAndLeavesNothing() throws {
        #expect(throws: OutputError(path: "/sys/marker-shutter-test.png", call: "open", errno: EACCES)) {
            try SafeOutput.write([1, 2, 3], to: "/sys/marker-shutter-test.png")
        }
        let error = OutputError(path: "/media/card/capture_0003.png", call: "write", errno: ENOSPC)
        #expect(error.description == "cannot write /media/card/capture_0003.png: write failed: No space left on device (ENOSPC); free some space or write elsewhere")
        #expect(OutputError(path: "/ro/x", call: "open", errno: EROFS).description
            == "cannot write /ro/x: open failed: Read-only file system (EROFS); the file system is read-only: choose another folder")
    }

    @Test func anExistingFileIsKeptUnlessReplacing() throws {
        let path = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try SafeOutput.write(Array("first".utf8), to: path + "/a.txt")
        #expect(throws: OutputError(path: path + "/a.txt", call: "rename", errno: EEXIST)) {
            try SafeOutput.write(Array("second".utf8), to: path + "/a.txt")
        }
        #expect(try String(contentsOfFile: path + "/a.txt", encoding: .utf8) == "first")
        try SafeOutput.write(Array("third".utf8), to: path + "/a.txt", replacing: true)
        #expect(try String(contentsOfFile: path + "/a.txt", encoding: .utf8) == "third")
        #expect(try FileManager.default.contentsOfDirectory(atPath: path) == ["a.txt"])
    }

    @Test func foldersAreMadeWithTheirParents() throws {
        let root = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try SafeOutput.prepareFolder(root + "/a/b/c")
        #expect(FileManager.default.fileExists(atPath: root + "/a/b/c"))
        try Data().write(to: URL(fileURLWithPath: root + "/file"))
        #expect(throws: OutputError(path: root + "/file", call: "mkdir", errno: ENOTDIR)) {
            try SafeOutput.prepareFolder(root + "/file")
        }
    }
}

@Suite struct FrameRecorderTests {
    @Test func recordsEveryFrameWithAManifestThatReplays() throws {
        let path = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let recorder = try FrameRecorder(folder: path + "/session")
        let pixels = try ImageFile.read(TestPaths.sharedImages + "/charuco/board.jpg")
        let start = FrameTime(seconds: 5000)
        for n in 0..<5 {
            recorder.record(SourceFrame(pixels: pixels, time: start + .milliseconds(33 * n), sequence: UInt64(100 + n)))
        }
        let summary = recorder.finish()
        #expect(summary.written == 5)
        #expect(summary.failure == nil)
        let folder = try FrameFolder(path: path + "/session")
        #expect(folder.timing == .manifest)
        #expect(folder.frames.map(\.file) == (0..<5).map { String(format: "frame_%06d.jpg", $0) })
        #expect(folder.frames.map(\.time) == (0..<5).map { FrameTime(.milliseconds(33 * $0)) })
        #expect(folder.frames.map(\.sequence) == (100..<105).map { UInt64($0) })
        let replayed = try ImageFile.read(folder.frames[4].path)
        #expect(replayed.width == 640 && replayed.height == 480)
    }

    @Test func refusesAFolderThatHoldsFilesAlready() throws {
        let path = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data().write(to: URL(fileURLWithPath: path + "/frame_000000.jpg"))
        #expect(throws: OutputError(path: path, call: "record into a non-empty folder", errno: ENOTEMPTY)) {
            try FrameRecorder(folder: path)
        }
    }
}
