import EmulatedCameraHarness
import Testing

extension EmulatedCameraTests {
    /// 300 frames at 30 fps from the emulated camera, through libv4l2.
    @Suite struct PacingTests {
        @Test func threeHundredFramesAtThirtyFramesPerSecond() async throws {
            let harness = try await makeHarness()
            let camera = try harness.addCamera(EmulatedCameraConfiguration(formats: [.yuyv], rates: [30, 15]))
            // A queue that holds every frame, and 32 buffers (a second of frames) in the camera: a
            // probe starved by a busy machine still loses none (with the default 4, a probe kept
            // from the processor for 133 ms lost a frame at a load of 13 on two cores).
            let run = try await harness.stream(
                camera, ["--size", "640x480", "--fps", "30", "--frames", "300", "--queue", "300", "--buffers", "32"],
                timeout: .seconds(120))
            #expect(run.result.status == 0, "\(run.result.standardError)")
            #expect(run.opened.string("interval") == "1/30")

            #expect(run.sequences == Array(0..<300), "sequence is contiguous from 0")
            #expect(run.frames.allSatisfy { $0.int("dropped") == 0 }, "no frame reports drops")
            #expect(run.teardown.int("dropped") == 0)

            let timestamps = run.frames.compactMap { $0.int64("timestamp_ns") }
            #expect(timestamps.count == 300)
            let steps = zip(timestamps.dropFirst(), timestamps).map { $0 - $1 }
            #expect(steps.allSatisfy { $0 > 0 }, "timestamps strictly increase")
            // The camera stamps each frame when it was due: 33.333 ms apart, to the microsecond.
            #expect(steps.allSatisfy { (33_000_000...33_700_000).contains($0) }, "steps \(steps.min() ?? 0)...\(steps.max() ?? 0) ns")
            let mean = Double(timestamps.last! - timestamps.first!) / 299
            #expect(abs(mean - 33_333_333) < 100_000)

            // And they were paced: the last frame came no sooner than 299 intervals after the first
            // was due (both on CLOCK_MONOTONIC). A busy machine may make it later, never sooner.
            let received = run.frames.compactMap { $0.int64("received_ns") }
            let span = Double(received.last! - timestamps.first!) / 1e9
            #expect(span >= 299.0 / 30 - 0.001, "last frame received \(span) s after the first was due")
            run.expectCleanTeardown()
        }
    }

    /// The frame rate is set with VIDIOC_S_PARM and read back: the camera paces at what it granted.
    @Suite struct FrameRateTests {
        @Test func aRateTheCameraOffersIsGrantedAndPaced() async throws {
            let harness = try await makeHarness()
            let camera = try harness.addCamera(EmulatedCameraConfiguration(rates: [30, 15]))
            let run = try await harness.stream(camera, ["--fps", "15", "--frames", "10"])
            #expect(run.result.status == 0, "\(run.result.standardError)")
            #expect(run.opened.string("interval") == "1/15")
            #expect(run.opened.bool("matches_request") == true)
            let stamps = run.frames.compactMap { $0.int64("timestamp_ns") }
            #expect(zip(stamps.dropFirst(), stamps).allSatisfy { (66_000_000...67_400_000).contains($0 - $1) })
            #expect(camera.log().contains("s_parm fps=15"))
        }

        @Test func anotherRateGetsTheNearestOfferedAndSaysSo() async throws {
            let harness = try await makeHarness()
            let camera = try harness.addCamera(EmulatedCameraConfiguration(rates: [30, 15]))
            let run = try await harness.stream(camera, ["--fps", "20", "--frames", "1"])
            #expect(run.result.status == 0, "\(run.result.standardError)")
            #expect(run.opened.string("interval") == "1/15")
            #expect(run.opened.int("fps") == 15)
            #expect(run.opened.bool("matches_request") == false)
        }

        @Test func anotherSizeGetsTheNearestOfferedAndSaysSo() async throws {
            let harness = try await makeHarness()
            let camera = try harness.addCamera(EmulatedCameraConfiguration(sizes: [(640, 480), (1280, 720)]))
            let run = try await harness.stream(camera, ["--size", "1200x700", "--frames", "1"])
            #expect(run.result.status == 0, "\(run.result.standardError)")
            #expect(run.opened.int("width") == 1280 && run.opened.int("height") == 720)
            #expect(run.opened.bool("matches_request") == false)
            #expect(run.frames.first?.int("width") == 1280)
        }
    }
}
