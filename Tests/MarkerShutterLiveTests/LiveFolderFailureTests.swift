import EmulatedCameraHarness
import Foundation
import MarkerDetection
import Testing

extension LiveTests {
    /// Pictures into a folder that cannot take them: refused at the start when read-only, refused
    /// one by one when full, and every picture already there kept whole.
    ///
    /// The folders are mounted inside the emulated camera's private mount namespace (a read-only
    /// bind mount, a small tmpfs), by a shell that then runs `marker-shutter`: nothing changes
    /// outside it, and it needs no more than the camera does.
    @Suite struct LiveFolderFailureTests {
        @Test(arguments: [("--out", "cannot save pictures"), ("--record", "cannot record")])
        func aReadOnlyFolderIsRefusedBeforeTheCameraOpens(option: String, refusal: String) async throws {
            let harness = try await makeLiveHarness()
            let camera = try harness.addCamera(showing: ScriptedSession([.valid(5)]))
            let folder = try harness.makeFolder("read-only")
            let earlier = try Self.writeEarlierPicture(into: folder)
            var arguments = harness.liveArguments(camera) + [option, folder]
            if option != "--out" { arguments += ["--out", try harness.makeFolder("pictures")] }

            let mountReadOnly = #"mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" || exit 77; shift; exec "$@""#
            let result = try await harness.run("/bin/sh", ["-c", mountReadOnly, "sh", folder, harness.markerShutter] + arguments)
            if result.status == 77 { try Test.cancel("mounting the folder read-only was refused: \(result.standardError)") }

            #expect(result.status == 1, "\(result.standardError)")
            #expect(result.standardError.contains(
                "\(refusal): cannot write \(folder): access failed: Read-only file system "
                    + "(EROFS); the file system is read-only: choose another folder"), "\(result.standardError)")
            #expect(result.standardOutput.isEmpty)
            #expect(camera.log().isEmpty, "the camera was opened: \(camera.log())")
            for (path, bytes) in earlier {
                #expect(FileManager.default.contents(atPath: path) == bytes, "\(path) changed")
            }
        }

        @Test func aFullFolderRefusesPicturesAndKeepsTheOnesTaken() async throws {
            let harness = try await makeLiveHarness()
            // The board for a second, then a dropout to show the session going on after the failure;
            // held for an hour, so that every request is taken however late a busy machine sends it.
            let session = ScriptedSession([.valid(30), .dropout(15)])
            let camera = try harness.addCamera(showing: session)
            let out = try harness.makeFolder("pictures")
            let snapshot = try harness.makeFolder("snapshot")

            // Room for two pictures and most of a third: each is a PNG of about the size of a pose's
            // frame as PNG, and a sidecar of a few kilobytes.
            let sizes = try (0..<ScriptedSession.poses.count).map { pose in
                try ImageFile.encode(ImageFile.decode(ScriptedSession.jpeg(of: .board(pose: pose))), as: .png).count
            }
            let capacity = 2 * (sizes.max()! + 16_384) + sizes.min()! / 2
            #expect(sizes.max()! - sizes.min()! < sizes.min()! / 10, "PNG sizes \(sizes)")

            let process = try harness.startInSmallFolder(out, bytes: capacity, copiedTo: snapshot,
                                                         harness.liveArguments(camera) + ["--out", out, "--hold", "3600"])

            try await process.waitForOutput(containing: "shutter enabled", on: .standardError, timeout: .seconds(20))
            for number in 1...2 {
                process.sendLine("capture")
                try await process.waitForOutput(containing: String(format: "capture_%04d.png", number), timeout: .seconds(10))
            }
            process.sendLine("capture")
            try await process.waitForOutput(containing: "picture not saved", on: .standardError, timeout: .seconds(10))
            // The session goes on: the dropout after the failure is still seen.
            let heldBefore = process.standardError.components(separatedBy: "shutter held").count - 1
            try await process.waitForOutput(containing: "shutter held", occurrences: heldBefore + 1, on: .standardError,
                                            timeout: .seconds(10))
            process.sendLine("quit")
            let result = try await process.wait(timeout: .seconds(20))
            if result.status == 77 { try Test.cancel("mounting a small tmpfs was refused: \(result.standardError)") }

            // Exit status 2: a picture could not be written.
            #expect(result.status == 2, "\(result.standardError)")
            #expect(result.standardError.contains(
                "picture not saved: cannot write \(out)/capture_0003.png: write failed: No space left on device "
                    + "(ENOSPC); free some space or write elsewhere; pictures already taken are untouched"),
                "\(result.standardError)")
            #expect(result.standardError.contains("stopped (quit)"))
            #expect(result.standardError.contains("pictures: 2 saved, 1 failed"), "\(result.standardError)")

            // The two pictures taken before are whole, and nothing else is left.
            let files = try FileManager.default.contentsOfDirectory(atPath: snapshot).sorted()
            #expect(files == ["capture_0001.json", "capture_0001.png", "capture_0002.json", "capture_0002.png"])
            for number in 1...2 {
                let base = snapshot + String(format: "/capture_%04d", number)
                let image = try ImageFile.read(base + ".png")
                #expect(image.width == ScriptedSession.size.width && image.height == ScriptedSession.size.height)
                #expect(try JSONLine(contentsOf: base + ".json").string("image") == (base as NSString).lastPathComponent + ".png")
            }
        }

        @Test func aFullRecordingFolderEndsTheRecordingAndKeepsWhatItHolds() async throws {
            let harness = try await makeLiveHarness()
            let session = ScriptedSession([.valid(30), .dropout(10)])
            let camera = try harness.addCamera(showing: session)
            let recording = try harness.makeFolder("recording")
            let snapshot = try harness.makeFolder("snapshot")

            // Room for about 20 recorded frames (JPEG at quality 95, as the recorder writes them).
            let frameSize = try ImageFile.encode(
                ImageFile.decode(ScriptedSession.jpeg(of: .board(pose: 0))), as: .jpeg(quality: 95)).count
            let process = try harness.startInSmallFolder(
                recording, bytes: 20 * frameSize, copiedTo: snapshot,
                harness.liveArguments(camera) + ["--out", harness.directory + "/pictures", "--record", recording,
                                                 "--stop-after", "60"])
            process.closeInput()
            let result = try await process.wait(timeout: .seconds(30))
            if result.status == 77 { try Test.cancel("mounting a small tmpfs was refused: \(result.standardError)") }

            // The live session itself went on to the end. It said at once that the recording stopped,
            // and why, and says so again in its summary; exit status 2 tells that the recording failed.
            #expect(result.status == 2, "\(result.standardError)")
            let lines = result.standardError.split(separator: "\n")
            let stopped = lines.firstIndex { $0.hasPrefix("recording stopped: cannot write \(recording)/frame_") }
            let end = lines.firstIndex { $0.hasPrefix("stopped (60 frames): 60 frames received") }
            let shownAtOnce = stopped.flatMap { stopped in end.map { stopped < $0 } } ?? false
            #expect(shownAtOnce, "\(result.standardError)")
            let summary = try #require(result.standardError.firstMatch(
                of: /recording: ([0-9]+) frames in (.+); stopped: cannot write (.+): write failed: No space left on device \(ENOSPC\); free some space or write elsewhere/),
                "\(result.standardError)")
            let recorded = try #require(Int(summary.1))
            #expect(recorded > 5 && recorded < 25, "\(recorded) frames recorded")

            // The manifest lists exactly the whole frames left in the folder, and `process` replays them.
            let names = (0..<recorded).map { String(format: "frame_%06d.jpg", $0) }
            #expect(try FileManager.default.contentsOfDirectory(atPath: snapshot).sorted() == names + ["manifest.jsonl"])
            let manifest = try String(contentsOfFile: snapshot + "/manifest.jsonl", encoding: .utf8)
                .split(separator: "\n").map { try JSONLine(String($0)) }
            #expect(manifest.map { $0.string("file") } == names)
            let processed = try await harness.run(harness.markerShutter, [
                "process", snapshot, "--pattern", ScriptedSession.patternText,
            ])
            #expect(processed.status == 0, "\(processed.standardError)")
            #expect(processed.standardOutput.split(separator: "\n").count == recorded)
        }

        /// A picture and its sidecar as an earlier session left them; returns their paths and bytes.
        static func writeEarlierPicture(into folder: String) throws -> [(String, Data)] {
            let picture = Data(try ImageFile.encode(ImageFile.decode(ScriptedSession.jpeg(of: .empty)), as: .png))
            let sidecar = Data(#"{"image":"capture_0001.png"}"#.utf8)
            let files = [(folder + "/capture_0001.png", picture), (folder + "/capture_0001.json", sidecar)]
            for (path, bytes) in files { try bytes.write(to: URL(fileURLWithPath: path)) }
            return files
        }
    }
}

extension EmulatedCameraHarness {
    /// Starts `marker-shutter` with `arguments` inside the camera's namespace, with a tmpfs of
    /// `bytes` mounted on `folder`. The tmpfs vanishes with the namespace, so when the program ends
    /// what it holds (hidden files too) is copied into `snapshot`. The process is a shell, not the
    /// program: stop the program with `quit` or `--stop-after`. Exits 77 when the mount is refused.
    func startInSmallFolder(_ folder: String, bytes: Int, copiedTo snapshot: String, _ arguments: [String]) throws
        -> HarnessProcess
    {
        let script = #"""
            folder=$1 snapshot=$2 size=$3; shift 3
            mount -t tmpfs -o size="$size" small-folder "$folder" || exit 77
            "$@"; status=$?
            cp -a "$folder/." "$snapshot/"
            exit $status
            """#
        return try start("/bin/sh", ["-c", script, "sh", folder, snapshot, "\(bytes)", markerShutter] + arguments)
    }
}
