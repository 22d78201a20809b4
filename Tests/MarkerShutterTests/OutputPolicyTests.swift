import FileFormats
import Foundation
import MarkerShutter
import Testing

@Suite struct OutputPolicyTests {
    @Test func devicesFifosAndLinksAreWrittenThroughAndNeverReplaced() throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(mkfifo(folder + "/fifo", 0o644) == 0)
        #expect(FileManager.default.createFile(atPath: folder + "/target.jsonl", contents: Data("kept".utf8)))
        try FileManager.default.createSymbolicLink(atPath: folder + "/link", withDestinationPath: folder + "/target.jsonl")
        try FileManager.default.createSymbolicLink(atPath: folder + "/dangling", withDestinationPath: folder + "/nothing")
        #expect(try SafeOutput.destination(for: "/dev/full", replacing: false) == .through("/dev/full"))
        #expect(try SafeOutput.destination(for: "/dev/stdout", replacing: false) == .through("/dev/stdout"))
        #expect(try SafeOutput.destination(for: folder + "/fifo", replacing: false) == .through(folder + "/fifo"))
        #expect(try SafeOutput.destination(for: folder + "/link", replacing: true) == .through(folder + "/link"))
        #expect(try SafeOutput.destination(for: folder + "/dangling", replacing: false) == .through(folder + "/dangling"))
        #expect(try SafeOutput.destination(for: "-", replacing: false) == .standardOutput)
    }

    @Test func aRegularFileIsReplacedOnlyWhenAskedAndAFolderNever() throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(FileManager.default.createFile(atPath: folder + "/old.jsonl", contents: Data("kept".utf8)))
        #expect(throws: OutputError.exists(folder + "/old.jsonl")) {
            try SafeOutput.destination(for: folder + "/old.jsonl", replacing: false)
        }
        #expect(throws: OutputError.exists(folder + "/link")) {
            try FileManager.default.createSymbolicLink(atPath: folder + "/link", withDestinationPath: folder + "/old.jsonl")
            return try SafeOutput.destination(for: folder + "/link", replacing: false)
        }
        #expect(try SafeOutput.destination(for: folder + "/old.jsonl", replacing: true) == .replacing(folder + "/old.jsonl"))
        #expect(try SafeOutput.destination(for: folder + "/new.jsonl", replacing: false) == .replacing(folder + "/new.jsonl"))
        #expect(throws: OutputError.isFolder(folder)) { try SafeOutput.destination(for: folder, replacing: true) }
        #expect(OutputError.exists("x").description == "x exists; use --force to replace it")
    }

    @Test func anInputIsNeverAnOutputUnderAnyName() throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(FileManager.default.createFile(atPath: folder + "/frame.jpg", contents: Data([1])))
        try FileManager.default.createSymbolicLink(atPath: folder + "/alias.jpg", withDestinationPath: folder + "/frame.jpg")
        let inputs = [folder + "/frame.jpg", folder + "/manifest.jsonl"]
        #expect(throws: OutputError.isInput(folder + "/../" + (folder as NSString).lastPathComponent + "/frame.jpg", input: inputs[0])) {
            try SafeOutput.destination(for: folder + "/../" + (folder as NSString).lastPathComponent + "/frame.jpg",
                                         replacing: true, inputs: inputs)
        }
        #expect(throws: OutputError.isInput(folder + "/alias.jpg", input: inputs[0])) {
            try SafeOutput.destination(for: folder + "/alias.jpg", replacing: true, inputs: inputs)
        }
        #expect(throws: OutputError.isInput("--annotate \(folder)/.", input: folder)) {
            try SafeOutput.checkFolder(folder + "/.", option: "--annotate", notAnyOf: [folder])
        }
        // Nothing is written inside an input folder either: a new folder in it, or one reached through a link.
        #expect(throws: OutputError.insideInput("--select \(folder)/new", folder: folder)) {
            try SafeOutput.checkFolder(folder + "/new", option: "--select", notAnyOf: [folder])
        }
        let outside = folder + "-outside"
        try FileManager.default.createSymbolicLink(atPath: outside, withDestinationPath: folder)
        defer { try? FileManager.default.removeItem(atPath: outside) }
        #expect(throws: OutputError.insideInput("--annotate \(outside)/new/deeper", folder: folder)) {
            try SafeOutput.checkFolder(outside + "/new/deeper", option: "--annotate", notAnyOf: [folder])
        }
        #expect(throws: OutputError.insideInput(outside + "/rows.jsonl", folder: folder)) {
            try SafeOutput.checkOutside(outside + "/rows.jsonl", folders: [folder])
        }
        try SafeOutput.checkFolder(folder + "-sibling", option: "--select", notAnyOf: [folder])
        try SafeOutput.checkOutside("-", folders: [folder])
    }

    @Test func twoOutputFoldersAreNeverOneWhetherTheyExistOrNot() throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/made", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: folder + "/link", withDestinationPath: folder + "/made")
        #expect(throws: OutputError.sameFolder("--annotate \(folder)/made", "--select \(folder)/link")) {
            try SafeOutput.checkDistinct(("--annotate", folder + "/made"), ("--select", folder + "/link"))
        }
        #expect(throws: OutputError.sameFolder("--annotate \(folder)/new", "--select \(folder)/./new/")) {
            try SafeOutput.checkDistinct(("--annotate", folder + "/new"), ("--select", folder + "/./new/"))
        }
        try SafeOutput.checkDistinct(("--annotate", folder + "/made"), ("--select", folder + "/new"))
        try SafeOutput.checkDistinct(("--annotate", folder + "/new"), ("--select", folder + "/other"))
    }
}
