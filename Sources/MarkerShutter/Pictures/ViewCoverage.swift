/// How far the pictures taken so far spread over each measure of a ``BoardView`` (across, down,
/// size and skew), the way ROS `camera_calibration` shows its X, Y, Size and Skew bars: each
/// measure's progress is the range its views span over the range a good calibration wants,
/// capped at 1.
///
/// A pure value: add views as pictures are taken, read ``progress`` or ``statusText``, and ask
/// ``gain(from:)`` how much a candidate view would add.
public struct ViewCoverage: Sendable, Hashable, CustomStringConvertible {
    /// One value per measure of a ``BoardView``: the spans wanted (``Goals``) or reached (``Progress``).
    public struct Measures: Sendable, Hashable {
        /// Across the image.
        public var x: Double
        /// Down the image.
        public var y: Double
        /// Of the target's size.
        public var size: Double
        /// Of the target's skew.
        public var skew: Double

        /// Makes the four values.
        public init(x: Double, y: Double, size: Double, skew: Double) {
            self.x = x
            self.y = y
            self.size = size
            self.skew = skew
        }

        /// The smallest of the four: for progress, how far the weakest measure is.
        public var least: Double { min(x, y, size, skew) }
        /// The sum of the four.
        package var total: Double { x + y + size + skew }

        /// The spans ROS `camera_calibration` asks for: 0.7 across and down, 0.4 of size, 0.5 of skew.
        public static let standard = Measures(x: 0.7, y: 0.7, size: 0.4, skew: 0.5)
    }

    /// The range each measure's views should span (0...1 each).
    public typealias Goals = Measures
    /// How far each measure's views span their goal, 0...1 each.
    public typealias Progress = Measures

    /// The goals.
    let goals: Goals
    /// The views added, in order.
    public private(set) var views: [BoardView] = []

    /// An empty coverage.
    public init(goals: Goals = .standard) {
        self.goals = goals
    }

    /// Adds the view of a picture taken.
    public mutating func add(_ view: BoardView) { views.append(view) }

    /// How far each measure is covered.
    public var progress: Progress { Self.progress(of: views, goals: goals) }

    /// Whether every measure has reached its goal.
    public var isComplete: Bool { progress.least >= 1 }

    /// How much `view` would raise the total progress (0 when it adds nothing).
    package func gain(from view: BoardView) -> Double {
        Self.progress(of: views + [view], goals: goals).total - progress.total
    }

    /// How much `view` would raise each measure's progress (0 where it adds nothing).
    package func gains(from view: BoardView) -> Measures {
        let now = progress, then = Self.progress(of: views + [view], goals: goals)
        return Measures(x: then.x - now.x, y: then.y - now.y, size: then.size - now.size, skew: then.skew - now.skew)
    }

    /// The status-line form, each measure as a percentage: `cover x 64% y 40% size 25% skew 10%`.
    public var statusText: String {
        let p = progress
        func percent(_ value: Double) -> String { "\(Int((value * 100).rounded(.down)))%" }
        return "cover x \(percent(p.x)) y \(percent(p.y)) size \(percent(p.size)) skew \(percent(p.skew))"
    }

    public var description: String { statusText }

    private static func progress(of views: [BoardView], goals: Goals) -> Progress {
        func spread(_ values: [Double], _ goal: Double) -> Double {
            guard let low = values.min(), let high = values.max(), goal > 0 else { return 0 }
            return min(1, (high - low) / goal)
        }
        return Progress(
            x: spread(views.map(\.x), goals.x), y: spread(views.map(\.y), goals.y),
            size: spread(views.map(\.size), goals.size), skew: spread(views.map(\.skew), goals.skew))
    }
}
