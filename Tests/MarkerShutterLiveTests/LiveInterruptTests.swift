import EmulatedCameraHarness
import Foundation
import MarkerDetection
import Testing

extension LiveTests {
    /// Ctrl-C while pictures are being written: `live` finishes them, releases the camera and exits
    /// 0, and the folder holds only whole pictures, each with its sidecar.
    @Suite struct LiveInterruptTests {
        @Test func ctrlCDuringCapturesLeavesOnlyCompleteFiles() async throws {
            let harness = try await makeLiveHarness()
            let session = ScriptedSession([.valid(60)])
            let camera = try harness.addCamera(showing: session)
            let out = harness.directory + "/pictures"
            let process = try harness.startLive(camera, ["--out", out, "--auto"])

            try await process.waitForOutput(containing: "shutter enabled", on: .standardError, timeout: .seconds(20))
            for _ in 0..<40 { process.sendLine("capture") }
            try await process.waitForOutput(containing: "capture_0001.png", timeout: .seconds(10))
            let savedBeforeSignal = LiveOutput(process).pictures.count
            process.send(SIGINT)
            // Requests keep coming while the program winds down: each is either finished or not begun.
            let requests = Task {
                while !Task.isCancelled {
                    process.sendLine("capture")
                    try? await Task.sleep(for: .milliseconds(1))
                }
            }
            let result = try await process.wait(timeout: .seconds(60))
            requests.cancel()

            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardError.contains("stopped (Ctrl-C)"), "\(result.standardError)")
            let pictures = LiveOutput(result).pictures
            #expect(savedBeforeSignal < pictures.count, "Ctrl-C came after every picture was written")
            #expect(result.standardError.contains("pictures: \(pictures.count) saved"), "\(result.standardError)")
            print("pictures saved: \(savedBeforeSignal) before Ctrl-C, \(pictures.count) in all")

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

            // The camera saw the whole teardown, in order, and nothing after it.
            let log = camera.log()
            let tail = Array(log.drop { !$0.hasPrefix("streamon") }.dropFirst())
            #expect(tail == ["streamoff", "reqbufs count=0", "close streaming=0 buffers=0"], "\(log)")
        }
    }
}
