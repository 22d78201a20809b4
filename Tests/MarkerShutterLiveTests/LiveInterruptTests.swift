import EmulatedCameraHarness
import Foundation
import MarkerDetection
import Testing

extension LiveTests {
    /// Ctrl-C, SIGTERM or SIGHUP while pictures are being written and frames recorded: `live`
    /// finishes them, releases the camera and exits 130; the pictures are whole, each with its sidecar, and the
    /// recording's manifest lists exactly its whole frames.
    @Suite struct LiveInterruptTests {
        @Test(arguments: [(SIGINT, "Ctrl-C"), (SIGTERM, "SIGTERM"), (SIGHUP, "SIGHUP")])
        func interruptDuringCapturesLeavesOnlyCompleteFiles(signal: Int32, name: String) async throws {
            let harness = try await makeLiveHarness()
            let session = ScriptedSession([.valid(60)])
            let camera = try harness.addCamera(showing: session)
            let out = harness.directory + "/pictures", recording = harness.directory + "/recording"
            let process = try harness.startLive(camera, ["--out", out, "--auto", "--record", recording])

            try await process.waitForOutput(containing: "shutter enabled", on: .standardError, timeout: .seconds(20))
            for _ in 0..<40 { process.sendLine("capture") }
            try await process.waitForOutput(containing: "capture_0001.png", timeout: .seconds(10))
            let savedBeforeSignal = LiveOutput(process).pictures.count
            process.send(signal)
            // Requests keep coming while the program winds down: each is either finished or not begun.
            let requests = Task {
                while !Task.isCancelled {
                    process.sendLine("capture")
                    try? await Task.sleep(for: .milliseconds(1))
                }
            }
            let result = try await process.wait(timeout: .seconds(60))
            requests.cancel()

            #expect(result.status == 130, "\(result.standardError)")
            #expect(result.standardError.contains("stopped (\(name))"), "\(result.standardError)")
            let pictures = LiveOutput(result).pictures
            // How many pictures were still being written when the signal came depends on the
            // machine's speed; what holds on any machine: none announced before it is lost.
            #expect(savedBeforeSignal <= pictures.count, "pictures announced before \(name) were lost")
            #expect(result.standardError.contains("pictures: \(pictures.count) saved"), "\(result.standardError)")
            print("pictures saved: \(savedBeforeSignal) before \(name), \(pictures.count) in all")

            // Exactly the pictures announced, each a whole PNG with a sidecar that names it; nothing else.
            let files = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
            let expectedFiles = (1...pictures.count).flatMap { number in
                ["png", "json"].map { String(format: "capture_%04d.%@", number, $0) }
            }
            #expect(files == expectedFiles.sorted(), "left in the folder: \(files.filter { !expectedFiles.contains($0) })")
            #expect(Set(pictures.map(\.path)) == Set(expectedFiles.filter { $0.hasSuffix(".png") }.map { out + "/" + $0 }))
            for picture in pictures {
                let image = try ImageFile.read(picture.path)
                #expect(image.width == ScriptedSession.size.width && image.height == ScriptedSession.size.height)
                let sidecar = try JSONLine(contentsOf: (picture.path as NSString).deletingPathExtension + ".json")
                #expect(sidecar.string("image") == (picture.path as NSString).lastPathComponent)
                #expect(sidecar.int("frame_index") == picture.frame)
            }

            // The recording: every frame its manifest lists, whole, and nothing else.
            let manifest = try String(contentsOfFile: recording + "/manifest.jsonl", encoding: .utf8)
                .split(separator: "\n").map { try JSONLine(String($0)) }.compactMap { $0.string("file") }
            #expect(result.standardError.contains("recording: \(manifest.count) frames in \(recording)\n"), "\(result.standardError)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: recording).sorted() == (manifest + ["manifest.jsonl"]).sorted())
            for file in manifest {
                #expect(try ImageFile.read(recording + "/" + file).width == ScriptedSession.size.width)
            }

            // The camera saw the whole teardown, in order, and nothing after it.
            let log = camera.log()
            let tail = Array(log.drop { !$0.hasPrefix("streamon") }.dropFirst().filter { !$0.hasPrefix("lost ") })
            #expect(tail == ["streamoff", "reqbufs count=0", "close streaming=0 buffers=0"], "\(log)")
        }
    }
}
