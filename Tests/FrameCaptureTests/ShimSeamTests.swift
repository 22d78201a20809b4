import CV4L2Fake
@testable import FrameCapture
import Glibc
import Testing

/// Faults injected through the shim's function-pointer table (an in-memory device): the ones no
/// camera, real or emulated, produces on demand.
@Suite struct ShimSeamTests {
    @Test func aPollThatNeverReportsAFrameEndsWithATimeout() async throws {
        let fake = FakeDevice { $0.poll_timeouts = -1 }
        let camera = try fake.openCamera(CaptureSettings(width: 64, height: 48, frameTimeout: .milliseconds(200), queueLimit: 8))
        let start = ContinuousClock.now
        let (frames, error) = await collect(camera, count: 5)
        let elapsed = ContinuousClock.now - start
        #expect(frames.isEmpty)
        #expect(error?.kind == .timedOut)
        #expect(error?.call == "poll")
        // At least the timeout, however fast the machine (a hang would never get here).
        #expect(elapsed >= .milliseconds(200), "\(elapsed)")
        #expect(fake.toreDown)
        #expect(camera.teardownReport?.reason == .failed(error!))
    }

    @Test func pollErrorWithoutAFrameFailsTheStream() async throws {
        let fake = FakeDevice {
            $0.poll_errors = -1
            $0.dequeue_eagain = -1
        }
        let camera = try fake.openCamera()
        let (frames, error) = await collect(camera, count: 5)
        #expect(frames.isEmpty)
        #expect(error?.kind == .pollFailed)
        #expect(error?.description.contains("POLLERR") == true)
        #expect(fake.toreDown)
    }

    @Test func pollErrorWithAFrameReadyStillDeliversIt() async throws {
        let fake = FakeDevice { $0.poll_errors = 3 }
        let camera = try fake.openCamera()
        let (frames, error) = await collect(camera, count: 5)
        #expect(error == nil)
        #expect(frames.map(\.sequence) == [0, 1, 2, 3, 4])
    }

    @Test func eintrStormsAreRetriedWithoutLosingFrames() async throws {
        let fake = FakeDevice {
            $0.poll_eintr = 5000
            $0.dequeue_eintr = 5000
        }
        let camera = try fake.openCamera()
        let (frames, error) = await collect(camera, count: 10)
        #expect(error == nil)
        #expect(frames.map(\.sequence) == Array(0..<10))
        #expect(frames.allSatisfy { $0.droppedBefore == 0 })
        #expect(camera.statistics.interruptedRetries == 10_000)
        #expect(fake.toreDown)
    }

    @Test func eagainAfterPollIsRetried() async throws {
        let fake = FakeDevice { $0.dequeue_eagain = 50 }
        let camera = try fake.openCamera()
        let (frames, error) = await collect(camera, count: 10)
        #expect(error == nil)
        #expect(frames.map(\.sequence) == Array(0..<10))
        #expect(camera.statistics.wouldBlockRetries == 50)
    }

    @Test func eagainForeverEndsWithATimeout() async throws {
        let fake = FakeDevice { $0.dequeue_eagain = -1 }
        let camera = try fake.openCamera(CaptureSettings(width: 64, height: 48, frameTimeout: .milliseconds(150), queueLimit: 8))
        let (frames, error) = await collect(camera, count: 1)
        #expect(frames.isEmpty)
        #expect(error?.kind == .timedOut)
        #expect(camera.statistics.wouldBlockRetries > 0)
        #expect(fake.toreDown)
    }

    @Test func eioRestartsStreaming() async throws {
        let fake = FakeDevice {
            $0.dequeue_errno = EIO
            $0.dequeue_errno_at = 4
        }
        let camera = try fake.openCamera()
        let (frames, error) = await collect(camera, count: 8)
        #expect(error == nil)
        #expect(frames.map(\.sequence) == [0, 1, 2, 3, 5, 6, 7, 8])
        #expect(frames.first { $0.sequence == 5 }?.droppedBefore == 1)
        #expect(camera.statistics.restarts == 1)
        #expect(fake.counters.stream_ons == 2)
    }

    @Test func enodevEndsTheStreamAndStillTearsDown() async throws {
        let fake = FakeDevice {
            $0.dequeue_errno = ENODEV
            $0.dequeue_errno_at = 3
            $0.dequeue_errno_sticky = 1
        }
        let camera = try fake.openCamera()
        let (frames, error) = await collect(camera, count: 10)
        #expect(frames.map(\.sequence) == [0, 1, 2])
        #expect(error == CaptureError(kind: .disconnected, device: "/fake/video0", call: "VIDIOC_DQBUF", errno: ENODEV,
                                      detail: "the camera was disconnected"))
        #expect(error?.description == "/fake/video0: VIDIOC_DQBUF failed: No such device (ENODEV): the camera was disconnected")
        #expect(fake.toreDown)
        #expect(camera.teardownReport?.isComplete == true)
    }

    @Test func backwardsTimestampsAreDroppedAndCounted() async throws {
        let fake = FakeDevice { $0.backwards_at = 4 }
        let camera = try fake.openCamera()
        let (frames, _) = await collect(camera, count: 6)
        #expect(frames.map(\.sequence) == [0, 1, 2, 3, 5, 6])
        #expect(frames.first { $0.sequence == 5 }?.droppedBefore == 1)
        let stamps = frames.map(\.timestamp)
        #expect(zip(stamps.dropFirst(), stamps).allSatisfy { $0 > $1 })
        #expect(camera.statistics.nonMonotonicTimestamps == 1)
    }

    /// The consumer comes only after the device has made all its frames (as a test task starved
    /// of the CPU would): the queue holds them all, so it still gets every one, in order.
    @Test func aConsumerThatComesLateStillGetsEveryFrameInOrder() async throws {
        let fake = FakeDevice()
        let camera = try fake.openCamera()
        let stream = camera.frames()
        while fake.counters.dequeued < FakeDevice.frameLimit { await Task.yield() }
        var sequences: [UInt32] = []
        for try await frame in stream {
            sequences.append(frame.sequence)
            if sequences.count == Int(FakeDevice.frameLimit) { camera.stop() }
        }
        #expect(sequences == Array(0..<FakeDevice.frameLimit))
        #expect(camera.statistics.discardedForSlowConsumer == 0)
        #expect(fake.toreDown)
    }

    @Test func timestampsAreTheBuffersMonotonicTimes() async throws {
        let fake = FakeDevice { $0.frame_interval_ns = 40_000_000 }
        let camera = try fake.openCamera()
        let (frames, _) = await collect(camera, count: 3)
        // The fake stamps frame n at 1 s + n * 40 ms.
        #expect(frames.map(\.timestamp) == [.seconds(1), .milliseconds(1040), .milliseconds(1080)])
    }

    @Test func pixelsOutliveTheDriverBuffer() async throws {
        // The fake fills a buffer with its sequence number every time it is reused.
        let fake = FakeDevice()
        let camera = try fake.openCamera()
        let (frames, _) = await collect(camera, count: 12)
        #expect(frames.count == 12)
        for frame in frames {
            let expected = UInt8(frame.sequence & 0xFF)
            #expect(frame.pixels.withUnsafeBytes { $0.allSatisfy { $0 == expected } }, "frame \(frame.sequence)")
            #expect(frame.width == 64 && frame.height == 48 && frame.rowStride == 192)
        }
    }

    @Test func releasingTheCameraTearsDown() async throws {
        let fake = FakeDevice()
        do {
            let camera = try fake.openCamera()
            var iterator = camera.frames().makeAsyncIterator()
            #expect(try await iterator.next()?.sequence == 0)
        }
        #expect(fake.toreDown)
    }

    /// The wake pipe goes through the I/O table too, so its failure is one a test can make.
    @Test func aWakePipeThatCannotBeMadeIsRefusedBeforeTheDeviceOpens() throws {
        let fake = FakeDevice { $0.pipe_errno = EMFILE }
        #expect {
            _ = try fake.openCamera()
        } throws: { error in
            guard let error = error as? CaptureError else { return false }
            return error.call == "pipe2" && error.errno == EMFILE && error.kind == .callFailed
                && error.description == "/fake/video0: pipe2 failed: Too many open files (EMFILE)"
        }
        #expect(fake.counters.opens == 0)
    }

    @Test func closingAnUnstreamedCameraClosesTheDescriptor() throws {
        let fake = FakeDevice()
        do {
            let camera = try fake.openCamera()
            #expect(camera.format.width == 64)
        }
        #expect(fake.counters.closes == 1)
        #expect(fake.counters.open_descriptors == 0)
    }

    @Test func cancellingTheConsumerStopsAndTearsDown() async throws {
        let fake = FakeDevice()
        let camera = try fake.openCamera()
        let (started, signal) = AsyncStream.makeStream(of: Void.self)
        let consumer = Task {
            var count = 0
            for try await _ in camera.frames() {
                count += 1
                if count == 3 { signal.yield() }
            }
            return count
        }
        for await _ in started { break }
        consumer.cancel()
        let count = try await consumer.value
        #expect(count >= 3)
        camera.stop()
        #expect(fake.toreDown)
        #expect(camera.teardownReport?.reason == .stopped)
    }

    @Test func framesCanBeStreamedOnce() async throws {
        let fake = FakeDevice()
        let camera = try fake.openCamera()
        _ = await collect(camera, count: 1)
        let (frames, error) = await collect(camera, count: 1)
        #expect(frames.isEmpty)
        #expect(error?.kind == .notStreamable)
        #expect(throws: CaptureError.self) { try camera.controls() }
    }

    @Test func negotiationReportsWhatTheDriverGranted() throws {
        let fake = FakeDevice { $0.frame_interval_ns = 40_000_000 }
        let camera = try fake.openCamera(CaptureSettings(width: 65, height: 49, framesPerSecond: 30, pixelFormat: .gray8))
        // The fake rounds sizes down to even numbers and always runs at its own 25 fps.
        #expect(camera.format.width == 64 && camera.format.height == 48)
        #expect(camera.format.pixelFormat == .gray8 && camera.format.rowStride == 64)
        #expect(camera.format.framesPerSecond == 25)
        #expect(!camera.format.matchesRequest)
    }
}
