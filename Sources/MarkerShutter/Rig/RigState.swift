/// The rig shutter after an event: enabled with the set it would take, or disabled and why.
public struct RigState: Sendable, Hashable, CustomStringConvertible {
    /// One camera's own shutter, as the views show it.
    public enum CameraPhase: Sendable, Hashable, CustomStringConvertible {
        /// Its newest frame has a valid detection.
        case enabled
        /// Its detection was lost; its last valid frame is still held.
        case held
        /// No valid detection is held.
        case disabled
        /// No frame came for longer than its stall limit, or none yet.
        case stalled
        /// Gone: unplugged, or its capture failed.
        case lost

        public var description: String {
            switch self {
            case .enabled: "enabled"
            case .held: "held"
            case .disabled: "disabled"
            case .stalled: "stalled"
            case .lost: "lost"
            }
        }
    }

    /// The set a capture would take now; `nil` while disabled.
    public let set: RigSet?
    /// Why the shutter is disabled; `nil` while enabled.
    public let refusal: RigRefusal?
    /// Each camera's own shutter, in the rig's order.
    public let cameras: [CameraPhase]

    /// Whether a set may be taken now.
    public var isEnabled: Bool { self.set != nil }

    /// `enabled` or `disabled: <reason>`.
    public var description: String {
        if self.set != nil { return "enabled" }
        return "disabled: \(refusal.map(String.init(describing:)) ?? "")"
    }
}
