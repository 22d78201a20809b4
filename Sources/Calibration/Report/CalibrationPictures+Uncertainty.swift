import Foundation
import MarkerDetection
public import Pixels

extension CalibrationPictures {
    /// The contour levels of the uncertainty picture, in pixels.
    static let uncertaintyLevels = [0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100]

    /// The fill of the band between two levels, from green (under the first) to red (over the last).
    private static func bandColor(_ value: Double) -> Canvas.Color {
        guard value.isFinite else { return Canvas.Color(red: 200, green: 200, blue: 200) }
        let band = uncertaintyLevels.firstIndex { value < $0 } ?? uncertaintyLevels.count
        let t = Double(band) / Double(uncertaintyLevels.count)
        return Canvas.Color(
            red: UInt8(min(255, 150 + 105 * min(1, 2 * t))), green: UInt8(max(150, 255 - 105 * max(0, 2 * t - 1))), blue: 150)
    }

    /// The projection-uncertainty map: the bands between contour levels filled from green to red,
    /// the contours (at 0.1, 0.2, 0.5, 1, 2, 5... px) drawn and labelled, every corner of every used
    /// view as a dot, and the figures at the top.
    ///
    /// - Throws: ``CalibrationError/openCV(_:)`` when drawing fails.
    public static func uncertainty(_ report: CalibrationReport) throws(CalibrationError) -> PixelBuffer {
        let size = report.result.imageSize
        guard let map = report.uncertainty else {
            let s = min(1, maximumWidth / Double(size.width))
            var canvas = Canvas(width: Int((Double(size.width) * s).rounded()), height: Int((Double(size.height) * s).rounded()))
            canvas.add(.text(
                "no uncertainty map: this solve has no covariance over the views' poses", at: ImagePoint(x: 8, y: 22),
                scale: 0.6, color: .black, thickness: 2))
            return try canvas.render()
        }
        let worst = map.worstCorner
        return try contours(
            map, points: report.result.run.views.flatMap { $0.view.points.map(\.image) },
            title: "uncertainty (px): centre " + ProjectionWording.pixels(map.centre) + ", " + worst.name + " "
                + ProjectionWording.pixels(worst.value) + ", \(Int((map.share() * 100).rounded()))% under 0.5")
    }

    /// The projection difference of two calibrations, drawn as ``uncertainty(_:)`` draws a map
    /// (without corners), with its figures at the top.
    ///
    /// - Throws: ``CalibrationError/openCV(_:)`` when drawing fails.
    public static func difference(_ comparison: CalibrationComparison) throws(CalibrationError) -> PixelBuffer {
        let d = comparison.difference
        return try contours(
            d.asMap, points: [],
            title: "difference (px): mean " + ProjectionWording.pixels(d.mean) + ", 95% "
                + ProjectionWording.pixels(d.percentile95) + ", centre " + ProjectionWording.pixels(d.centre))
    }

    /// `map` drawn: bands between the contour levels, the contours labelled, `points` as dots, `title`.
    static func contours(_ map: UncertaintyMap, points: [ImagePoint], title: String) throws(CalibrationError) -> PixelBuffer {
        let size = map.imageSize, s = min(1, maximumWidth / Double(size.width))
        var canvas = Canvas(width: Int((Double(size.width) * s).rounded()), height: Int((Double(size.height) * s).rounded()))
        func scaled(_ point: ImagePoint) -> ImagePoint { ImagePoint(x: point.x * s, y: point.y * s) }
        for row in 0..<(map.rows - 1) {
            for column in 0..<(map.columns - 1) {
                let mean = (map.value(column: column, row: row) + map.value(column: column + 1, row: row)
                    + map.value(column: column, row: row + 1) + map.value(column: column + 1, row: row + 1)) / 4
                canvas.add(.rectangle(
                    from: scaled(map.position(column: column, row: row)), to: scaled(map.position(column: column + 1, row: row + 1)),
                    color: bandColor(mean), thickness: -1))
            }
        }
        for point in points { canvas.add(.circle(centre: scaled(point), radius: 1.5, color: .blue, thickness: -1)) }
        // Each contour is labelled where it comes nearest the image's middle row, clear of the title.
        let middle = Double(size.height) / 2
        for level in uncertaintyLevels {
            let segments = contour(map, level: level)
            for segment in segments {
                canvas.add(.line(from: scaled(segment.0), to: scaled(segment.1), color: .black, thickness: 1, arrow: false))
            }
            if let label = segments.min(by: { abs($0.0.y - middle) < abs($1.0.y - middle) }) {
                canvas.add(.text(ProjectionWording.pixels(level), at: scaled(label.0), scale: 0.45, color: .black, thickness: 1))
            }
        }
        canvas.add(.rectangle(from: ImagePoint(x: 0, y: 0), to: ImagePoint(x: Double(canvas.width), y: 32), color: .white, thickness: -1))
        canvas.add(.text(title, at: ImagePoint(x: 8, y: 22), scale: 0.5, color: .black, thickness: 1))
        return try canvas.render()
    }

    /// The segments where `map` crosses `level` (marching squares over the grid, each crossing placed
    /// by linear interpolation along the cell's edge).
    static func contour(_ map: UncertaintyMap, level: Double) -> [(ImagePoint, ImagePoint)] {
        var segments: [(ImagePoint, ImagePoint)] = []
        for row in 0..<(map.rows - 1) {
            for column in 0..<(map.columns - 1) {
                let corners = [(column, row), (column + 1, row), (column + 1, row + 1), (column, row + 1)]
                let values = corners.map { map.value(column: $0.0, row: $0.1) }
                guard values.allSatisfy(\.isFinite) else { continue }
                var crossings: [ImagePoint] = []
                for edge in 0..<4 {
                    let a = edge, b = (edge + 1) % 4
                    guard (values[a] < level) != (values[b] < level) else { continue }
                    let t = (level - values[a]) / (values[b] - values[a])
                    let pa = map.position(column: corners[a].0, row: corners[a].1)
                    let pb = map.position(column: corners[b].0, row: corners[b].1)
                    crossings.append(ImagePoint(x: pa.x + (pb.x - pa.x) * t, y: pa.y + (pb.y - pa.y) * t))
                }
                if crossings.count >= 2 { segments.append((crossings[0], crossings[1])) }
                if crossings.count == 4 { segments.append((crossings[2], crossings[3])) }
            }
        }
        return segments
    }
}
