/// One pixel format a device offers (`VIDIOC_ENUM_FMT`), with its sizes and frame intervals.
public struct FormatDescription: Sendable, Hashable {
    /// The format's code.
    public let fourCC: FourCC
    /// The driver's (or libv4lconvert's) name for it.
    public let description: String
    /// Compressed data (MJPEG, ...).
    public let isCompressed: Bool
    /// Made by libv4lconvert from one of the device's own formats, not sent by the device.
    public let isEmulated: Bool
    /// Frame sizes (`VIDIOC_ENUM_FRAMESIZES`).
    public let sizes: [FrameSizeDescription]
}

/// One frame size of a format, with its frame intervals (`VIDIOC_ENUM_FRAMEINTERVALS`).
public struct FrameSizeDescription: Sendable, Hashable {
    /// Width in pixels (the smallest, for a range).
    public let width: Int
    /// Height in pixels (the smallest, for a range).
    public let height: Int
    /// Largest width, equal to `width` for a discrete size.
    public let maximumWidth: Int
    /// Largest height, equal to `height` for a discrete size.
    public let maximumHeight: Int
    /// A single size rather than a range.
    public let isDiscrete: Bool
    /// Frame intervals offered at this size: each one for discrete intervals, else the shortest
    /// and the longest.
    public let frameIntervals: [FrameInterval]
}
