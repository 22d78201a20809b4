public import MarkerDetection

/// Where each detectable point lies on a calibration target, so that detections become
/// ``CalibrationView``s. Partial views count: every detected point with a known id is used.
///
/// Points are in metres when the pattern states its size with a unit (`square=25mm`), and in the
/// pattern's own units otherwise (squares, for a chessboard without a size): ``units`` says which,
/// and every length derived from the views (poses, a rig's translations and baselines) is in it.
///
/// - ChArUco: corner `id` is inner corner `(id % (columns - 1) + 1, id / (columns - 1) + 1)` in
///   squares, as OpenCV numbers them.
/// - Chessboard: corner `id` is `(id % columns, id / columns)` squares, times the square's side.
/// - Grid board: each marker's four corners (clockwise from its top-left), marker `first + i` in
///   row `i / columns`, column `i % columns`, a marker plus a gap apart.
/// - Circle grid: point `id` at ``CircleGrid/position(of:)``: `(column, row)` spacings on a
///   symmetric grid, `(2 column + row % 2, row)` on an asymmetric one (OpenCV's layout), times the
///   spacing.
/// - AprilGrid: corner `id` at Kalibr's grid point `(id % (2 * columns), id / (2 * columns))`: x is
///   `(c / 2) * (1 + spacing) * size + (c % 2) * size`, y likewise for the row, up from the bottom.
public struct TargetLayout: Sendable, Hashable {
    /// What the lengths of a layout (and of everything solved from it) are measured in.
    public enum Units: Sendable, Hashable, CustomStringConvertible {
        /// Metres: the pattern states its size with a unit.
        case metres
        /// Squares: a chessboard without a size.
        case squares
        /// The pattern's lengths as written without a unit (only their ratios are known).
        case boardUnits

        /// Whether lengths are physical (metres).
        public var isMetric: Bool { self == .metres }

        /// `metres`, `squares` or `board units`.
        public var description: String {
            switch self {
            case .metres: "metres"
            case .squares: "squares"
            case .boardUnits: "board units"
            }
        }

        /// The units of `pattern`'s layout.
        public init(of pattern: Pattern) {
            if pattern.unit != nil {
                self = .metres
            } else if case .chessboard(let board) = pattern, board.squareLength == 1 {
                self = .squares
            } else {
                self = .boardUnits
            }
        }
    }

    /// The pattern.
    public let pattern: Pattern
    /// What the object points are measured in.
    public var units: Units { Units(of: pattern) }
    /// Metres per unit of the pattern's lengths when it has a unit (the points are then in metres), else 1.
    public var scale: Double { pattern.unit?.metres(1) ?? 1 }

    /// The layout of `pattern`.
    ///
    /// - Throws: ``CalibrationError/patternWithoutLayout(_:)`` for loose markers.
    public init(_ pattern: Pattern) throws(CalibrationError) {
        switch pattern {
        case .aruco, .aprilTag: throw .patternWithoutLayout(pattern.description)
        default: break
        }
        self.pattern = pattern
    }

    /// The points of `detection` whose place on the target is known, in id order.
    public func correspondences(in detection: Detection) -> [CalibrationView.Correspondence] {
        let scale = scale
        switch pattern {
        case .charuco(let board):
            let across = board.columns - 1
            let square = board.squareLength * scale
            return unique(detection.boardCorners.compactMap { corner in
                guard corner.id >= 0, corner.id < board.cornerCount else { return nil }
                let x = Double(corner.id % across + 1) * square
                let y = Double(corner.id / across + 1) * square
                return .init(id: corner.id, object: ObjectPoint(x: x, y: y), image: corner.point)
            })
        case .chessboard(let board):
            let square = board.squareLength * scale
            return unique(detection.boardCorners.compactMap { corner in
                guard corner.id >= 0, corner.id < board.cornerCount else { return nil }
                let object = ObjectPoint(x: Double(corner.id % board.columns) * square, y: Double(corner.id / board.columns) * square)
                return .init(id: corner.id, object: object, image: corner.point)
            })
        case .gridBoard(let board):
            let pitch = (board.markerLength + board.markerSeparation) * scale
            let side = board.markerLength * scale
            let offsets = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
            return unique(detection.markers.flatMap { marker -> [CalibrationView.Correspondence] in
                guard board.markerIDs.contains(marker.id) else { return [] }
                let index = marker.id - board.firstMarker
                let left = Double(index % board.columns) * pitch, top = Double(index / board.columns) * pitch
                return marker.corners.enumerated().map { corner, point in
                    let object = ObjectPoint(
                        x: left + offsets[corner].0 * side, y: top + offsets[corner].1 * side)
                    return .init(id: marker.id * 4 + corner, object: object, image: point)
                }
            })
        case .aprilGrid(let grid):
            let across = 2 * grid.columns
            let size = grid.tagSize * scale
            func place(_ index: Int) -> Double {
                Double(index / 2) * (1 + grid.tagSpacing) * size + Double(index % 2) * size
            }
            return unique(detection.boardCorners.compactMap { corner in
                guard corner.id >= 0, corner.id < grid.cornerCount else { return nil }
                let object = ObjectPoint(x: place(corner.id % across), y: place(corner.id / across))
                return .init(id: corner.id, object: object, image: corner.point)
            })
        case .circleGrid(let grid):
            return unique(detection.boardCorners.compactMap { point in
                guard point.id >= 0, point.id < grid.pointCount else { return nil }
                let (x, y) = grid.position(of: point.id)
                return .init(id: point.id, object: ObjectPoint(x: x * scale, y: y * scale), image: point.point)
            })
        case .aruco, .aprilTag:
            return []
        }
    }

    /// The view of one detection.
    public func view(named name: String, _ detection: Detection) -> CalibrationView {
        CalibrationView(name: name, imageSize: detection.imageSize, points: correspondences(in: detection))
    }

    /// Each id once (the first), in id order.
    private func unique(_ points: [CalibrationView.Correspondence]) -> [CalibrationView.Correspondence] {
        var seen = Set<Int>()
        return points.sorted { $0.id < $1.id }.filter { seen.insert($0.id).inserted }
    }
}
