import Foundation
import Testing

/// Every command README.md and Docs/guide.md show is run against the bundled sample, in a
/// temporary folder, and what it prints is compared with what the document prints (see
/// ``DocumentedExample`` for how a document marks them). Commands that need a camera, a display,
/// the network or root are listed in ``notRun`` with the reason.
@Suite struct DocsExamplesTests {
    /// Commands shown but not run here, and why. Each must appear in a document, and each command a
    /// document shows must be run or listed here.
    static let notRun: [String: String] = [
        "Scripts/install-dependencies && swift run marker-shutter process Samples/charuco-session --output timeline.jsonl":
            "installs Debian packages as root and builds the package; the summary printed for it is checked by "
            + "running its last part, marked in README.md",
        "swift test": "runs this test suite",
        "Scripts/package-deb": "builds the Debian package with a release build of its own, minutes of compiling",
        "sudo apt-get install ./marker-shutter_*.deb": "installs a package into the machine as root",
        "marker-shutter process /usr/share/marker-shutter/charuco-session --output timeline.jsonl":
            "runs the installed package's sample; Scripts/check-installed-package runs it and compares the summary README.md shows",
        "marker-shutter devices --directory /tmp/cam":
            "needs the emulated camera set up in /tmp/cam under Scripts/with-emulated-camera "
            + "(DevicesCommandTests checks what devices prints for such a camera)",
        "marker-shutter devices": "lists the cameras of the machine it runs on",
        "Scripts/start-local-slurm": "starts Slurm's daemons as root (SlurmArrayTests starts it and runs the array job)",
        "Samples/slurm/submit Samples/charuco-session --tasks 4 --shards shards --output timeline.jsonl":
            "needs the local Slurm; SlurmArrayTests runs it and compares the merged rows and summary with process",
        "MARKER_SHUTTER_SHARDS=4 sbatch --wait --array=2 Samples/slurm/process-task.sbatch Samples/charuco-session --output shards":
            "needs the local Slurm; SlurmArrayTests runs a killed task again alone this way",
        "marker-shutter devices --device /dev/v4l/by-id/usb-...-video-index0 --lock": "needs a camera",
        "marker-shutter live --device /dev/v4l/by-id/usb-...-video-index0 --lock --auto --calibrate --serve 8080":
            "needs a camera, and serves on a network port until stopped",
        "(sleep 5; echo capture; sleep 2; echo quit) | marker-shutter live --camera left=/tmp/cam-rig/video0 --camera right=/tmp/cam-rig/video2 --camera-option right:size=1280x720,fps=25 --size 640x480 --out rig-pictures":
            "needs two emulated cameras set up in /tmp/cam-rig under Scripts/with-emulated-camera "
            + "(LiveRigTests runs rigs of two and three emulated cameras)",
        "marker-shutter process rig-recording --max-motion 5 --output rig-rows.jsonl":
            "needs a rig's recording, which only cameras make; RigProcessCommandTests makes this one from the sample session "
            + "and checks that process prints this summary for it",
    ]

    /// The documents whose examples are checked.
    static let documents = ["README.md", "Docs/guide.md"]

    static func examples(of document: String) throws -> [DocumentedExample] {
        let text = try String(contentsOfFile: MarkerShutterBinary.packageRoot + "/" + document, encoding: .utf8)
        return DocumentedExample.parse(text)
    }

    @Test func everyCommandShownIsRunOrListedWithAReason() throws {
        var shown: Set<String> = []
        for document in Self.documents {
            let examples = try Self.examples(of: document)
            #expect(!examples.isEmpty, "\(document) shows no command")
            shown.formUnion(examples.map(\.command))
            for example in examples where Self.notRun[example.command] == nil {
                #expect(example.command.hasPrefix("marker-shutter ") || example.command.hasPrefix("env -u DISPLAY marker-shutter "),
                        "\(document) \(example): only marker-shutter commands are run; list others in notRun")
            }
        }
        for command in Self.notRun.keys {
            #expect(shown.contains(command), "notRun lists a command no document shows: \(command)")
        }
    }

    @Test func theReadmeStaysShort() throws {
        let text = try String(contentsOfFile: MarkerShutterBinary.packageRoot + "/README.md", encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count - (text.hasSuffix("\n") ? 1 : 0)
        #expect(lines <= 150, "README.md has \(lines) lines")
    }

    @Test(arguments: documents)
    func eachCommandPrintsWhatTheDocumentShows(document: String) throws {
        let examples = try Self.examples(of: document)
        let folder = try MarkerShutterBinary.temporaryFolder("docs-" + document)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createSymbolicLink(atPath: folder + "/Samples",
                                                   withDestinationPath: MarkerShutterBinary.packageRoot + "/Samples")
        var compared = 0
        // Set once a replay could not detect every frame: the pictures it took may differ from the
        // document's, and so may what later commands make of them.
        var picturesMayDiffer = false
        for example in examples where Self.notRun[example.command] == nil {
            let result = try Self.shell(example.command, in: folder)
            guard let documented = example.output else { continue }
            compared += 1
            let printed = result.standardOutput + result.standardError
            let mismatch = Self.mismatch(documented: documented, printed: printed, picturesMayDiffer: picturesMayDiffer)
            #expect(mismatch == nil, "\(document) \(example): \(mismatch ?? "")\n--- printed:\n\(printed)")
            if Self.skippedFrames(documented: documented, printed: printed) { picturesMayDiffer = true }
        }
        #expect(compared > 0, "\(document): no command with printed output was compared")
    }

    // MARK: - Running and comparing

    /// Runs `command` with `/bin/sh` in `folder`, `marker-shutter` being the one built with this test.
    static func shell(_ command: String, in folder: String) throws -> CommandResult {
        let scratch = try MarkerShutterBinary.temporaryFolder("shell")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let outputPath = scratch + "/stdout", errorPath = scratch + "/stderr"
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        var environment = ProcessInfo.processInfo.environment
        let binaries = (MarkerShutterBinary.path as NSString).deletingLastPathComponent
        environment["PATH"] = binaries + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle(forWritingAtPath: outputPath)
        process.standardError = FileHandle(forWritingAtPath: errorPath)
        try process.run()
        process.waitUntilExit()
        return CommandResult(status: process.terminationStatus,
                             standardOutput: try String(contentsOfFile: outputPath, encoding: .utf8),
                             standardError: try String(contentsOfFile: errorPath, encoding: .utf8))
    }

    /// Figures that depend on the machine, each replaced by `…`: how long processing took and at
    /// what rate, how many jobs the cores allow (and OpenCV's threads with them), and latencies.
    static let machineFigures: [(pattern: String, replacement: String)] = [
        (#"processed in [0-9.]+ s \([0-9.]+ frames/s, [0-9]+ jobs?, OpenCV threads [a-z0-9]+\)"#,
         "processed in … s (… frames/s, … jobs, OpenCV threads …)"),
        (#"median [0-9.]+ ms, 99th percentile [0-9.]+ ms"#, "median … ms, 99th percentile … ms"),
    ]

    static func masked(_ text: String) -> String {
        var text = text
        for figure in machineFigures {
            text = text.replacingOccurrences(of: figure.pattern, with: figure.replacement, options: .regularExpression)
        }
        return text
    }

    /// Whether a replay skipped frames while detection was busy, in the document's run or in this
    /// one: then which frames were detected differs between the two.
    static func skippedFrames(documented: String, printed: String) -> Bool {
        let skipped = " skipped while detection was busy", skippedNone = ", 0" + skipped
        guard documented.contains(skipped) else { return false }
        return !documented.contains(skippedNone) || !printed.contains(skippedNone)
    }

    /// Why `printed` is not what the document shows, or `nil` when it is.
    ///
    /// Three things a busy machine may change are allowed for. `live --calibrate` prints a line for
    /// each background solve (`calibration: N views, ...`); a solve still running when the next
    /// picture comes makes the next one cover both, so where those lines fall and which counts are
    /// skipped depend on timing: each printed one must be one the document shows, and the rest
    /// must match in order. And a replay runs at the recording's pace: when the machine was too
    /// busy to detect every frame (in the document's run or in this one), which frames were
    /// detected decides the rest, so only the lines that do not depend on it are compared.
    /// Then the pictures that replay took may not be the document's: with `picturesMayDiffer`,
    /// every number is masked, and what follows from which pictures were taken left out: the
    /// advice, the corners dropped, views rejected as outliers, where the projection uncertainty is
    /// worst and the halves' verdict.
    static func mismatch(documented: String, printed: String, picturesMayDiffer: Bool = false) -> String? {
        func lines(_ text: String) -> [String] {
            var lines = masked(text).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.last == "" { lines.removeLast() }
            guard picturesMayDiffer else { return lines }
            // `cross-validation` without what follows: with fewer pictures it may not be run at all.
            let following = ["advice: ", "corners: ", "  dropped from ", "  rejected ", "projection uncertainty ",
                             "cross-validation", "  held-out error: "]
            return lines.filter { line in !following.contains { line.hasPrefix($0) } }.map {
                $0.replacingOccurrences(of: #"-?[0-9]+(\.[0-9]+)?"#, with: "#", options: .regularExpression)
            }
        }
        let expected = lines(documented), actual = lines(printed)

        if skippedFrames(documented: documented, printed: printed) {
            func steady(_ lines: [String]) -> [String] {
                lines.compactMap { line in
                    if line.hasPrefix("replaying ") || line.hasPrefix("commands on standard input") { return line }
                    if line.hasPrefix("stopped ("), let cut = line.range(of: " frames received") {
                        return String(line[..<cut.upperBound])
                    }
                    return nil
                }
            }
            return steady(expected) == steady(actual) ? nil : "lines that do not depend on the frames detected differ"
        }

        func isSolve(_ line: String) -> Bool { line.hasPrefix("calibration: ") && line.contains(" views, RMS ") }
        let documentedSolves = Set(expected.filter(isSolve))
        for line in actual.filter(isSolve) where !documentedSolves.contains(line) {
            return "a solve the document does not show: \(line)"
        }
        let expectedRest = expected.filter { !isSolve($0) }, actualRest = actual.filter { !isSolve($0) }
        guard expectedRest != actualRest else { return nil }
        for (index, line) in expectedRest.enumerated() where index >= actualRest.count || actualRest[index] != line {
            return "line \(index + 1): the document shows\n\(line)\nprinted:\n\(index < actualRest.count ? actualRest[index] : "(nothing)")"
        }
        return "printed \(actualRest.count - expectedRest.count) lines more than the document shows"
    }

    // MARK: - The conventions themselves

    @Test func documentsMarkCommandsAndTheirOutput() {
        let markdown = """
            ```sh
            marker-shutter board charuco 5x7 DICT_6X6_250 --out board.png
            ```

            ```
            wrote board.png
            ```

            <!-- output of: marker-shutter process Samples/charuco-session -->
            ```
            summary
            ```

            ```
            $ marker-shutter calibrate picks
            calibration/calibration.yaml
            views: 6 used
            $ marker-shutter devices
            ```

            ```swift
            print("not a command")
            ```
            """
        #expect(DocumentedExample.parse(markdown) == [
            DocumentedExample(command: "marker-shutter board charuco 5x7 DICT_6X6_250 --out board.png", output: "wrote board.png", line: 2),
            DocumentedExample(command: "marker-shutter process Samples/charuco-session", output: "summary", line: 9),
            DocumentedExample(command: "marker-shutter calibrate picks", output: "calibration/calibration.yaml\nviews: 6 used", line: 15),
            DocumentedExample(command: "marker-shutter devices", output: "", line: 18),
        ])
    }

    @Test func machineFiguresAreMaskedAndSolvesMayBeSkipped() {
        #expect(Self.masked("  processed in 0.20 s (587.0 frames/s, 2 jobs, OpenCV threads 1)")
                == "  processed in … s (… frames/s, … jobs, OpenCV threads …)")
        #expect(Self.masked("  processed in 0.03 s (32.9 frames/s, 1 job, OpenCV threads default)")
                == "  processed in … s (… frames/s, … jobs, OpenCV threads …)")
        let documented = "a\ncalibration: 3 views, RMS 0.2 px\nb\ncalibration: 4 views, RMS 0.3 px\nc"
        #expect(Self.mismatch(documented: documented, printed: "a\nb\ncalibration: 4 views, RMS 0.3 px\nc\n") == nil)
        #expect(Self.mismatch(documented: documented, printed: "a\nb\ncalibration: 5 views, RMS 0.3 px\nc\n") != nil)
        #expect(Self.mismatch(documented: documented, printed: "a\nb\nd\n") != nil)
        #expect(Self.mismatch(documented: "a\nb", printed: "a\nb\nc\n") != nil)
        #expect(Self.mismatch(documented: "RMS 0.297 px\nadvice: few", printed: "RMS 0.316 px\n") != nil)
        #expect(Self.mismatch(documented: "RMS 0.297 px\nadvice: few", printed: "RMS 0.316 px\n", picturesMayDiffer: true) == nil)
        #expect(Self.mismatch(documented: "RMS 0.297 px", printed: "rms 0.316 px\n", picturesMayDiffer: true) != nil)
        let dropped = "RMS 0.281 px\ncorners: 143 used, 1 dropped in 1 view (error over 1.000 px)\n  dropped from a.png: corner 0\n  fx"
        #expect(Self.mismatch(documented: dropped, printed: "RMS 0.373 px\n  fx\n") != nil)
        #expect(Self.mismatch(documented: dropped, printed: "RMS 0.373 px\n  fx\n", picturesMayDiffer: true) == nil)
        let halves = "views: 6 used\ncross-validation (halves of 3 and 3 views): consistent\n  held-out error: 0.2 px RMS\nadvice: more"
        #expect(Self.mismatch(documented: halves, printed: "views: 5 used\ncross-validation: not run: a half of 2 views\n",
                              picturesMayDiffer: true) == nil)
        let replay = "replaying x\nt=1 frame 3\nstopped (end of frames): 120 frames received, 119 detected, 1 skipped while detection was busy"
        #expect(Self.skippedFrames(documented: replay, printed: replay.replacingOccurrences(of: "119 detected, 1", with: "120 detected, 0")))
        #expect(Self.mismatch(documented: replay, printed: "replaying x\nstopped (end of frames): 120 frames received, 120 detected, 0 skipped while detection was busy\n") == nil)
        #expect(Self.mismatch(documented: replay, printed: "replaying y\nstopped (end of frames): 120 frames received, 120 detected, 0 skipped while detection was busy\n") != nil)
        #expect(!Self.skippedFrames(documented: "errors: 0", printed: "errors: 1"))
    }
}
