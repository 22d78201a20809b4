import Foundation
import SystemCalls
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The program's one list of temporary files and folders, which a second signal removes.
@Suite struct StagedPathsTests {
    @Test func aPathIsKnownUntilItIsForgotten() {
        let file = "/nonexistent/.a.\(UUID().uuidString).tmp", folder = "/nonexistent/.b.\(UUID().uuidString).tmp"
        StagedPaths.withLock { registry in
            registry.add(file: file)
            registry.add(folder: folder)
        }
        #expect(StagedPaths.current.isSuperset(of: [file, folder]))
        StagedPaths.withLock { registry in
            #expect(registry.paths[file] == false)
            #expect(registry.paths[folder] == true)
            registry.forget(file)
            registry.forget(folder)
        }
        #expect(StagedPaths.current.isDisjoint(with: [file, folder]))
    }

    /// A folder is removed with everything in it, subfolders and names that are not UTF-8
    /// included; a missing one is no error.
    @Test func aFolderIsRemovedWithEverythingInIt() throws {
        let root = NSTemporaryDirectory() + "staged-paths-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let staging = root + "/.out.1.tmp"
        try FileManager.default.createDirectory(atPath: staging + "/undistorted/deeper", withIntermediateDirectories: true)
        for name in ["a.json", "undistorted/b.png", "undistorted/deeper/c"] {
            #expect(FileManager.default.createFile(atPath: staging + "/" + name, contents: Data("x".utf8)))
        }
        // A name of the bytes "d\xFF" (not UTF-8).
        let odd = Array((staging + "/undistorted/d").utf8) + [0xFF, 0]
        let descriptor = odd.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT, 0o644) }
        }
        try #require(descriptor >= 0)
        close(descriptor)
        StagedPaths.removeTree(staging)
        #expect(!FileManager.default.fileExists(atPath: staging))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root).isEmpty)
        StagedPaths.removeTree(staging)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root).isEmpty)
    }
}
