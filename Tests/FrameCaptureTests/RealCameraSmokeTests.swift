import FrameCapture
import Foundation
import Testing

/// Opt-in: set MARKER_SHUTTER_TEST_CAMERA to a device node (`/dev/video0`) to stream from a real
/// camera; skipped otherwise.
@Suite struct RealCameraSmokeTests {
    @Test func streamsTenFramesFromARealCamera() async throws {
        guard let path = ProcessInfo.processInfo.environment["MARKER_SHUTTER_TEST_CAMERA"], !path.isEmpty else {
            try Test.cancel("no real camera: set MARKER_SHUTTER_TEST_CAMERA=/dev/videoN to run this test")
        }
        let camera = try Camera(path: path, settings: CaptureSettings(width: 640, height: 480, framesPerSecond: 30))
        #expect(camera.format.width > 0 && camera.format.height > 0)
        var frames: [Frame] = []
        for try await frame in camera.frames() {
            frames.append(frame)
            if frames.count == 10 { camera.stop() }
        }
        #expect(frames.count == 10)
        #expect(frames.allSatisfy { $0.width == camera.format.width && $0.height == camera.format.height })
        #expect(zip(frames.dropFirst(), frames).allSatisfy { $0.timestamp > $1.timestamp })
        #expect(camera.teardownReport?.isComplete == true)
        #expect(CaptureDevice.list().contains { $0.path == path || $0.stableNames.contains(path) })
    }
}
