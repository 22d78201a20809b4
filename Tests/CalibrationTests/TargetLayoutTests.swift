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

    /// The ids the detector reports on a target the board command draws land where the layout puts
    /// them: one scale and offset per axis carries every object point onto its detected corner, to
    /// within the drawing's rounding to whole pixels. The layout's y runs down the printed target,
    /// except on an AprilGrid, whose points count up from the bottom as Kalibr's do (`down` false).
    @Test(arguments: [
        ("charuco:5x7:DICT_6X6_250", 24, true), ("gridboard:5x7:DICT_6X6_250:first=10", 140, true),
        ("aprilgrid:4x3:tag36h11:size=0.05,spacing=0.3,first=7", 48, false),
    ])
    func layoutIsTheDetectedTargetToScale(pattern text: String, corners: Int, down: Bool) throws {
        let pattern = try Pattern(parsing: text)
        let board = try PrintableTarget.render(pattern, width: 1000, height: 800)
        let points = try TargetLayout(pattern).correspondences(in: MarkerDetector(pattern: pattern).detect(board))
        #expect(points.count == corners)
        /// The least-squares line `pixel = offset + scale * object` of one axis, and its largest miss.
        func fit(_ object: [Double], _ pixel: [Double]) -> (scale: Double, miss: Double) {
            let n = Double(object.count)
            let mo: Double = object.reduce(0, +) / n, mp: Double = pixel.reduce(0, +) / n
            var covariance = 0.0, variance = 0.0
            for (o, p) in zip(object, pixel) {
                covariance += (o - mo) * (p - mp)
                variance += (o - mo) * (o - mo)
            }
            let scale = covariance / variance
            var miss = 0.0
            for (o, p) in zip(object, pixel) { miss = max(miss, abs(mp + scale * (o - mo) - p)) }
            return (scale, miss)
        }
        let x = fit(points.map(\.object.x), points.map(\.image.x))
        let y = fit(points.map(\.object.y), points.map(\.image.y))
        #expect(x.scale > 0 && (y.scale > 0) == down, "scales \(x.scale), \(y.scale)")
        #expect(abs(abs(y.scale) / x.scale - 1) < 0.01, "the same scale both ways: \(x.scale), \(y.scale)")
        #expect(x.miss < 1 && y.miss < 1, "largest misses \(x.miss), \(y.miss) px")
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
