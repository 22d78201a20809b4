public import Pixels

/// What the driver (through libv4l2) granted for a ``CaptureSettings``.
public struct NegotiatedFormat: Sendable, Hashable {
    /// Width of every frame in pixels.
    public let width: Int
    /// Height of every frame in pixels.
    public let height: Int
    /// The pixels every frame carries.
    public let pixelFormat: PixelFormat
    /// Bytes from one row to the next in every frame.
    public let rowStride: Int
    /// The frame interval the driver granted (`VIDIOC_S_PARM`, read back with `VIDIOC_G_PARM`), or
    /// `nil` when the driver does not report one.
    public let frameInterval: FrameInterval?
    /// Whether the driver lets the frame rate be set (`V4L2_CAP_TIMEPERFRAME`).
    public let frameRateSettable: Bool
    /// The device's own formats (not emulated by libv4lconvert) that offer the granted size: what
    /// libv4lconvert converts from. With more than one, libv4lconvert picks by conversion cost.
    public let deviceFormats: [FourCC]
    /// What was asked for.
    public let requested: CaptureSettings
    /// The camera's own format the frames come in and are converted from here, when
    /// ``CaptureSettings/cameraFormat`` chose one; `nil` when libv4lconvert chose.
    public var cameraFormat: FourCC? = nil

    /// Granted frames per second, when known.
    public var framesPerSecond: Double? { frameInterval?.framesPerSecond }

    /// Whether the size and the frame rate (when one was asked for) are what was requested.
    public var matchesRequest: Bool {
        guard width == requested.width, height == requested.height else { return false }
        guard let wanted = requested.framesPerSecond else { return true }
        return frameInterval.map { $0.framesPerSecond == Double(wanted) } ?? false
    }
}

/// What VIDIOC_S_FMT granted.
struct PixelFormatGrant: Sendable, Hashable {
    var width: Int
    var height: Int
    var fourCC: FourCC
    var bytesPerLine: Int
    var sizeImage: Int
}
