package import MarkerDetection

extension ShutterState.Phase {
    /// The shutter as every view shows it: `ENABLED`, `HELD 0.12s` (the hold's age at `time`, in
    /// hundredths of a second) or `disabled`.
    package func text(at time: FrameTime) -> String {
        switch self {
        case .enabled: return "ENABLED"
        case .held(let since): return "HELD " + Self.hundredths(since.duration(to: time)) + "s"
        case .disabled: return "disabled"
        }
    }

    /// `duration` in seconds with two decimals, `0.12`, without Foundation's formatting.
    static func hundredths(_ duration: Duration) -> String {
        let hundredths = Int((duration.inSeconds * 100).rounded())
        return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)"
    }
}

extension Annotation.Badge {
    /// The shutter's badge drawn on a frame: its ``ShutterState/Phase/text(at:)``, then `detail`
    /// after two spaces when given; green while a picture may be taken (enabled or held), red while
    /// disabled.
    package init<Snapshot>(shutter phase: ShutterState<Snapshot>.Phase, at time: FrameTime, detail: String? = nil) {
        self.init(text: phase.text(at: time) + (detail.map { "  " + $0 } ?? ""), isOK: phase != .disabled)
    }
}
