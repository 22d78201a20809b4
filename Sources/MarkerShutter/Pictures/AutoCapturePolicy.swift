/// Decides which valid frames are worth keeping for calibration, the way `--auto` captures: a frame
/// is taken when the shutter is enabled on it, it is sharp enough, and its ``BoardView`` differs from
/// every view taken so far by more than `minimumDistance`.
public struct AutoCapturePolicy: Sendable {
    /// The smallest sum of differences of the view measures from every earlier capture.
    public var minimumDistance: Double
    /// The views captured so far.
    public private(set) var captured: [BoardView] = []

    /// Creates a policy.
    ///
    /// - Parameter minimumDistance: How different a view must be from every earlier one; 0.2 asks
    ///   for a fifth of the image's width (or size, or skew) between views.
    public init(minimumDistance: Double = 0.2) {
        self.minimumDistance = minimumDistance
    }

    /// Whether `observation` should be captured, given that the shutter shows `phase` for it;
    /// records its view when it should.
    public mutating func consider(_ observation: FrameObservation, phase: ShutterState<FrameObservation>.Phase) -> BoardView? {
        guard phase == .enabled, observation.isValid, let view = BoardView(observation.detection) else { return nil }
        guard captured.allSatisfy({ $0.distance(to: view) > minimumDistance }) else { return nil }
        captured.append(view)
        return view
    }
}
