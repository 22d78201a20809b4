import EmulatedCameraHarness
import Foundation
import Testing

extension EmulatedCameraTests {
    /// Each scripted fault of the emulated camera, seen through libv4l2 and FrameCapture. The cameras
    /// are unpaced (each frame is made when the reader has a buffer waiting) and the probe's frame
    /// queue is long, so a reader slowed by a busy machine loses no frame and the sequences are exact.
    @Suite struct FaultTests {
        @Test func sequenceGapsAreReportedAsDroppedFrames() async throws {
            let harness = try await makeHarness()
            let camera = try harness.addCamera(EmulatedCameraConfiguration(paced: false, faults: [.gap(at: 10, count: 3)]))
            let run = try await harness.streamEveryFrame(camera, ["--frames", "20"])
            #expect(run.result.status == 0, "\(run.result.standardError)")
            #expect(run.sequences == Array(0..<10) + Array(13..<23))
            let dropped = Dictionary(uniqueKeysWithValues: run.frames.map { ($0.int("sequence")!, $0.int("dropped")!) })
            #expect(dropped[13] == 3)
            #expect(dropped.filter { $0.key != 13 }.values.allSatisfy { $0 == 0 })
            #expect(run.teardown.int("sequence_gaps") == 3)
            #expect(camera.log().contains("fault gap sequence=10 count=3"))
            run.expectCleanTeardown()
        }

        @Test func errorFlaggedBuffersAreDroppedAndCounted() async throws {
            let harness = try await makeHarness()
            let camera = try harness.addCamera(EmulatedCameraConfiguration(paced: false, faults: [.errorFlag(at: 7), .errorFlag(at: 8)]))
            let run = try await harness.streamEveryFrame(camera, ["--frames", "12"])
            #expect(run.result.status == 0, "\(run.result.standardError)")
            #expect(run.sequences == Array(0..<7) + Array(9..<14))
            #expect(run.frames.first { $0.int("sequence") == 9 }?.int("dropped") == 2)
            #expect(run.teardown.int("error_flagged") == 2)
            #expect(run.teardown.int("sequence_gaps") == 0)
            run.expectCleanTeardown()
        }

        @Test func eioRestartsStreamingAndFramesContinue() async throws {
            let harness = try await makeHarness()
            let camera = try harness.addCamera(EmulatedCameraConfiguration(paced: false, faults: [.eio(at: 10)]))
            let run = try await harness.streamEveryFrame(camera, ["--frames", "20"])
            #expect(run.result.status == 0, "\(run.result.standardError)")
            #expect(run.error == nil)
            #expect(run.teardown.int("restarts") == 1)
            // Frame 10 was lost with the error; the camera's count goes on after the restart.
            #expect(run.sequences == Array(0..<10) + Array(11..<21))
            #expect(run.frames.first { $0.int("sequence") == 11 }?.int("dropped") == 1)
            let log = camera.log()
            #expect(log.filter { $0.hasPrefix("streamon") }.count == 2, "\(log)")
            #expect(log.contains("fault eio sequence=10"))
            run.expectCleanTeardown()
        }

        @Test func enodevEndsTheStreamAtTheNextFrameAndReleasesEverything() async throws {
            let harness = try await makeHarness()
            let camera = try harness.addCamera(EmulatedCameraConfiguration(paced: false, faults: [.enodev(at: 15)]))
            let run = try await harness.streamEveryFrame(camera, ["--fps", "30"])
            #expect(run.result.status == 1, "a failed stream ends the probe with 1")
            #expect(run.sequences == Array(0..<15))
            let error = try #require(run.error)
            #expect(error.string("kind") == "disconnected")
            #expect(error.string("call") == "VIDIOC_DQBUF")
            #expect(error.int("errno") == Int(ENODEV))
            #expect(error.string("message")?.contains("VIDIOC_DQBUF failed: No such device (ENODEV)") == true)
            // The camera went away when frame 15 was asked for, after frame 14 had been received.
            let lastFrame = try #require(run.frames.last?.int64("received_ns"))
            #expect(try #require(error.int64("at_ns")) >= lastFrame)
            run.expectCleanTeardown()
            let log = camera.log()
            #expect(log.contains("fault enodev sequence=15"))
            #expect(log.contains("streamoff error=ENODEV"))
            // STREAMOFF failed, so libv4l2 still thinks the stream is on and refuses REQBUFS 0 itself
            // (EBUSY) without asking the device; the mappings are gone all the same, and close runs.
            #expect(run.teardown.int("streamoff_errno") == Int(ENODEV))
            #expect(run.teardown.int("release_errno") == Int(EBUSY))
            #expect(log.last?.hasPrefix("close") == true, "\(log)")
        }

        @Test func aStallEndsWithATimeoutAfterTheConfiguredTime() async throws {
            let harness = try await makeHarness()
            let camera = try harness.addCamera(EmulatedCameraConfiguration(paced: false, faults: [.stall(at: 10, milliseconds: 0)]))
            let run = try await harness.streamEveryFrame(camera, ["--timeout-ms", "500"])
            #expect(run.sequences == Array(0..<10))
            let error = try #require(run.error)
            #expect(error.string("kind") == "timedOut")
            #expect(error.string("call") == "poll")
            let lastFrame = try #require(run.frames.last?.int64("received_ns"))
            let waited = Double(try #require(error.int64("at_ns")) - lastFrame) / 1e6
            // Never before the timeout; the bound above only says that the timeout ends the wait at all.
            #expect(waited >= 500 && waited < 60_000, "timed out \(waited) ms after the last frame")
            run.expectCleanTeardown()
        }

        @Test func aStallShorterThanTheTimeoutOnlyDelaysFrames() async throws {
            let harness = try await makeHarness()
            let camera = try harness.addCamera(EmulatedCameraConfiguration(paced: false, faults: [.stall(at: 5, milliseconds: 300)]))
            let run = try await harness.streamEveryFrame(camera, ["--timeout-ms", "1000", "--frames", "10"])
            #expect(run.result.status == 0, "\(run.result.standardError)")
            #expect(run.sequences == Array(0..<10))
            let stamps = run.frames.compactMap { $0.int64("timestamp_ns") }
            #expect(stamps[5] - stamps[4] >= 300_000_000, "frame 5 came 300 ms late")
            run.expectCleanTeardown()
        }
    }
}
