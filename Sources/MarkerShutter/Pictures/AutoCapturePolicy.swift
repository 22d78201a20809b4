/// Decides which valid frames are worth keeping for calibration, the way `--auto` captures, and
/// keeps the ``ViewCoverage`` of every picture taken (automatic or asked for).
///
/// The rule, for a frame on which the shutter is enabled, that is valid (sharp enough) and whose
/// target gives a ``BoardView``:
///
/// 1. The first view is taken.
/// 2. A view within `minimumDistance` of a view already taken (``BoardView/distance(to:)``, the sum
///    of the four measures' differences) is too similar: skipped.
/// 3. A view that raises the coverage (``ViewCoverage/gain(from:)``) by at least `minimumGain` is
///    taken: it widens what the pictures span across, down, in size or in skew.
/// 4. Any other view is taken only when it is more than twice `minimumDistance` from every view
///    taken: views inside the ranges covered so far must be new in themselves.
///
/// So views that raise the coverage are preferred (they need half the difference the others need),
/// and a view too similar to an earlier one is never taken.
struct AutoCapturePolicy: Sendable {
    /// The smallest sum of differences of the view measures from every earlier picture.
    var minimumDistance: Double
    /// The smallest rise of the total coverage (the sum of the four measures' progress) that
    /// counts as raising it.
    var minimumGain: Double
    /// The coverage of the pictures taken so far.
    private(set) var coverage: ViewCoverage

    /// Why a view is taken.
    enum Reason: String, Sendable {
        /// The first picture.
        case first
        /// It raises the coverage by at least `minimumGain`.
        case raisesCoverage = "raises coverage"
        /// It adds no coverage but differs from every picture by over twice `minimumDistance`.
        case new
    }

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - minimumDistance: How different a view must be from every earlier one; 0.2 asks for a
    ///     fifth of the image's width (or size, or skew) between views.
    ///   - minimumGain: How much a view must raise the total coverage to count as raising it; 0.05
    ///     is, for example, 3.5% more of the image's width spanned (a twentieth of the 0.7 wanted).
    ///   - goals: The spans the coverage is measured against.
    init(minimumDistance: Double = 0.2, minimumGain: Double = 0.05, goals: ViewCoverage.Goals = .standard) {
        self.minimumDistance = minimumDistance
        self.minimumGain = minimumGain
        coverage = ViewCoverage(goals: goals)
    }

    /// The views of the pictures taken so far, in order.
    var captured: [BoardView] { coverage.views }

    /// Whether `view` would be taken now, and why (nil: skipped).
    func reason(toTake view: BoardView) -> Reason? {
        guard let nearest = captured.map({ $0.distance(to: view) }).min() else { return .first }
        guard nearest > minimumDistance else { return nil }
        if coverage.gain(from: view) >= minimumGain { return .raisesCoverage }
        return nearest > 2 * minimumDistance ? .new : nil
    }

    /// Whether `observation` should be captured, given that the shutter shows `phase` for it;
    /// records its view when it should.
    mutating func consider(_ observation: FrameObservation, phase: ShutterState<FrameObservation>.Phase) -> BoardView? {
        guard phase == .enabled, observation.isValid, let view = BoardView(observation.detection),
              reason(toTake: view) != nil else { return nil }
        coverage.add(view)
        return view
    }

    /// Records the view of a picture taken otherwise (asked for), so that it counts as taken.
    mutating func record(_ view: BoardView) { coverage.add(view) }
}
