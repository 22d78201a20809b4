public import MarkerDetection
public import Pixels

/// One frame after detection: what was found, whether it may enable the shutter, and (for a valid
/// frame) its pixels, so the shutter can save it while it is held.
public struct FrameObservation: Sendable {
    /// Position in the stream, from 0.
    public let index: Int
    /// When the frame was captured.
    public let time: FrameTime
    /// The camera's sequence number, when known.
    public let sequence: UInt64?
    /// The file the frame came from, for frame folders.
    public let file: String?
    /// What the detector found.
    public let detection: Detection
    /// Whether the detection passes the validity rule.
    public let isValid: Bool
    /// Why it does not, when it does not.
    public let shortfalls: [ValidityRule.Shortfall]
    /// The frame's pixels, kept for valid frames only (an invalid frame is never saved, and keeping
    /// it would hold camera memory for nothing).
    public let pixels: PixelBuffer?
    /// The camera controls set for the frame, by their `v4l2-ctl` names (see ``SourceFrame/controls``).
    public var controls: [String: Int64] = [:]

    /// Creates an observation; `pixels` are dropped when the frame is not valid.
    package init(index: Int, time: FrameTime, sequence: UInt64?, file: String?, detection: Detection,
                rule: ValidityRule, pixels: PixelBuffer?) {
        self.index = index
        self.time = time
        self.sequence = sequence
        self.file = file
        self.detection = detection
        self.shortfalls = rule.shortfalls(of: detection)
        self.isValid = shortfalls.isEmpty
        self.pixels = isValid ? pixels : nil
    }
}
