/// Decides whether a detection is good enough to enable the shutter.
///
/// A detection is valid when it has at least ``minimumMarkers`` markers, at least
/// ``minimumBoardCorners`` board corners and a sharpness of at least ``minimumSharpness``.
/// ``init(defaultsFor:)`` gives defaults that suit each kind of pattern.
public struct ValidityRule: Sendable, Hashable {
    /// Markers a valid detection has at least.
    public var minimumMarkers: Int
    /// Board corners a valid detection has at least.
    public var minimumBoardCorners: Int
    /// The smallest acceptable ``Detection/sharpness`` (variance of the Laplacian); 0 accepts any.
    public var minimumSharpness: Double

    /// The default sharpness floor. The real calibration photos the tests use measure 345 to 6445;
    /// a ChArUco board drawn at 1280x960 measures 309 after a Gaussian blur of sigma 1 pixel, 46
    /// after sigma 2 and 25 after sigma 2.5.
    public static let defaultMinimumSharpness = 50.0

    /// Makes a rule from explicit thresholds.
    public init(minimumMarkers: Int, minimumBoardCorners: Int, minimumSharpness: Double) {
        self.minimumMarkers = minimumMarkers
        self.minimumBoardCorners = minimumBoardCorners
        self.minimumSharpness = minimumSharpness
    }

    /// The defaults for a pattern kind, all with ``defaultMinimumSharpness``:
    /// - loose markers (ArUco or AprilTag): 1 marker;
    /// - grid board: half the board's markers (at least 1);
    /// - ChArUco board: half the board's corners (at least 4, or all when it has fewer), no marker
    ///   minimum since every corner comes from markers next to it;
    /// - chessboard and circle grid: every point (OpenCV finds them whole or not at all);
    /// - AprilGrid: half its corners (at least 4), like a ChArUco board.
    public init(defaultsFor pattern: Pattern) {
        let sharpness = Self.defaultMinimumSharpness
        switch pattern {
        case .aruco:
            self.init(minimumMarkers: 1, minimumBoardCorners: 0, minimumSharpness: sharpness)
        case .gridBoard(let board):
            self.init(minimumMarkers: max(1, board.markerCount / 2), minimumBoardCorners: 0, minimumSharpness: sharpness)
        case .charuco(let board):
            let corners = min(board.cornerCount, max(4, board.cornerCount / 2))
            self.init(minimumMarkers: 0, minimumBoardCorners: corners, minimumSharpness: sharpness)
        case .chessboard(let board):
            self.init(minimumMarkers: 0, minimumBoardCorners: board.cornerCount, minimumSharpness: sharpness)
        case .circleGrid(let grid):
            self.init(minimumMarkers: 0, minimumBoardCorners: grid.pointCount, minimumSharpness: sharpness)
        case .aprilTag:
            self.init(minimumMarkers: 1, minimumBoardCorners: 0, minimumSharpness: sharpness)
        case .aprilGrid(let grid):
            let corners = min(grid.cornerCount, max(4, grid.cornerCount / 2))
            self.init(minimumMarkers: 0, minimumBoardCorners: corners, minimumSharpness: sharpness)
        }
    }

    /// One way a detection falls short of a rule.
    public enum Shortfall: Sendable, Hashable, CustomStringConvertible {
        /// Too few markers.
        case markers(found: Int, required: Int)
        /// Too few board corners.
        case boardCorners(found: Int, required: Int)
        /// Not sharp enough (`measured` is `nil` when nothing was found to measure).
        case sharpness(measured: Double?, required: Double)

        /// For example `3 of 12 corners`.
        public var description: String {
            switch self {
            case .markers(let found, let required): "\(found) of \(required) markers"
            case .boardCorners(let found, let required): "\(found) of \(required) corners"
            case .sharpness(let measured, let required):
                "sharpness \(measured.map { String(Int($0.rounded())) } ?? "none") below \(Int(required.rounded()))"
            }
        }
    }

    /// Every way `detection` falls short of this rule; empty when it is valid.
    public func shortfalls(of detection: Detection) -> [Shortfall] {
        var result: [Shortfall] = []
        if detection.markers.count < minimumMarkers {
            result.append(.markers(found: detection.markers.count, required: minimumMarkers))
        }
        if detection.boardCorners.count < minimumBoardCorners {
            result.append(.boardCorners(found: detection.boardCorners.count, required: minimumBoardCorners))
        }
        let sharpEnough = detection.sharpness.map { $0 >= minimumSharpness } ?? (minimumSharpness <= 0)
        if !sharpEnough {
            result.append(.sharpness(measured: detection.sharpness, required: minimumSharpness))
        }
        return result
    }

    /// Whether `detection` meets every threshold.
    public func accepts(_ detection: Detection) -> Bool { shortfalls(of: detection).isEmpty }
}
