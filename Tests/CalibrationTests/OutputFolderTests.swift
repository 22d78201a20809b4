import Calibration
import FileFormats
import Foundation
import SystemCalls
import Testing

/// Results appear together or not at all, and never inside the input.
@Suite struct OutputFolderTests {
    @Test func filesAppearOnlyOnCommit() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let output = try SafeOutput.Folder(path: root + "/out", input: root + "/in")
        try output.write(Array("a".utf8), to: "a.txt")
        try output.write(Array("b".utf8), to: "sub/b.txt")
        #expect(!FileManager.default.fileExists(atPath: root + "/out"))
        try output.commit()
        #expect(SidecarFolder.contents(root) == ["out"])  // no temporary folder left
        #expect(try String(contentsOfFile: root + "/out/sub/b.txt", encoding: .utf8) == "b")
    }

    @Test func anExistingFolderGetsItsFilesReplacedAndKeepsTheRest() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/out", withIntermediateDirectories: true)
        try "old".write(toFile: root + "/out/a.txt", atomically: true, encoding: .utf8)
        try "keep".write(toFile: root + "/out/other.txt", atomically: true, encoding: .utf8)
        let output = try SafeOutput.Folder(path: root + "/out", input: root + "/in")
        try output.write(Array("new".utf8), to: "a.txt")
        try output.commit()
        #expect(try String(contentsOfFile: root + "/out/a.txt", encoding: .utf8) == "new")
        #expect(try String(contentsOfFile: root + "/out/other.txt", encoding: .utf8) == "keep")
        #expect(SidecarFolder.contents(root) == ["out"])
    }

    @Test func abandonedOutputLeavesNothing() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        do {
            let output = try SafeOutput.Folder(path: root + "/out", input: root + "/in")
            try output.write(Array("a".utf8), to: "a.txt")
        }
        #expect(SidecarFolder.contents(root).isEmpty)
    }

    /// The temporary folder is on the program's list of temporary paths (which a second signal
    /// removes before it ends the program) exactly while it exists.
    @Test func theTemporaryFolderIsListedWhileItExists() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let committed = try SafeOutput.Folder(path: root + "/out", input: nil)
        let abandoned = try SafeOutput.Folder(path: root + "/other", input: nil)
        #expect(StagedPaths.current.isSuperset(of: [committed.staging, abandoned.staging]))
        try committed.write(Array("a".utf8), to: "a.txt")
        try committed.commit()
        #expect(!StagedPaths.current.contains(committed.staging))
        #expect(abandoned.abandon())
        #expect(!StagedPaths.current.contains(abandoned.staging))
        #expect(SidecarFolder.contents(root) == ["out"])
    }

    @Test func aFolderInPlaceOfAFileStopsTheCommitBeforeAnythingMoves() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/out/b.txt", withIntermediateDirectories: true)
        let output = try SafeOutput.Folder(path: root + "/out", input: root + "/in")
        try output.write(Array("a".utf8), to: "a.txt")
        try output.write(Array("b".utf8), to: "b.txt")
        #expect(throws: OutputError.notWritten(path: root + "/out/b.txt", reason: "it exists and is not a regular file")) {
            try output.commit()
        }
        #expect(SidecarFolder.contents(root + "/out") == ["b.txt"])
    }

    @Test func theInputFolderIsNeverWrittenInto() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/in", withIntermediateDirectories: true)
        for path in [root + "/in", root + "/in/calibration", root + "/in/../in/x"] {
            #expect(throws: OutputError.notWritten(
                path: path, reason: "it is inside the input folder \(root)/in, which is never written into")) {
                try SafeOutput.Folder(path: path, input: root + "/in")
            }
        }
        #expect(SidecarFolder.contents(root + "/in").isEmpty)
    }

    @Test func aFileInPlaceOfTheFolderIsRefused() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(FileManager.default.createFile(atPath: root + "/out", contents: Data("x".utf8)))
        #expect(throws: OutputError.notWritten(path: root + "/out", reason: "it exists and is not a folder")) {
            try SafeOutput.Folder(path: root + "/out", input: root + "/in")
        }
    }
}
