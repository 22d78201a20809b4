/// A V4L2 control id (`V4L2_CID_*`).
public struct ControlID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The numeric id.
    public let rawValue: UInt32

    /// Wraps a numeric id.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public var description: String { "0x" + String(rawValue, radix: 16) }

    /// `V4L2_CID_BRIGHTNESS`.
    public static let brightness = ControlID(rawValue: brightnessID)
    /// `V4L2_CID_CONTRAST`.
    public static let contrast = ControlID(rawValue: contrastID)
    /// `V4L2_CID_SATURATION`.
    public static let saturation = ControlID(rawValue: saturationID)
    /// `V4L2_CID_GAIN`.
    public static let gain = ControlID(rawValue: gainID)
    /// `V4L2_CID_POWER_LINE_FREQUENCY`.
    public static let powerLineFrequency = ControlID(rawValue: powerLineFrequencyID)
    /// `V4L2_CID_SHARPNESS`.
    public static let sharpness = ControlID(rawValue: sharpnessID)
    /// `V4L2_CID_EXPOSURE_AUTO` (a menu: ``exposureManual`` turns automatic exposure off).
    public static let exposureAuto = ControlID(rawValue: exposureAutoID)
    /// `V4L2_CID_EXPOSURE_ABSOLUTE`, in 100 µs units; settable only with ``exposureAuto`` manual.
    public static let exposureAbsolute = ControlID(rawValue: exposureAbsoluteID)
    /// `V4L2_CID_FOCUS_ABSOLUTE`; settable only with ``focusAuto`` off.
    public static let focusAbsolute = ControlID(rawValue: focusAbsoluteID)
    /// `V4L2_CID_FOCUS_AUTO` (boolean).
    public static let focusAuto = ControlID(rawValue: focusAutoID)
    /// `V4L2_CID_AUTO_WHITE_BALANCE` (boolean).
    public static let autoWhiteBalance = ControlID(rawValue: autoWhiteBalanceID)
    /// `V4L2_CID_WHITE_BALANCE_TEMPERATURE`; settable only with ``autoWhiteBalance`` off.
    public static let whiteBalanceTemperature = ControlID(rawValue: whiteBalanceTemperatureID)
    /// `V4L2_CID_AUTOGAIN` (boolean); ``gain`` is inactive while it is on.
    public static let autoGain = ControlID(rawValue: autoGainID)

    /// The ``exposureAuto`` value for manual exposure (`V4L2_EXPOSURE_MANUAL`).
    public static let exposureManual = exposureManualValue
    /// The ``exposureAuto`` value most webcams use for automatic exposure (`V4L2_EXPOSURE_APERTURE_PRIORITY`).
    public static let exposureAperturePriority = exposureAperturePriorityValue
}

/// The type of a control's value.
public enum ControlKind: Sendable, Hashable {
    case integer, boolean, menu, integerMenu, button, integer64
    /// A heading that groups controls; never listed.
    case controlClass
    /// Another `V4L2_CTRL_TYPE_*`.
    case other(UInt32)

    /// Whether the control holds a value that `VIDIOC_G_CTRL` reads.
    var hasValue: Bool {
        switch self {
        case .integer, .boolean, .menu, .integerMenu: true
        case .button, .integer64, .controlClass, .other: false
        }
    }
}

/// A control as `VIDIOC_QUERYCTRL` describes it, with its current value.
public struct CameraControl: Sendable, Hashable {
    /// One entry of a menu control.
    public struct MenuItem: Sendable, Hashable {
        /// The value that selects the entry.
        public let value: Int64
        /// Its name (or the number, for an integer menu).
        public let name: String
    }

    /// The control's id.
    public let id: ControlID
    /// The driver's name for it (`Brightness`).
    public let name: String
    /// The type of its value.
    public let kind: ControlKind
    /// Smallest value.
    public let minimum: Int64
    /// Largest value.
    public let maximum: Int64
    /// Step between values.
    public let step: Int64
    /// The driver's default.
    public let defaultValue: Int64
    /// The current value, or `nil` for controls without one (buttons, write-only).
    public let value: Int64?
    /// An automatic mode governs it now (`V4L2_CTRL_FLAG_INACTIVE`): setting it is refused or ignored.
    public let isInactive: Bool
    /// It cannot be set (read-only, or grabbed while streaming).
    public let isReadOnly: Bool
    /// The entries of a menu control.
    public let menu: [MenuItem]
}

extension CameraControl {
    /// The name `v4l2-ctl` gives the control (`--get-ctrl`, `--set-ctrl`): the driver's name in
    /// lower case, each run of other characters between letters and digits turned into one `_`
    /// (`Exposure (Absolute)` is `exposure_absolute`).
    public var v4l2Name: String { Self.v4l2Name(of: name) }

    static func v4l2Name(of name: String) -> String {
        var result = ""
        var separated = false
        for character in name.unicodeScalars {
            if character.isASCII, character.properties.isAlphabetic || ("0"..."9").contains(character) {
                if separated { result += "_" }
                separated = false
                result.unicodeScalars.append(character.properties.lowercaseMapping.unicodeScalars.first!)
            } else if !result.isEmpty {
                separated = true
            }
        }
        return result
    }

    /// The values it takes, as a reader would write them: `3...2047 step 1`, `0 or 1`, or the menu
    /// entries `1 (Manual Mode), 3 (Aperture Priority Mode)`.
    public var allowedValues: String {
        if !menu.isEmpty { return menu.map { "\($0.value) (\($0.name))" }.joined(separator: ", ") }
        if kind == .boolean { return "0 or 1" }
        return "\(minimum)...\(maximum)" + (step > 1 ? " in steps of \(step)" : "")
    }

    /// Whether `value` is one the control takes: in range, on a step, or a menu entry.
    public func accepts(_ value: Int64) -> Bool {
        if !menu.isEmpty { return menu.contains { $0.value == value } }
        guard value >= minimum, value <= maximum else { return false }
        return step <= 1 || (value - minimum) % step == 0
    }
}
