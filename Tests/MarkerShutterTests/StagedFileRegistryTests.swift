@testable import FileFormats
import Foundation
@testable import MarkerShutter
import Testing

/// The temporary files being written are known, so that a second Ctrl-C can remove them.
@Suite struct StagedFileRegistryTests {
    @Test func aTemporaryFileIsKnownWhileItExistsAndForgottenOnceRenamedOrRemoved() throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let committed = try SafeOutput.Staged(folder + "/rows.jsonl")
        let abandoned = try SafeOutput.Staged(folder + "/other.jsonl")
        let temporaries = [SafeOutput.temporaryPath(for: folder + "/rows.jsonl"), SafeOutput.temporaryPath(for: folder + "/other.jsonl")]
        #expect(SafeOutput.stagedFiles.isSuperset(of: temporaries))
        #expect(temporaries.allSatisfy { FileManager.default.fileExists(atPath: $0) })
        try committed.commit()
        abandoned.abandon()
        #expect(SafeOutput.stagedFiles.isDisjoint(with: temporaries))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["rows.jsonl"])
    }

    @Test func aFailedRenameForgetsAndRemovesItsTemporaryFile() throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/taken", withIntermediateDirectories: false)
        #expect(FileManager.default.createFile(atPath: folder + "/taken/inside", contents: Data()))
        let staged = try SafeOutput.Staged(folder + "/taken")
        let temporary = SafeOutput.temporaryPath(for: folder + "/taken")
        #expect(throws: OutputError.self) { try staged.commit() }
        #expect(!SafeOutput.stagedFiles.contains(temporary))
        #expect(!FileManager.default.fileExists(atPath: temporary))
    }
}
