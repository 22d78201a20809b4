@testable import Calibration
import MarkerDetection
import Pixels
import Testing

/// coverage.png and residuals.png, read back pixel by pixel.
@Suite struct CalibrationPicturesTests {
    /// A calibration whose corners stay right of x = 240, so the left three columns are uncovered.
    static func report() throws -> CalibrationReport {
        let views = try SyntheticViews.projected(
            camera: SyntheticCalibrationTests.pinhole, columns: 12, rows: 9, noise: 0.3, seed: 31
        ).map { view in
            var right = view
            right.points = view.points.filter { $0.image.x >= 240 }
            return right
        }.filter { $0.points.count >= 6 }
        return CalibrationReport(result: try CameraCalibration.calibrate(views, model: .pinhole), pattern: "chessboard:12x9")
    }

    /// The pixel at (x, y) of a BGR24 picture, as (red, green, blue).
    static func rgb(_ image: PixelBuffer, _ x: Int, _ y: Int) -> [UInt8] {
        let row = image.row(y)
        return [row[3 * x + 2], row[3 * x + 1], row[3 * x]]
    }

    @Test func coverageShadesTheCellsWithTooFewCorners() throws {
        let report = try Self.report()
        let image = try CalibrationPictures.coverage(report)
        #expect(image.width == 640 && image.height == 480 && image.format == .bgr24)
        let coverage = report.coverage
        var checked = (covered: 0, uncovered: 0)
        // Each cell's centre, which no grid line, count or heading reaches; a corner's dot may.
        for row in 1..<coverage.rows {
            for column in 0..<coverage.columns {
                let pixel = Self.rgb(image, column * 80 + 40, row * 80 + 40)
                if coverage.isCovered(column: column, row: row) {
                    checked.covered += 1
                    #expect(pixel != [255, 205, 205], "covered cell \(column), \(row) is shaded")
                } else {
                    checked.uncovered += 1
                    #expect(pixel == [255, 205, 205], "uncovered cell \(column), \(row) is \(pixel)")
                }
            }
        }
        #expect(checked.uncovered >= 15 && checked.covered >= 15, "\(checked)")
        #expect(!coverage.isCovered(column: 0, row: 3) && coverage.isCovered(column: 5, row: 3))
    }

    /// The legend's red bar is one pixel of error at the picture's magnification.
    @Test func residualsLegendHasAOnePixelBarAtTheMagnification() throws {
        let report = try Self.report()
        let image = try CalibrationPictures.residuals(report)
        let lengths = report.result.run.views.flatMap { view in
            zip(view.view.points, view.projected).map { $0.image.distance(to: $1) }
        }
        let factor = CalibrationPictures.magnification(for: lengths, width: 640)
        #expect(factor >= 10, "a 0.3 px error magnified \(factor) times")
        let y = image.height - 16
        let bar = (0..<image.width).filter { Self.rgb(image, $0, y) == [220, 30, 30] }
        let first = try #require(bar.first), last = try #require(bar.last)
        #expect(first <= 13 && Double(last - first) >= factor - 3 && Double(last - first) <= factor + 3,
                "bar from \(first) to \(last), magnification \(factor)")
        #expect(bar.count == last - first + 1, "the bar is one piece")
    }

    /// 1, 2 or 5 times a power of ten that draws the 95th percentile residual about a twentieth of
    /// the width long.
    @Test func magnificationIsARoundNumber() {
        #expect(CalibrationPictures.magnification(for: Array(repeating: 0.3, count: 100), width: 640) == 100)
        #expect(CalibrationPictures.magnification(for: Array(repeating: 0.1, count: 100), width: 640) == 200)
        #expect(CalibrationPictures.magnification(for: Array(repeating: 2, count: 100), width: 1280) == 20)
        #expect(CalibrationPictures.magnification(for: Array(repeating: 50, count: 100), width: 640) == 1)
        #expect(CalibrationPictures.magnification(for: [], width: 640) == 1)
    }
}
