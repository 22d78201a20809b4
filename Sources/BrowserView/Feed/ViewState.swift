public import MarkerShutter

/// The live report the view shows: the shutter as `ShutterState`'s phase, the newest frame's time,
/// rates and counts, and the target's coverage when known.
public struct ViewState: Sendable {
    /// The newest frame's index.
    public var frameIndex: Int
    /// The newest frame's time (the hold's age and countdown are measured on it).
    public var time: FrameTime
    /// The shutter's phase after the newest frame.
    public var phase: ShutterState<FrameObservation>.Phase
    /// The hold time (`--hold`).
    public var hold: Duration
    /// Frames per second the source delivers, when known.
    public var framesPerSecond: Double?
    /// The last detection's duration, when known.
    public var detectionTime: Duration?
    /// Markers found in the newest frame.
    public var markers: Int
    /// Board corners found in the newest frame.
    public var corners: Int
    /// How far the pictures so far spread over the image, size and skew, when known.
    public var coverage: ViewCoverage.Progress?

    /// A report of plain values.
    public init(frameIndex: Int, time: FrameTime, phase: ShutterState<FrameObservation>.Phase, hold: Duration,
                framesPerSecond: Double? = nil, detectionTime: Duration? = nil, markers: Int = 0, corners: Int = 0,
                coverage: ViewCoverage.Progress? = nil) {
        self.frameIndex = frameIndex
        self.time = time
        self.phase = phase
        self.hold = hold
        self.framesPerSecond = framesPerSecond
        self.detectionTime = detectionTime
        self.markers = markers
        self.corners = corners
        self.coverage = coverage
    }

    /// The report for a detected frame, as the live shutter tells it.
    ///
    /// - Parameters:
    ///   - report: The frame's report.
    ///   - statistics: The shutter's statistics (for the frame rate).
    ///   - hold: The hold time.
    ///   - coverage: The pictures' coverage, when known.
    public init(report: LiveShutter.Report, statistics: LiveStatistics, hold: Duration,
                coverage: ViewCoverage.Progress? = nil) {
        self.init(frameIndex: report.observation.index, time: report.observation.time, phase: report.step.state.phase,
                  hold: hold, framesPerSecond: statistics.framesPerSecond,
                  detectionTime: report.observation.detection.duration,
                  markers: report.observation.detection.markers.count,
                  corners: report.observation.detection.boardCorners.count, coverage: coverage)
    }

    /// How long the current hold has lasted, or `nil` when not holding.
    public var holdAge: Duration? {
        guard case .held(let since) = phase else { return nil }
        return since.duration(to: time)
    }

    /// What is left of the hold before the shutter is disabled, or `nil` when not holding.
    public var holdRemaining: Duration? {
        holdAge.map { max(.zero, hold - $0) }
    }

    /// The shutter as the status line shows it: `ENABLED`, `HELD 0.12s` (the hold's age) or `disabled`.
    public var shutterText: String { phase.text(at: time) }
}
