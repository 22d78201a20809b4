import Calibration
import MarkerDetection
import Testing

/// Where corners fell, on the 8x6 grid the summary, the advice and coverage.png use.
@Suite struct CornerCoverageTests {
    static let size = ImageSize(width: 640, height: 480)

    @Test func pointsFallInTheCellsOfAnEightBySixGrid() {
        let coverage = CornerCoverage(imageSize: Self.size)
        #expect(coverage.columns == 8 && coverage.rows == 6 && coverage.minimumCorners == 3)
        #expect(coverage.cell(of: ImagePoint(x: 0, y: 0)).map { [$0.column, $0.row] } == [0, 0])
        #expect(coverage.cell(of: ImagePoint(x: 79, y: 79)).map { [$0.column, $0.row] } == [0, 0])
        #expect(coverage.cell(of: ImagePoint(x: 80, y: 80)).map { [$0.column, $0.row] } == [1, 1])
        #expect(coverage.cell(of: ImagePoint(x: 639, y: 479)).map { [$0.column, $0.row] } == [7, 5])
        // Pixel centres are at whole numbers: the image ends half a pixel past the last one.
        #expect(coverage.cell(of: ImagePoint(x: -0.6, y: 10)) == nil)
        #expect(coverage.cell(of: ImagePoint(x: 10, y: 479.5)) == nil)
    }

    @Test func aCellIsCoveredFromThreeCorners() {
        var coverage = CornerCoverage(imageSize: Self.size)
        coverage.add([ImagePoint(x: 10, y: 10), ImagePoint(x: 20, y: 20)])
        #expect(!coverage.isCovered(column: 0, row: 0))
        coverage.add([ImagePoint(x: 30, y: 30), ImagePoint(x: 700, y: 30)])  // the last is outside
        #expect(coverage.isCovered(column: 0, row: 0))
        #expect(coverage.counts.reduce(0, +) == 3)
        #expect(coverage.fraction == 1.0 / 48)
    }

    /// A third is empty when no corner falls in a cell whose centre lies in it: the left third is
    /// the first three columns (up to x = 240), the top third the first two rows (up to y = 160).
    @Test func emptyThirdsAreNamed() {
        var coverage = CornerCoverage(imageSize: Self.size)
        #expect(coverage.emptyThirds == ["left", "right", "top", "bottom"])
        coverage.add([ImagePoint(x: 250, y: 170), ImagePoint(x: 390, y: 310)])
        #expect(coverage.emptyThirds == ["left", "right", "top", "bottom"])
        coverage.add([ImagePoint(x: 239, y: 159)])
        #expect(coverage.emptyThirds == ["right", "bottom"])
        coverage.add([ImagePoint(x: 400, y: 320)])
        #expect(coverage.emptyThirds.isEmpty)
    }
}
