@testable import FrameCapture
import Testing

/// Control names as v4l2-ctl spells them, and what a control accepts, without a device.
@Suite struct ControlNameTests {
    @Test(arguments: [
        ("Exposure (Absolute)", "exposure_absolute"),
        ("Exposure, Auto", "exposure_auto"),
        ("White Balance Temperature, Auto", "white_balance_temperature_auto"),
        ("Focus (absolute)", "focus_absolute"),
        ("Gain, Automatic", "gain_automatic"),
        ("Exposure Time, Absolute", "exposure_time_absolute"),
        ("  Power Line Frequency ", "power_line_frequency"),
        ("Pan/Tilt Reset", "pan_tilt_reset"),
        ("H.264 I-Frame Period", "h_264_i_frame_period"),
    ])
    func namesAreSpelledAsV4L2CtlSpellsThem(name: String, expected: String) {
        #expect(CameraControl.v4l2Name(of: name) == expected)
    }

    static func control(kind: ControlKind = .integer, minimum: Int64, maximum: Int64, step: Int64 = 1,
                        menu: [CameraControl.MenuItem] = []) -> CameraControl {
        CameraControl(id: .gain, name: "Gain", kind: kind, minimum: minimum, maximum: maximum, step: step, defaultValue: minimum,
                      value: minimum, isInactive: false, isReadOnly: false, menu: menu)
    }

    @Test func aValueMustBeInRangeOnAStepOrAMenuEntry() {
        let focus = Self.control(minimum: 0, maximum: 250, step: 5)
        #expect(focus.accepts(0) && focus.accepts(125) && focus.accepts(250))
        #expect(!focus.accepts(7) && !focus.accepts(-5) && !focus.accepts(255))
        #expect(focus.allowedValues == "0...250 in steps of 5")
        let menu = Self.control(kind: .menu, minimum: 0, maximum: 3, menu: [
            CameraControl.MenuItem(value: 1, name: "Manual Mode"), CameraControl.MenuItem(value: 3, name: "Aperture Priority Mode"),
        ])
        #expect(menu.accepts(1) && menu.accepts(3) && !menu.accepts(2) && !menu.accepts(0))
        #expect(menu.allowedValues == "1 (Manual Mode), 3 (Aperture Priority Mode)")
        #expect(Self.control(kind: .boolean, minimum: 0, maximum: 1).allowedValues == "0 or 1")
    }

    @Test func assignmentsAreReadAsNameEqualsWholeNumber() throws {
        #expect(try ControlAssignment(parsing: "brightness=-10") == ControlAssignment(name: "brightness", value: -10))
        #expect(try ControlAssignment(parsing: "gain=80").description == "gain=80")
        for text in ["gain", "=5", "gain=", "gain=1.5", "gain=ten", "gain=99999999999999999999"] {
            let error = #expect(throws: ControlError.self) { try ControlAssignment(parsing: text) }
            #expect(error?.kind == .malformed)
            #expect(error?.description == "'\(text)' is not understood: expected NAME=VALUE with a whole number, such as brightness=10")
        }
        #expect(try ControlSettings.Mode(parsing: "auto", of: "--focus") == .automatic)
        #expect(try ControlSettings.Mode(parsing: "120", of: "--focus") == .manual(120))
        #expect(throws: ControlError.self) { try ControlSettings.Mode(parsing: "far", of: "--focus") }
    }
}
