@testable import Calibration
import FileFormats
import Foundation
import Synchronization
import Testing

/// Replacing the files of an existing output folder is all or nothing: a move that fails puts the
/// old files back, and the error says what the folder holds.
@Suite struct OutputReplacementTests {
    /// A folder `out` in a new root holding old `a.txt`, `b.txt` and `keep.txt`.
    static func oldFolder() throws -> String {
        let root = try temporaryFolder()
        try FileManager.default.createDirectory(atPath: root + "/out", withIntermediateDirectories: true)
        for name in ["a.txt", "b.txt", "keep.txt"] {
            try "old \(name)".write(toFile: root + "/out/" + name, atomically: false, encoding: .utf8)
        }
        return root
    }

    static func text(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

    /// A rename that fails with `errno` on the calls numbered in `failing` (from 1), and renames otherwise.
    static func failing(_ failing: Set<Int>, errno code: Int32 = EIO) -> @Sendable (String, String) -> Int32 {
        let calls = Mutex(0)
        return { from, to in
            let call = calls.withLock { count in
                count += 1
                return count
            }
            if failing.contains(call) { return code }
            return rename(from, to) == 0 ? 0 : errno
        }
    }

    @Test(arguments: [1, 2, 3, 4, 5])
    func aFailedMoveLeavesTheOldSetWhole(failingCall: Int) throws {
        let root = try Self.oldFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let output = try SafeOutput.Folder(path: root + "/out", input: nil, move: Self.failing([failingCall]))
        try output.write(Array("new a".utf8), to: "a.txt")
        try output.write(Array("new b".utf8), to: "b.txt")
        try output.write(Array("new c".utf8), to: "sub/c.txt")
        do {
            try output.commit()
            Issue.record("the commit went through")
        } catch {
            guard case .notWritten(let path, let reason) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(path.hasPrefix(root + "/out/"))
            #expect(reason == "rename failed: Input/output error (EIO)")
            #expect(error.description.hasSuffix("; nothing was written"))
        }
        #expect(SidecarFolder.contents(root + "/out") == ["a.txt", "b.txt", "keep.txt"])
        for name in ["a.txt", "b.txt", "keep.txt"] { #expect(Self.text(root + "/out/" + name) == "old \(name)") }
    }

    /// When putting an old file back fails too, the error says the folder is mixed and where the
    /// old files are, and they are kept there.
    @Test func aFailedUndoSaysWhereTheOldFilesAre() throws {
        let root = try Self.oldFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        // Calls: 1 a aside, 2 a in, 3 b aside (fails), 4 undo a in, 5 undo a aside (fails).
        let output = try SafeOutput.Folder(path: root + "/out", input: nil, move: Self.failing([3, 5]))
        try output.write(Array("new a".utf8), to: "a.txt")
        try output.write(Array("new b".utf8), to: "b.txt")
        let aside = output.staging + "/.replaced"
        #expect(throws: OutputError.partlyReplaced(
            path: root + "/out/b.txt", reason: "rename failed: Input/output error (EIO)", keptIn: aside)) {
            try output.commit()
        }
        #expect(Self.text(aside + "/a.txt") == "old a.txt")
        #expect(Self.text(root + "/out/b.txt") == "old b.txt")
        #expect(!output.abandon(), "the old files set aside must not be removed")
        #expect(Self.text(aside + "/a.txt") == "old a.txt")
    }

    @Test func aSuccessfulReplacementLeavesNoTemporaryFolder() throws {
        let root = try Self.oldFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let output = try SafeOutput.Folder(path: root + "/out", input: nil)
        try output.write(Array("new a".utf8), to: "a.txt")
        try output.write(Array("new c".utf8), to: "sub/c.txt")
        try output.commit()
        #expect(SidecarFolder.contents(root) == ["out"])
        #expect(SidecarFolder.contents(root + "/out") == ["a.txt", "b.txt", "keep.txt", "sub"])
        #expect(Self.text(root + "/out/a.txt") == "new a" && Self.text(root + "/out/b.txt") == "old b.txt")
        #expect(Self.text(root + "/out/sub/c.txt") == "new c")
    }

    @Test func abandoningRemovesTheTemporaryFolderAndRefusesMore() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let output = try SafeOutput.Folder(path: root + "/out", input: nil)
        try output.write(Array("a".utf8), to: "a.txt")
        #expect(output.abandon())
        #expect(SidecarFolder.contents(root).isEmpty)
        #expect(throws: OutputError.notWritten(path: root + "/out", reason: "the results were abandoned")) {
            try output.write(Array("b".utf8), to: "b.txt")
        }
        #expect(throws: OutputError.notWritten(path: root + "/out", reason: "the results were abandoned")) { try output.commit() }
        #expect(SidecarFolder.contents(root).isEmpty)

        let committed = try SafeOutput.Folder(path: root + "/done", input: nil)
        try committed.write(Array("a".utf8), to: "a.txt")
        try committed.commit()
        #expect(!committed.abandon())
        #expect(SidecarFolder.contents(root + "/done") == ["a.txt"])
    }

    @Test(arguments: ["../a.txt", "/etc/a.txt", "a/../../b.txt", "a/b/c.txt", "", "./a.txt"])
    func aNameOutsideTheFolderIsRefused(name: String) throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let output = try SafeOutput.Folder(path: root + "/out/inner", input: nil)
        #expect(throws: OutputError.notWritten(
            path: root + "/out/inner", reason: "\"\(name)\" is not a file name, or one folder and a file name, inside it")) {
            try output.write(Array("x".utf8), to: name)
        }
        #expect(SidecarFolder.contents(root + "/out") == [".inner.\(getpid()).tmp"])
    }
}
