import Foundation
import Testing

/// Where `process` writes: never over an input, a kept file, a device or a link; every derived
/// file under a name of its own; and an exit status that says when a write failed.
@Suite struct OutputPathTests {
    static let chessboard = MarkerShutterBinary.sharedImages + "/chessboard"

    /// A folder with two chessboard frames, `a.jpg` and `a.png` (a JPEG under a .png name is read
    /// by its contents).
    static func twoFrames() throws -> String {
        let folder = try MarkerShutterBinary.temporaryFolder("two-frames")
        try FileManager.default.copyItem(atPath: chessboard + "/left01.jpg", toPath: folder + "/a.jpg")
        try FileManager.default.copyItem(atPath: chessboard + "/left02.jpg", toPath: folder + "/a.png")
        return folder
    }

    @Test func anExistingOutputIsKeptWithoutForceAndReplacedWithIt() throws {
        let folder = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let output = folder + "/rows.jsonl"
        try Data("earlier run\n".utf8).write(to: URL(fileURLWithPath: output))
        let refused = try MarkerShutterBinary.run(["process", Self.chessboard, "--pattern", "chessboard:9x6", "--output", output])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("\(output) exists; use --force to replace it"))
        #expect(!refused.standardError.contains("processed in"), "refused before any work")
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "earlier run\n")
        let forced = try MarkerShutterBinary.run(["process", Self.chessboard, "--pattern", "chessboard:9x6", "--output", output, "--force"])
        #expect(forced.status == 0)
        #expect(try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n").count == 9)
        let help = try MarkerShutterBinary.run(["process", "--help"])
        #expect(help.flowingOutput.contains("--output writes a new file, or replaces a regular file only with --force"))
    }

    @Test func anOutputThatCannotBeWrittenIsStatusOneWithTheMessage() throws {
        let result = try MarkerShutterBinary.run(["process", Self.chessboard, "--pattern", "chessboard:9x6", "--output", "/dev/full"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("cannot write /dev/full: write failed: No space left on device"), "\(result.standardError)")
        #expect(result.standardError.contains("the 0 rows written before it are kept"))
        #expect((try FileManager.default.attributesOfItem(atPath: "/dev/full")[.type] as? FileAttributeType) == .typeCharacterSpecial)
    }

    @Test func theManifestIsNeverTheOutput() throws {
        let frames = try Self.twoFrames()
        defer { try? FileManager.default.removeItem(atPath: frames) }
        let manifest = "{\"file\":\"a.jpg\",\"t\":0}\n{\"file\":\"a.png\",\"t\":0.5}\n"
        try Data(manifest.utf8).write(to: URL(fileURLWithPath: frames + "/manifest.jsonl"))
        let result = try MarkerShutterBinary.run(["process", frames, "--pattern", "chessboard:9x6",
                                                  "--output", frames + "/manifest.jsonl", "--force"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("would overwrite the input \(frames)/manifest.jsonl"), "\(result.standardError)")
        #expect(!result.standardError.contains("processed in"), "refused before any work")
        #expect(try String(contentsOfFile: frames + "/manifest.jsonl", encoding: .utf8) == manifest)
    }

    @Test func aLinkOrDevStdoutIsWrittenThroughAndDashIsStandardOutput() throws {
        let folder = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let arguments = ["process", Self.chessboard, "--pattern", "chessboard:9x6", "--output"]
        for output in ["-", "/dev/stdout"] {
            let result = try MarkerShutterBinary.run(arguments + [output])
            #expect(result.status == 0)
            #expect(result.jsonLines.count == 9, "\(output)")
        }
        #expect((try FileManager.default.attributesOfItem(atPath: "/dev/stdout")[.type] as? FileAttributeType) == .typeSymbolicLink)
        try FileManager.default.createSymbolicLink(atPath: folder + "/link.jsonl", withDestinationPath: folder + "/target.jsonl")
        let linked = try MarkerShutterBinary.run(arguments + [folder + "/link.jsonl"])
        #expect(linked.status == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder + "/link.jsonl") == folder + "/target.jsonl")
        #expect(try String(contentsOfFile: folder + "/target.jsonl", encoding: .utf8).split(separator: "\n").count == 9)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["link.jsonl", "target.jsonl"])
    }

    /// `board --force` used to rename its PNG over whatever --out named: a link, a FIFO, a device.
    @Test func boardWritesThroughALinkAFifoAndDashAndReplacesNone() throws {
        let folder = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("old".utf8).write(to: URL(fileURLWithPath: folder + "/target.png"))
        try FileManager.default.createSymbolicLink(atPath: folder + "/link.png", withDestinationPath: folder + "/target.png")
        #expect(mkfifo(folder + "/fifo.png", 0o644) == 0)
        let board = ["board", "chessboard", "9x6", "--width", "200", "--out"]

        let refused = try MarkerShutterBinary.run(board + [folder + "/link.png"])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("\(folder)/link.png exists; use --force to replace it"))
        let linked = try MarkerShutterBinary.run(board + [folder + "/link.png", "--force"])
        #expect(linked.status == 0, "\(linked.standardError)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder + "/link.png") == folder + "/target.png")
        let png = try Data(contentsOf: URL(fileURLWithPath: folder + "/target.png"))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))

        let piped = try HostileInputTests.runInShell("""
            cat "$1/fifo.png" > "$1/read.png" & "$0" board chessboard 9x6 --width 200 --force --out "$1/fifo.png"; status=$?
            wait; exit $status
            """, folder)
        #expect(piped.status == 0, "\(piped.standardError)")
        var status = stat()
        #expect(lstat(folder + "/fifo.png", &status) == 0 && status.st_mode & S_IFMT == S_IFIFO, "still a FIFO")
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/read.png")) == png)

        let dash = try HostileInputTests.runInShell("exec \"$0\" board chessboard 9x6 --width 200 --out - > \"$1/dash.png\"", folder)
        #expect(dash.status == 0)
        #expect(dash.standardError.contains("wrote standard output: chessboard:9x6, 200x152 pixels"), "\(dash.standardError)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/dash.png")) == png)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["dash.png", "fifo.png", "link.png", "read.png", "target.png"])
    }

    @Test func anOutputThatIsAFolderOrAnInputIsRefusedBeforeAnyWork() throws {
        let frames = try Self.twoFrames()
        defer { try? FileManager.default.removeItem(atPath: frames) }
        let before = try Data(contentsOf: URL(fileURLWithPath: frames + "/a.jpg"))
        let cases: [([String], String)] = [
            (["--output", frames], "\(frames) is a folder: give a file name"),
            (["--output", frames + "/a.jpg", "--force"], "would overwrite the input \(frames)/a.jpg"),
            (["--annotate", frames], "--annotate \(frames) would overwrite the input \(frames)"),
            (["--select", frames + "/."], "--select \(frames)/. would overwrite the input \(frames)"),
            (["--select", frames + "/picks"], "--select \(frames)/picks is inside the input folder \(frames), which is never written into"),
            (["--output", frames + "/rows.jsonl"], "\(frames)/rows.jsonl is inside the input folder \(frames), which is never written into"),
            (["--annotate", frames + "-out", "--select", frames + "-out/"],
             "--annotate \(frames)-out and --select \(frames)-out/ are one folder: give each its own"),
        ]
        for (options, message) in cases {
            let result = try MarkerShutterBinary.run(["process", frames, "--pattern", "chessboard:9x6"] + options)
            #expect(result.status == 1, "\(options)")
            #expect(result.standardError.contains(message), "\(result.standardError)")
            #expect(!result.standardError.contains("processed in"), "refused before any work")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: frames + "/a.jpg")) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: frames).sorted() == ["a.jpg", "a.png"])
        #expect(!FileManager.default.fileExists(atPath: frames + "-out"), "nothing made")

        let live = try MarkerShutterBinary.run(["live", "--replay", frames, "--out", frames + "/", "--pattern", "chessboard:9x6"])
        #expect(live.status == 1)
        #expect(live.standardError.contains("--out \(frames)/ would overwrite the input \(frames)"), "\(live.standardError)")
        let inside: [([String], String)] = [
            (["--out", frames + "/sets"], "--out \(frames)/sets is inside the input folder \(frames)"),
            (["--out", frames + "-sets", "--record", frames + "/again"], "--record \(frames)/again is inside the input folder \(frames)"),
        ]
        for (options, message) in inside {
            let refused = try MarkerShutterBinary.run(["live", "--replay", frames, "--pattern", "chessboard:9x6"] + options)
            #expect(refused.status == 1, "\(options)")
            #expect(refused.standardError.contains(message), "\(refused.standardError)")
        }
        #expect(!FileManager.default.fileExists(atPath: frames + "-sets"), "nothing made")
        #expect(try FileManager.default.contentsOfDirectory(atPath: frames).sorted() == ["a.jpg", "a.png"])
    }

    @Test func framesThatShareAStemAreAnnotatedToTwoFiles() throws {
        let frames = try Self.twoFrames()
        defer { try? FileManager.default.removeItem(atPath: frames) }
        let annotated = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: annotated) }
        let result = try MarkerShutterBinary.run(["process", frames, "--pattern", "chessboard:9x6", "--annotate", annotated])
        #expect(result.status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: annotated).sorted() == ["a.jpg", "a.png.jpg"])
    }

    @Test func anAnnotationThatCannotBeWrittenGivesStatusTwo() throws {
        let annotated = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: annotated) }
        // A folder where the annotation of left03.jpg goes: the rename onto it fails.
        try FileManager.default.createDirectory(atPath: annotated + "/left03.jpg/kept", withIntermediateDirectories: true)
        let result = try MarkerShutterBinary.run(["process", Self.chessboard, "--pattern", "chessboard:9x6", "--annotate", annotated])
        #expect(result.status == 2)
        #expect(result.standardError.contains("warning: annotating left03.jpg: cannot write \(annotated)/left03.jpg"), "\(result.standardError)")
        #expect(result.jsonLines.count == 9)
    }

    @Test func aSelectionThatCannotBeWrittenGivesStatusTwo() throws {
        let selected = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: selected) }
        // A folder under the name of every frame: no copy can be renamed onto it.
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.chessboard).filter { $0.hasSuffix(".jpg") }
        for name in names {
            try FileManager.default.createDirectory(atPath: selected + "/" + name + "/kept", withIntermediateDirectories: true)
        }
        let result = try MarkerShutterBinary.run(["process", Self.chessboard, "--pattern", "chessboard:9x6", "--select", selected])
        #expect(result.status == 2, "\(result.standardError)")
        #expect(result.standardError.contains("selected for calibration: 0 frames copied"), "\(result.standardError)")
        #expect(result.standardError.contains("  warning: left01.jpg: cannot write \(selected)/left01.jpg"), "\(result.standardError)")
        #expect(result.jsonLines.count == 9)
    }

    @Test func jobsAreCappedByTheCoresNotByTheFrames() throws {
        let result = try MarkerShutterBinary.run(["process", Self.chessboard, "--pattern", "chessboard:9x6", "--jobs", "1000"])
        #expect(result.status == 0)
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let jobs = min(cores, 9)
        #expect(result.standardError.contains("\(jobs) job\(jobs == 1 ? "" : "s"),"), "\(result.standardError)")
        #expect(result.standardError.contains("note: --jobs 1000 is more than the \(cores) cores: running \(cores)\n"))
        let help = try MarkerShutterBinary.run(["process", "--help"])
        #expect(help.flowingOutput.contains("more than the cores runs one per core, with a note"))
    }
}

/// `--output` on a disk that fills up, on a small tmpfs mounted in a private mount namespace.
@Suite struct FullDiskTests {
    @Test func theRowsWrittenBeforeTheDiskFilledAreKeptWholeAndNoTemporaryFileIsLeft() throws {
        let unshare = Process()
        unshare.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        unshare.arguments = ["-m", "sh", "-c", "mount -t tmpfs -o size=100k none /mnt"]
        unshare.standardError = FileHandle.nullDevice
        do {
            try unshare.run()
            unshare.waitUntilExit()
        } catch {
            try Test.cancel("unshare cannot run here: \(error)")
        }
        if unshare.terminationStatus != 0 {
            try Test.cancel("a small tmpfs cannot be mounted here (it needs root in a private mount namespace, unshare -m)")
        }
        let folder = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/disk", withIntermediateDirectories: false)
        // 120 rows of about 2 KB: the first 64 KB reach the 100 KB disk, the next write does not.
        let script = """
            mount -t tmpfs -o size=100k none "$2/disk" || exit 99
            "$0" process "$1" --output "$2/disk/rows.jsonl"; status=$?
            ls -A "$2/disk" > "$2/listing"; cp "$2/disk/rows.jsonl" "$2/rows.jsonl"; exit $status
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        process.arguments = ["-m", "sh", "-c", script, MarkerShutterBinary.path,
                             MarkerShutterBinary.packageRoot + "/Samples/charuco-session", folder]
        let errorPath = folder + "/stderr"
        #expect(FileManager.default.createFile(atPath: errorPath, contents: nil))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let standardError = try String(contentsOfFile: errorPath, encoding: .utf8)
        #expect(process.terminationStatus == 1, "\(standardError)")
        #expect(standardError.contains("cannot write \(folder)/disk/rows.jsonl: write failed: No space left on device"), "\(standardError)")
        #expect(try String(contentsOfFile: folder + "/listing", encoding: .utf8) == "rows.jsonl\n", "no temporary file left")
        let rows = try String(contentsOfFile: folder + "/rows.jsonl", encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(rows.last == "", "the file ends with a whole row")
        let indices = rows.dropLast().map { row in
            (try? JSONSerialization.jsonObject(with: Data(row.utf8)) as? [String: Any])?["index"] as? Int
        }
        #expect(indices.count > 0 && indices.count < 120)
        #expect(indices == Array(0..<indices.count).map { Optional($0) })
        #expect(standardError.contains("the \(indices.count) rows written before it are kept"), "\(standardError)")
    }
}
