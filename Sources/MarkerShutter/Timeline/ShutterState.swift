/// Whether the shutter may fire, and which frame it would save.
public struct ShutterState<Snapshot: Sendable>: Sendable {
    /// The three states the shutter shows.
    public enum Phase: Sendable, Hashable, CustomStringConvertible {
        /// The latest frame has a valid detection.
        case enabled
        /// Detection was lost at `since`; the last valid frame is still held, until `since` plus
        /// the hold time.
        case held(since: FrameTime)
        /// No valid detection is held.
        case disabled

        public var description: String {
            switch self {
            case .enabled: "enabled"
            case .held: "held"
            case .disabled: "disabled"
            }
        }
    }

    /// The phase.
    public var phase: Phase
    /// The last valid frame and its index, while enabled or held; `nil` when disabled.
    public var held: (index: Int, snapshot: Snapshot)?

    /// Creates a state.
    package init(phase: Phase, held: (index: Int, snapshot: Snapshot)?) {
        self.phase = phase
        self.held = held
    }

    /// The shutter with nothing held.
    package static var disabled: ShutterState { ShutterState(phase: .disabled, held: nil) }

    /// Whether a picture may be taken now (enabled or held).
    var isEnabled: Bool { phase != .disabled }

    /// The index of the frame whose detection is held.
    package var heldIndex: Int? { held?.index }

    /// How long the current hold has lasted at `now`, or `nil` when not holding.
    public func holdAge(at now: FrameTime) -> Duration? {
        guard case .held(let since) = phase else { return nil }
        return since.duration(to: now)
    }

    /// Whether `other` shows the same thing: same phase and same held frame. A new state is
    /// published only when this is false.
    func isSame(as other: ShutterState) -> Bool {
        phase == other.phase && heldIndex == other.heldIndex
    }
}

extension ShutterState {
    /// The same state keeping another snapshot of its held frame: `snapshot` gives it from the
    /// held frame's index and snapshot, or `nil` to hold nothing.
    func replacingSnapshot<Other>(_ snapshot: (Int, Snapshot) -> Other?) -> ShutterState<Other> {
        let phase: ShutterState<Other>.Phase = switch self.phase {
        case .enabled: .enabled
        case .held(let since): .held(since: since)
        case .disabled: .disabled
        }
        return ShutterState<Other>(phase: phase, held: held.flatMap { held in snapshot(held.index, held.snapshot).map { (held.index, $0) } })
    }
}
