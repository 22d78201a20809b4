/// What a live session asks of a camera, whatever the capture backend: a size, a rate, color or
/// gray frames, the camera's own format when it matters, and its controls. A backend grants what it
/// can and says so in its source's banner.
public struct CameraRequest: Sendable, Hashable {
    /// Requested width in pixels; the camera grants the nearest size it offers.
    public var width: Int
    /// Requested height in pixels.
    public var height: Int
    /// Requested frame rate; `nil` leaves the camera's.
    public var framesPerSecond: Int?
    /// Gray frames (8 bits a pixel) instead of color (BGR, 8 bits each).
    public var gray: Bool
    /// The camera's own format to stream in (four characters: `MJPG`, `YUYV`), converted to
    /// color or gray frames; `nil` lets the backend choose.
    public var cameraFormat: String?
    /// The controls to set once the camera is open, before its frames flow.
    public var controls: CameraControls

    /// A request; every part but the size has a default.
    public init(width: Int = 640, height: Int = 480, framesPerSecond: Int? = 30, gray: Bool = false,
                cameraFormat: String? = nil, controls: CameraControls = CameraControls()) {
        self.width = width
        self.height = height
        self.framesPerSecond = framesPerSecond
        self.gray = gray
        self.cameraFormat = cameraFormat
        self.controls = controls
    }
}

/// Camera controls to set before capturing, whatever the backend: what `--exposure`, `--focus`,
/// `--control` and `--lock` ask for, set in that order.
public struct CameraControls: Sendable, Hashable {
    /// Automatic, or a fixed value.
    public enum Mode: Sendable, Hashable {
        /// The camera's automatic mode.
        case automatic
        /// A fixed value: microseconds for exposure, the focus control's own units for focus.
        case manual(Int64)
    }

    /// A control set by its name (for V4L2, as `v4l2-ctl` names it) to a value.
    public struct Assignment: Sendable, Hashable {
        /// The control's name.
        public let name: String
        /// Its value, in the control's own units.
        public let value: Int64

        /// Pairs a control name with a value.
        public init(name: String, value: Int64) {
            self.name = name
            self.value = value
        }
    }

    /// Exposure: automatic, or a time in microseconds.
    public var exposure: Mode?
    /// Focus: continuous autofocus, or a fixed value.
    public var focus: Mode?
    /// Any other controls, set in order.
    public var named: [Assignment]
    /// Fix exposure, gain, white balance and focus at the values the automatic modes reached, after
    /// the session's settling time (``LiveSession/Configuration/controlSettling``).
    public var lock: Bool

    /// Controls that change nothing unless given.
    public init(exposure: Mode? = nil, focus: Mode? = nil, named: [Assignment] = [], lock: Bool = false) {
        self.exposure = exposure
        self.focus = focus
        self.named = named
        self.lock = lock
    }

    /// Whether setting them would change nothing.
    public var isEmpty: Bool { exposure == nil && focus == nil && named.isEmpty && !lock }
}
