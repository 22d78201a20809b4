import MarkerDetection
import MarkerDetectionTestSupport
import Pixels
import Testing

/// Circle grids, symmetric and OpenCV's asymmetric one: their pattern strings, their drawing, and
/// their detection against the drawing's own geometry.
@Suite struct CircleGridTests {
    @Test func patternStringsParseAndPrintBack() throws {
        #expect(try Pattern(parsing: "circles:7x6") == .circleGrid(CircleGrid(columns: 7, rows: 6, asymmetric: false)))
        #expect(try Pattern(parsing: "ACIRCLES:4x11:spacing=0.02")
            == .circleGrid(CircleGrid(columns: 4, rows: 11, asymmetric: true, spacing: 0.02)))
        for text in ["circles:7x6", "acircles:4x11", "acircles:4x11:spacing=0.02"] {
            #expect(try Pattern(parsing: text).description == text)
        }
        #expect(throws: PatternSyntaxError.self) { try Pattern(parsing: "circles:1x6") }
        #expect(throws: PatternSyntaxError.self) { try Pattern(parsing: "acircles:4x11:gap=1") }
        #expect(throws: PatternSyntaxError.self) { try Pattern(parsing: "circles:4x4:spacing=0") }
    }

    /// OpenCV's calibration sample lays out `acircles` points at ((2 column + row % 2), row) spacings.
    @Test func positionsFollowOpenCVsLayout() {
        let grid = CircleGrid(columns: 4, rows: 11, asymmetric: true, spacing: 2)
        #expect(grid.position(of: 0) == (0, 0))
        #expect(grid.position(of: 3) == (12, 0))
        #expect(grid.position(of: 4) == (2, 2))
        #expect(grid.position(of: 43) == (12, 20))
        let square = CircleGrid(columns: 7, rows: 6, asymmetric: false)
        #expect(square.position(of: 8) == (1, 1))
    }

    /// Where the board drawn by `PrintableTarget.render` puts point `id` of `grid` (the shim draws
    /// the grid centred, a whole number of pixels a spacing, a spacing of white around it).
    static func drawnCentre(of id: Int, _ grid: CircleGrid, width: Int, height: Int, margin: Int) -> ImagePoint {
        let across = grid.asymmetric ? 2 * grid.columns - 1 : grid.columns - 1
        let down = grid.rows - 1
        let spacing = min((width - 2 * margin) / (across + 2), (height - 2 * margin) / (down + 2))
        let (x, y) = CircleGrid(columns: grid.columns, rows: grid.rows, asymmetric: grid.asymmetric, spacing: 1).position(of: id)
        return ImagePoint(x: Double((width - across * spacing) / 2) + x * Double(spacing),
                          y: Double((height - down * spacing) / 2) + y * Double(spacing))
    }

    /// Drawn boards seen at a slant through a pinhole: every point found, numbered in OpenCV's order,
    /// within 0.4 pixel of where the drawing's centre lands (a circle's image is an ellipse whose
    /// centre lies off the image of the circle's centre: up to 0.3 px for these circles 40 to 60 px
    /// across at this slant).
    @Test(arguments: ["acircles:4x11", "circles:7x6", "circles:9x4"], DetectionMode.allCases)
    func slantedViewsAreFoundWithEveryPointInPlace(text: String, mode: DetectionMode) throws {
        let pattern = try Pattern(parsing: text)
        guard case .circleGrid(let grid) = pattern else { Issue.record("not a circle grid"); return }
        let (width, height, margin) = (1100, 1400, 40)
        let board = try PrintableTarget.render(pattern, width: width, height: height, margin: margin)
        let homography = Homography.camera(
            sourceWidth: width, sourceHeight: height, targetWidth: 1280, targetHeight: 960, tiltX: 25, tiltY: -30,
            distance: 1.7, focal: 1200)
        let image = try SyntheticImage.addNoise(
            SyntheticImage.blur(SyntheticImage.warp(board, by: homography, width: 1280, height: 960, background: 90), sigma: 0.8),
            sigma: 2, seed: 5)
        let detection = try MarkerDetector(pattern: pattern, mode: mode).detect(image)
        #expect(detection.boardCorners.map(\.id) == Array(0..<grid.pointCount))
        var worst = 0.0
        for corner in detection.boardCorners {
            let drawn = Self.drawnCentre(of: corner.id, grid, width: width, height: height, margin: margin)
            let (x, y) = homography.apply(x: drawn.x, y: drawn.y)
            worst = max(worst, corner.point.distance(to: ImagePoint(x: x, y: y)))
        }
        #expect(worst < 0.4, "\(text): a point is \(worst) px from its circle's centre")
        #expect(detection.isValid(under: ValidityRule(defaultsFor: pattern)))
    }

    /// OpenCV finds a symmetric grid only with its rows along the image's rows; turned a quarter it
    /// is still found, its points numbered as the board's own rows and columns (up to the half turn
    /// a symmetric board cannot tell), never mirrored.
    @Test func aSymmetricGridTurnedAQuarterIsNumberedAsTheBoard() throws {
        let pattern = try Pattern(parsing: "circles:7x4")
        guard case .circleGrid(let grid) = pattern else { return }
        let (width, height, margin) = (900, 600, 30)
        let board = try PrintableTarget.render(pattern, width: width, height: height, margin: margin)
        // A quarter turn: board pixel (x, y) to image pixel (height - 1 - y, x).
        let turn = Homography([0, -1, Double(height - 1), 1, 0, 0, 0, 0, 1])
        let image = try SyntheticImage.warp(board, by: turn, width: height, height: width, background: 255)
        let detection = try MarkerDetector(pattern: pattern).detect(image)
        #expect(detection.boardCorners.count == grid.pointCount)
        func error(halfTurned: Bool) -> Double {
            detection.boardCorners.map { corner in
                let id = halfTurned ? grid.pointCount - 1 - corner.id : corner.id
                let drawn = Self.drawnCentre(of: id, grid, width: width, height: height, margin: margin)
                let (x, y) = turn.apply(x: drawn.x, y: drawn.y)
                return corner.point.distance(to: ImagePoint(x: x, y: y))
            }.max() ?? .infinity
        }
        #expect(min(error(halfTurned: false), error(halfTurned: true)) < 0.3)
    }
}
