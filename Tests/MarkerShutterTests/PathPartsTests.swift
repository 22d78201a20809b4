@testable import FileFormats
import Foundation
@testable import MarkerShutter
import Testing

/// Paths split without Foundation's `deletingLastPathComponent`, which traps on `g`.
@Suite struct PathPartsTests {
    @Test(arguments: [
        ("g", "", "g"),
        (".", "", "."),
        ("é", "", "é"),
        ("g/", "", "g"),
        ("g//", "", "g"),
        ("a/b", "a", "b"),
        ("a//b/", "a", "b"),
        ("./g", ".", "g"),
        ("/g", "/", "g"),
        ("//g", "/", "g"),
        ("/", "/", ""),
        ("", "", ""),
        ("/a/bé/c.png", "/a/bé", "c.png"),
    ])
    func splitsAsDirnameAndBasenameDo(path: String, folder: String, name: String) {
        let parts = PathParts.split(path)
        #expect(parts.folder == folder)
        #expect(parts.name == name)
    }

    @Test func theTemporaryNameOfAOneCharacterPathIsInTheWorkingFolder() {
        let pid = getpid()
        #expect(SafeOutput.temporaryPath(for: "g") == ".g.\(pid).tmp")
        #expect(SafeOutput.temporaryPath(for: "out/g") == "out/.g.\(pid).tmp")
        #expect(SafeOutput.temporaryPath(for: "/g") == "/.g.\(pid).tmp")
    }

    @Test func aFileWithAOneCharacterNameIsWrittenAndItsFolderMade() throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try SafeOutput.prepareFolder(folder + "/x/y")
        try SafeOutput.write(Array("row\n".utf8), to: folder + "/x/y/g")
        #expect(try String(contentsOfFile: folder + "/x/y/g", encoding: .utf8) == "row\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/x/y") == ["g"])
    }
}
