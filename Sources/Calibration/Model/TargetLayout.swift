public import MarkerDetection

/// Where each detectable point lies on a calibration target, in the pattern's own length unit, so
/// that detections become ``CalibrationView``s. Partial views count: every detected point with a
/// known id is used.
///
/// - ChArUco: corner `id` is inner corner `(id % (columns - 1) + 1, id / (columns - 1) + 1)` in
///   squares, as OpenCV numbers them.
/// - Chessboard: corner `id` is `(id % columns, id / columns)` squares (the square side is 1).
/// - Grid board: each marker's four corners (clockwise from its top-left), marker `first + i` in
///   row `i / columns`, column `i % columns`, a marker plus a gap apart.
/// - Circle grid: point `id` at ``CircleGrid/position(of:)``: `(column, row)` spacings on a
///   symmetric grid, `(2 column + row % 2, row)` on an asymmetric one (OpenCV's layout).
/// - AprilGrid: corner `id` at Kalibr's grid point `(id % (2 * columns), id / (2 * columns))`: x is
///   `(c / 2) * (1 + spacing) * size + (c % 2) * size`, y likewise for the row, up from the bottom.
public struct TargetLayout: Sendable, Hashable {
    /// The pattern.
    public let pattern: Pattern

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
        switch pattern {
        case .charuco(let board):
            let across = board.columns - 1
            return unique(detection.boardCorners.compactMap { corner in
                guard corner.id >= 0, corner.id < board.cornerCount else { return nil }
                let x = Double(corner.id % across + 1) * board.squareLength
                let y = Double(corner.id / across + 1) * board.squareLength
                return .init(id: corner.id, object: ObjectPoint(x: x, y: y), image: corner.point)
            })
        case .chessboard(let board):
            return unique(detection.boardCorners.compactMap { corner in
                guard corner.id >= 0, corner.id < board.cornerCount else { return nil }
                let object = ObjectPoint(x: Double(corner.id % board.columns), y: Double(corner.id / board.columns))
                return .init(id: corner.id, object: object, image: corner.point)
            })
        case .gridBoard(let board):
            let pitch = board.markerLength + board.markerSeparation
            let offsets = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
            return unique(detection.markers.flatMap { marker -> [CalibrationView.Correspondence] in
                guard board.markerIDs.contains(marker.id) else { return [] }
                let index = marker.id - board.firstMarker
                let left = Double(index % board.columns) * pitch, top = Double(index / board.columns) * pitch
                return marker.corners.enumerated().map { corner, point in
                    let object = ObjectPoint(
                        x: left + offsets[corner].0 * board.markerLength, y: top + offsets[corner].1 * board.markerLength)
                    return .init(id: marker.id * 4 + corner, object: object, image: point)
                }
            })
        case .aprilGrid(let grid):
            let across = 2 * grid.columns
            func place(_ index: Int) -> Double {
                Double(index / 2) * (1 + grid.tagSpacing) * grid.tagSize + Double(index % 2) * grid.tagSize
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
                return .init(id: point.id, object: ObjectPoint(x: x, y: y), image: point.point)
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
