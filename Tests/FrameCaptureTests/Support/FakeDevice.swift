import CV4L2Fake
import CV4L2Shim
@testable import FrameCapture

/// An in-memory device (CV4L2Fake) with a fault script, and a camera opened on it through the
/// shim's I/O table.
final class FakeDevice: @unchecked Sendable {
    // @unchecked: the fake device synchronises itself; the pointer is freed once, in deinit.
    private let device: OpaquePointer

    /// Frames the device makes unless a test says otherwise: more than any test takes, fewer than
    /// the camera's queue holds.
    static let frameLimit: UInt32 = 64

    init(_ configure: (inout msv_fake_script) -> Void = { _ in }) {
        // Not paced: the device makes `frameLimit` frames as fast as they are dequeued and then has
        // none, and the queue holds them all, so a starved consumer still gets every frame in
        // order. Pacing would let a busy machine decide which frames a test sees.
        var script = msv_fake_script()
        script.frame_interval_ns = 5_000_000
        script.pace = 0
        script.frame_limit = Self.frameLimit
        configure(&script)
        var created: OpaquePointer?
        precondition(msv_fake_device_create(&script, &created) == 0)
        device = created!
    }

    deinit { msv_fake_device_free(device) }

    var io: DeviceIO { DeviceIO(table: msv_fake_device_ops(device)) }

    var counters: msv_fake_counters {
        var counters = msv_fake_counters()
        msv_fake_device_get_counters(device, &counters)
        return counters
    }

    /// Opens a camera on the fake. The queue (4096 frames of 9 KB) holds every frame the device
    /// makes, so none is lost to the keep-it-fresh policy however late the test's task runs. Once
    /// the frames are made the capture thread waits for more until the test stops the camera. The
    /// frame timeout only turns a stop that never comes into a failure: with two busy loops beside
    /// the suite, CPU-bound synchronous tests (calibration, rendering) kept both cooperative threads
    /// for about 400 s, so the test's task that stops the camera ran that late. Half an hour is
    /// longer than any such wait and still ends a broken stop well inside CI's time.
    func openCamera(
        _ settings: CaptureSettings = CaptureSettings(width: 64, height: 48, frameTimeout: .seconds(1800), queueLimit: 4096)
    ) throws -> Camera {
        try Camera(path: "/fake/video0", settings: settings, io: io)
    }

    /// Every buffer mapped was unmapped, REQBUFS 0 and STREAMOFF ran, and the descriptor is closed.
    var toreDown: Bool {
        let c = counters
        return c.maps > 0 && c.unmaps == c.maps && c.releases == 1 && c.stream_offs >= 1 && c.closes == 1
            && c.open_descriptors == 0 && c.streaming == 0
    }
}

/// Collects up to `count` frames, then the error that ended the stream, if any.
func collect(_ camera: Camera, count: Int) async -> (frames: [Frame], error: CaptureError?) {
    var frames: [Frame] = []
    do throws(CaptureError) {
        for try await frame in camera.frames() {
            frames.append(frame)
            if frames.count == count { camera.stop() }
        }
        return (frames, nil)
    } catch {
        return (frames, error)
    }
}
