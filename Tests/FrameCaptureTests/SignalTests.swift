import EmulatedCameraHarness
import Foundation
import Testing

extension EmulatedCameraTests {
    /// Ctrl-C in the middle of streaming: a program that stops its camera on SIGINT tears down cleanly.
    @Suite struct SignalTests {
        @Test func sigintMidStreamTearsDownCleanly() async throws {
            let harness = try await makeHarness()
            let camera = try harness.addCamera(EmulatedCameraConfiguration(formats: [.mjpeg]))
            let libv4l2Log = harness.directory + "/libv4l2.log"
            let process = try harness.start(
                harness.probe, ["stream", "--device", camera.path, "--fps", "30"], environment: ["LIBV4L2_LOG_FILENAME": libv4l2Log])
            // Eleven frames, whichever: a camera paced in real time may lose one to a busy machine.
            try await process.waitForOutput(containing: "\"event\":\"frame\"", occurrences: 11, timeout: .seconds(20))
            process.send(SIGINT)
            let run = ProbeRun(try await process.wait(timeout: .seconds(10)))

            #expect(run.result.status == 0, "\(run.result.standardError)")
            #expect(run.result.events("signal").first?.string("signal") == "SIGINT")
            #expect(run.error == nil)
            #expect(run.frames.count >= 11)
            run.expectCleanTeardown()
            #expect(run.teardown.int("streamoff_errno") == 0)
            #expect(run.teardown.int("release_errno") == 0)

            // The device saw the whole teardown, in order, and nothing after it.
            let log = camera.log()
            let tail = Array(log.drop { !$0.hasPrefix("streamon") }.dropFirst().filter { !$0.hasPrefix("lost ") })
            #expect(tail == ["streamoff", "reqbufs count=0", "close streaming=0 buffers=0"], "\(log)")

            // libv4l2's own log: each of the four buffers it lent the probe was unmapped before close.
            let libv4l2 = (try? String(contentsOfFile: libv4l2Log, encoding: .utf8)) ?? ""
            #expect(libv4l2.components(separatedBy: "v4l2 fake buffer munmap").count - 1 == 4, "\(libv4l2.suffix(800))")
            #expect(!libv4l2.contains("still mapped"))
        }
    }
}
