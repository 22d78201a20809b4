import CV4L2Fake
@testable import FrameCapture
import Glibc
import Testing

/// Control setting in process, on the in-memory device (one control, `Gain` 0...255): what the
/// library checks itself, and how it reports what the device refuses.
@Suite struct ControlFaultTests {
    @Test func aControlIsSetByNameAndTheLockPassesOverControlsTheCameraLacks() throws {
        let fake = FakeDevice()
        let camera = try fake.openCamera()
        defer { camera.stop() }
        #expect(try camera.controls().map(\.v4l2Name) == ["gain"])
        #expect(try camera.setControl(named: "gain", to: 80) == ControlAssignment(name: "gain", value: 80))
        #expect(try camera.value(of: .gain) == 80)
        #expect(try camera.lockControls() == [ControlAssignment(name: "gain", value: 80)])
        #expect(try camera.apply(ControlSettings(controls: [ControlAssignment(name: "gain", value: 5)])).map(\.description) == ["gain=5"])
        #expect(try camera.value(of: .gain) == 5)
    }

    @Test func outOfRangeIsRefusedBeforeTheDeviceIsAsked() throws {
        let fake = FakeDevice()
        let camera = try fake.openCamera()
        defer { camera.stop() }
        let error = #expect(throws: ControlError.self) { try camera.setControl(named: "gain", to: 256) }
        #expect(error?.kind == .outOfRange)
        #expect(error?.description == "/fake/video0: gain=256 is out of range: gain takes 0...255")
        #expect(try camera.value(of: .gain) == 64)
    }

    @Test func anERANGEFromTheDeviceGivesTheRangeToo() throws {
        let fake = FakeDevice { $0.set_control_errno = ERANGE }
        let camera = try fake.openCamera()
        defer { camera.stop() }
        let error = #expect(throws: ControlError.self) { try camera.setControl(named: "gain", to: 10) }
        #expect(error?.kind == .outOfRange)
        #expect(error?.description == "/fake/video0: gain=10 is out of range: gain takes 0...255")
    }

    @Test func otherDeviceRefusalsKeepTheCallAndErrno() throws {
        let fake = FakeDevice { $0.set_control_errno = EACCES }
        let camera = try fake.openCamera()
        defer { camera.stop() }
        let error = #expect(throws: ControlError.self) { try camera.setControl(named: "gain", to: 10) }
        #expect(error?.kind == .device)
        #expect(error?.cause?.errno == EACCES)
        #expect(error?.cause?.call == "VIDIOC_S_CTRL")
        #expect(error?.description.hasSuffix("(setting gain=10)") == true)
    }

    @Test func unknownAndMissingControlsSaySo() throws {
        let fake = FakeDevice()
        let camera = try fake.openCamera()
        defer { camera.stop() }
        let unknown = #expect(throws: ControlError.self) { try camera.setControl(named: "zoom_absolute", to: 1) }
        #expect(unknown?.description == "/fake/video0: no control named 'zoom_absolute'; the camera has gain")
        let exposure = #expect(throws: ControlError.self) { try camera.apply(ControlSettings(exposure: .automatic)) }
        #expect(exposure?.description == "/fake/video0: exposure_auto cannot be set: the camera has no such control")
    }
}
