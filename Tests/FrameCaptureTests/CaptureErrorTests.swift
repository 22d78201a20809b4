import FrameCapture
import Glibc
import Testing

@Suite struct CaptureErrorTests {
    @Test func descriptionsNameTheDeviceTheCallAndErrno() {
        #expect(CaptureError(kind: .callFailed, device: "/dev/video0", call: "VIDIOC_STREAMON", errno: EBUSY).description
            == "/dev/video0: VIDIOC_STREAMON failed: Device or resource busy (EBUSY)")
        #expect(CaptureError(kind: .timedOut, device: "/dev/video2", call: "poll", detail: "gave no frame within 2.0 seconds")
            .description == "/dev/video2: poll gave no frame within 2.0 seconds")
        #expect(CaptureError.name(ENODEV) == "ENODEV")
        #expect(CaptureError.name(9999) == "errno 9999")
    }
}

@Suite struct OpeningTests {
    @Test func aMissingDeviceFailsToOpenWithENOENT() {
        #expect(throws: CaptureError(kind: .callFailed, device: "/nonexistent/video9", call: "open", errno: ENOENT)) {
            try Camera(path: "/nonexistent/video9")
        }
    }

    @Test func aFileThatIsNoDeviceIsRefusedByLibv4l2() throws {
        // Outside the emulated camera's namespace a regular file is not a V4L2 device: libv4l2's
        // VIDIOC_QUERYCAP fails with ENOTTY and v4l2_open refuses it.
        #expect(throws: CaptureError(kind: .callFailed, device: "/etc/hostname", call: "open", errno: ENOTTY)) {
            try Camera(path: "/etc/hostname")
        }
    }

    @Test func settingsAreChecked() {
        #expect(throws: CaptureError.self) { try Camera(path: "/dev/null", settings: CaptureSettings(pixelFormat: .yuyv)) }
        #expect(throws: CaptureError.self) { try Camera(path: "/dev/null", settings: CaptureSettings(width: 0)) }
    }
}
