import Foundation
import MarkerDetection
public import Pixels

/// The pictures of a calibration: where the corners fell (coverage) and how far each was from where
/// the solved camera puts it (residuals), drawn at the image's size scaled to at most 1280 pixels
/// across.
public enum CalibrationPictures {
    /// The largest width drawn.
    static let maximumWidth = 1280.0

    private static func scale(for size: ImageSize) -> Double { min(1, maximumWidth / Double(size.width)) }

    /// The coverage grid: every corner of every used view as a dot, the grid's cells, and cells with
    /// too few corners shaded red; the share covered is written at the top.
    ///
    /// - Throws: ``CalibrationError/openCV(_:)`` when drawing fails.
    public static func coverage(_ report: CalibrationReport) throws(CalibrationError) -> PixelBuffer {
        let size = report.result.imageSize, s = scale(for: size)
        let coverage = report.coverage
        var canvas = Canvas(width: Int((Double(size.width) * s).rounded()), height: Int((Double(size.height) * s).rounded()))
        let cellWidth = Double(canvas.width) / Double(coverage.columns)
        let cellHeight = Double(canvas.height) / Double(coverage.rows)
        for row in 0..<coverage.rows {
            for column in 0..<coverage.columns where !coverage.isCovered(column: column, row: row) {
                canvas.add(.rectangle(
                    from: ImagePoint(x: Double(column) * cellWidth, y: Double(row) * cellHeight),
                    to: ImagePoint(x: Double(column + 1) * cellWidth, y: Double(row + 1) * cellHeight),
                    color: Canvas.Color(red: 255, green: 205, blue: 205), thickness: -1))
            }
        }
        for column in 1..<coverage.columns {
            let x = Double(column) * cellWidth
            canvas.add(.line(from: ImagePoint(x: x, y: 0), to: ImagePoint(x: x, y: Double(canvas.height)),
                             color: .gray, thickness: 1, arrow: false))
        }
        for row in 1..<coverage.rows {
            let y = Double(row) * cellHeight
            canvas.add(.line(from: ImagePoint(x: 0, y: y), to: ImagePoint(x: Double(canvas.width), y: y),
                             color: .gray, thickness: 1, arrow: false))
        }
        for view in report.result.run.views {
            for point in view.view.points {
                canvas.add(.circle(centre: ImagePoint(x: point.image.x * s, y: point.image.y * s), radius: 2,
                                   color: .blue, thickness: -1))
            }
        }
        for row in 0..<coverage.rows {
            for column in 0..<coverage.columns {
                canvas.add(.text("\(coverage.counts[row * coverage.columns + column])",
                                 at: ImagePoint(x: Double(column) * cellWidth + 4, y: Double(row + 1) * cellHeight - 5),
                                 scale: 0.4, color: .black, thickness: 1))
            }
        }
        let percent = Int((coverage.fraction * 100).rounded())
        canvas.add(.text(
            "coverage \(percent)%: red cells have fewer than \(coverage.minimumCorners) corners",
            at: ImagePoint(x: 8, y: 22), scale: 0.6, color: .black, thickness: 2))
        return try canvas.render()
    }

    /// The magnification that draws the 95th percentile residual about a twentieth of the width
    /// long (at most a third of the width, so that the 1-pixel bar fits), rounded down to 1, 2 or 5
    /// times a power of ten (at least 1).
    static func magnification(for residuals: [Double], width: Double) -> Double {
        let sorted = residuals.sorted()
        guard let typical = sorted.isEmpty ? nil : sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.95))],
              typical > 0 else { return 1 }
        let wanted = min(width / 20 / typical, width / 3)
        let power = pow(10, floor(log10(wanted)))
        let step = [5.0, 2.0, 1.0].first { $0 * power <= wanted } ?? 1
        return max(1, step * power)
    }

    /// The residuals: from each detected corner, an arrow to where the solved camera projects it,
    /// magnified (the factor and a 1-pixel scale bar are in the legend).
    ///
    /// - Throws: ``CalibrationError/openCV(_:)`` when drawing fails.
    public static func residuals(_ report: CalibrationReport) throws(CalibrationError) -> PixelBuffer {
        let size = report.result.imageSize, s = scale(for: size)
        var canvas = Canvas(width: Int((Double(size.width) * s).rounded()), height: Int((Double(size.height) * s).rounded()))
        let views = report.result.run.views
        let lengths = views.flatMap { view in zip(view.view.points, view.projected).map { $0.image.distance(to: $1) } }
        let factor = magnification(for: lengths, width: Double(size.width))
        for view in views {
            for (point, projected) in zip(view.view.points, view.projected) {
                let from = ImagePoint(x: point.image.x * s, y: point.image.y * s)
                let to = ImagePoint(
                    x: (point.image.x + (projected.x - point.image.x) * factor) * s,
                    y: (point.image.y + (projected.y - point.image.y) * factor) * s)
                canvas.add(.circle(centre: from, radius: 1.5, color: .blue, thickness: -1))
                canvas.add(.line(from: from, to: to, color: .red, thickness: 1, arrow: true))
            }
        }
        let bar = factor * s
        let y = Double(canvas.height) - 16
        canvas.add(.rectangle(from: ImagePoint(x: 4, y: y - 22), to: ImagePoint(x: 4 + max(bar, 300) + 16, y: y + 10),
                              color: .white, thickness: -1))
        canvas.add(.line(from: ImagePoint(x: 12, y: y), to: ImagePoint(x: 12 + bar, y: y), color: .red, thickness: 2, arrow: false))
        canvas.add(.text(
            "errors x\(Int(factor)): the red bar is 1 px; RMS " + CameraCalibration.format(report.result.run.rms) + " px",
            at: ImagePoint(x: 12, y: y - 8), scale: 0.5, color: .black, thickness: 1))
        return try canvas.render()
    }
}
