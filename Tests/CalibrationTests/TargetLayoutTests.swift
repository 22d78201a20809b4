import Calibration
import MarkerDetection
import Testing

/// Where each detected id lies on its target.
@Suite struct TargetLayoutTests {
    static func detection(corners: [(Int, Double, Double)] = [], markers: [Marker] = []) -> Detection {
        Detection(
            imageSize: ImageSize(width: 640, height: 480), markers: markers,
            boardCorners: corners.map { BoardCorner(id: $0.0, point: ImagePoint(x: $0.1, y: $0.2)) }, sharpness: nil,
            duration: .zero)
    }

    @Test func charucoCornersAreInnerCornersInSquares() throws {
        let layout = try TargetLayout(Pattern(parsing: "charuco:5x7:DICT_6X6_250"))
        // 5 squares across: 4 inner corners per row; id 5 is the second row's second corner.
        let points = layout.correspondences(in: Self.detection(corners: [(5, 10, 20), (0, 1, 2), (23, 3, 4), (24, 5, 6)]))
        #expect(points.map(\.id) == [0, 5, 23])  // 24 is not on a 5x7 board
        #expect(points.map(\.object) == [
            ObjectPoint(x: 0.04, y: 0.04), ObjectPoint(x: 0.08, y: 0.08), ObjectPoint(x: 0.16, y: 0.24),
        ])
        #expect(points[1].image == ImagePoint(x: 10, y: 20))
    }

    @Test func chessboardCornersAreCountedRowByRow() throws {
        let layout = try TargetLayout(Pattern(parsing: "chessboard:9x6"))
        let points = layout.correspondences(in: Self.detection(corners: [(10, 0, 0), (53, 0, 0), (10, 9, 9)]))
        #expect(points.map(\.object) == [ObjectPoint(x: 1, y: 1), ObjectPoint(x: 8, y: 5)])  // a repeated id counts once
    }

    @Test func gridBoardMarkersGiveFourCornersEach() throws {
        let layout = try TargetLayout(Pattern(parsing: "gridboard:5x7:DICT_6X6_250:first=10"))
        let corners = [ImagePoint(x: 0, y: 0), ImagePoint(x: 1, y: 0), ImagePoint(x: 1, y: 1), ImagePoint(x: 0, y: 1)]
        let points = layout.correspondences(in: Self.detection(markers: [
            Marker(id: 16, corners: corners), Marker(id: 3, corners: corners),
        ]))
        // Marker 16 is the board's seventh: row 1, column 1, each a marker (0.04) plus a gap (0.01) apart.
        #expect(points.map(\.id) == [64, 65, 66, 67])
        let objects = points.map(\.object)
        let expected = [(0.05, 0.05), (0.09, 0.05), (0.09, 0.09), (0.05, 0.09)]
        for (object, (x, y)) in zip(objects, expected) {
            #expect(abs(object.x - x) < 1e-12 && abs(object.y - y) < 1e-12)
        }
    }

    /// Kalibr's point ordering: two rows and two columns of corners per tag, from the bottom-left.
    @Test func aprilGridCornersAreKalibrsGridPoints() throws {
        let layout = try TargetLayout(Pattern(parsing: "aprilgrid:2x2:tag36h11:size=0.1,spacing=0.5"))
        let points = layout.correspondences(in: Self.detection(corners: [(0, 0, 0), (7, 0, 0), (13, 0, 0), (16, 0, 0)]))
        #expect(points.map(\.id) == [0, 7, 13])  // 16 is beyond 2x2 tags' 16 corners
        let expected = [(0.0, 0.0), (0.25, 0.1), (0.1, 0.25)]
        for (object, (x, y)) in zip(points.map(\.object), expected) {
            #expect(abs(object.x - x) < 1e-12 && abs(object.y - y) < 1e-12, "\(object) is not (\(x), \(y))")
        }
    }

    /// The ids the AprilGrid detector reports on a grid the board command draws land where the
    /// layout puts them: one scale and offset (y flipped: the layout counts up from the bottom, as
    /// Kalibr does) carries every object point onto its detected corner, to within the drawing's
    /// rounding of the gaps to whole pixels.
    @Test func aprilGridLayoutIsTheDetectedGridToScale() throws {
        let grid = AprilGrid(columns: 4, rows: 3, tagSize: 0.05, tagSpacing: 0.3, firstTag: 7)
        let pattern = Pattern.aprilGrid(grid)
        let board = try PrintableTarget.render(pattern, width: 1000, height: 800)
        let points = try TargetLayout(pattern).correspondences(in: MarkerDetector(pattern: pattern).detect(board))
        #expect(points.count == grid.cornerCount)
        let first = try #require(points.first), last = try #require(points.last)
        #expect(first.object == ObjectPoint(x: 0, y: 0) && first.image.x < last.image.x && first.image.y > last.image.y)
        let scale = (last.image.x - first.image.x) / last.object.x
        #expect(abs((first.image.y - last.image.y) / last.object.y / scale - 1) < 0.01, "the same scale both ways")
        for point in points {
            let x = first.image.x + scale * point.object.x, y = first.image.y - scale * point.object.y
            #expect(abs(x - point.image.x) < 1 && abs(y - point.image.y) < 1, "corner \(point.id) at \(point.image), laid out at (\(x), \(y))")
        }
    }

    @Test(arguments: ["aruco:DICT_6X6_250", "apriltag:tag36h11"])
    func looseMarkersHaveNoLayout(pattern: String) throws {
        #expect(throws: CalibrationError.patternWithoutLayout(pattern)) {
            try TargetLayout(Pattern(parsing: pattern))
        }
        #expect(CalibrationError.patternWithoutLayout(pattern).description == "pattern \(pattern) is loose markers, "
            + "whose places on the target are unknown; calibration needs a board: charuco, chessboard, gridboard or aprilgrid")
    }

    @Test func viewsWithFewOrCollinearPointsAreUnusable() throws {
        let layout = try TargetLayout(Pattern(parsing: "chessboard:9x6"))
        let row = layout.view(named: "row", Self.detection(corners: (0..<9).map { ($0, Double($0) * 10, 5) }))
        #expect(row.unusableReason == "its corners lie on one line")
        let few = layout.view(named: "few", Self.detection(corners: [(0, 0, 0), (1, 1, 0), (9, 0, 1)]))
        #expect(few.unusableReason == "only 3 corners (6 needed)")
        let good = layout.view(named: "good", Self.detection(corners: [0, 1, 2, 9, 10, 11].map { ($0, Double($0), 1) }))
        #expect(good.unusableReason == nil)
    }
}
