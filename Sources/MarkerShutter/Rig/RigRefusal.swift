/// Why the rig shutter is disabled, in the words a refused capture says.
public enum RigRefusal: Sendable, Hashable, CustomStringConvertible {
    /// These cameras have neither a valid nor a held detection.
    case notSeeing([String])
    /// The closest set of frames the cameras have spans this much time, more than the tolerance.
    case apart(Duration)
    /// The board moves this fast (pixels per frame) in this camera, more than the limit.
    case moving(Double, camera: String)
    /// The board's motion in this camera is not known (no corner shared with its previous frame).
    case motionUnknown(camera: String)
    /// This camera delivered no frame for this long, more than its stall limit.
    case stalled(camera: String, for: Duration)
    /// This camera is gone (unplugged, or its capture failed).
    case lost(camera: String)
    /// No frame came from this camera yet.
    case waiting(camera: String)
    /// This many frames of this camera were lost before its newest (dropped by the camera or the
    /// driver, or by a capture that fell behind).
    case dropped(Int, camera: String)

    /// The reason without a stall's length: a stall that grows longer with every moment (or
    /// every other camera's frame) is the same reason, told once.
    public var kind: RigRefusal {
        if case .stalled(let camera, _) = self { return .stalled(camera: camera, for: .zero) }
        return self
    }

    public var description: String {
        switch self {
        case .notSeeing(let names): "\(Self.list(names)) \(names.count == 1 ? "does" : "do") not see the board"
        case .apart(let spread): "frames \(Self.milliseconds(spread)) ms apart"
        case .moving(let motion, let camera): "board moving \(Self.oneDecimal(motion)) px/frame in \(camera)"
        case .motionUnknown(let camera): "board motion unknown in \(camera)"
        case .stalled(let camera, let duration): "\(camera) stalled: no frame for \(Self.milliseconds(duration)) ms"
        case .lost(let camera): "\(camera) is gone"
        case .waiting(let camera): "no frame from \(camera) yet"
        case .dropped(let count, let camera): "\(camera) dropped \(count == 1 ? "a frame" : "\(count) frames")"
        }
    }

    /// `left`, `left and right`, `a, b and c`.
    static func list(_ names: [String]) -> String {
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
    }

    /// Whole milliseconds, rounded.
    static func milliseconds(_ duration: Duration) -> Int { Int((duration.inSeconds * 1000).rounded()) }

    /// One decimal: `3.4`.
    static func oneDecimal(_ value: Double) -> String {
        guard value.isFinite else { return "\(value)" }
        return String(Double((value * 10).rounded()) / 10)
    }
}
