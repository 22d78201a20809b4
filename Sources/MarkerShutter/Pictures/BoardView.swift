import Foundation
public import MarkerDetection

/// Where and how a calibration target appears in a frame, each measure scaled to 0...1:
/// its centre across and down the image, its size, and its skew (how far the outline's corners are
/// from right angles). Calibration needs views that cover the image, near and far, and tilted.
public struct BoardView: Sendable, Hashable, CustomStringConvertible {
    /// Centre of the detected points across the image: 0 at the left edge, 1 at the right.
    public var x: Double
    /// Centre down the image: 0 at the top, 1 at the bottom.
    public var y: Double
    /// Square root of the outline's area over the image's area: 1 fills the frame.
    public var size: Double
    /// Mean deviation of the outline's corner angles from 90 degrees, times two, in radians,
    /// capped at 1: 0 for a target seen square on.
    public var skew: Double

    /// Creates a view from its measures.
    public init(x: Double, y: Double, size: Double, skew: Double) {
        self.x = x
        self.y = y
        self.size = size
        self.skew = skew
    }

    /// The view of the points a detection found (board corners, or marker corners when there are
    /// none); `nil` with fewer than four points.
    public init?(_ detection: Detection) {
        let points = detection.boardCorners.isEmpty
            ? detection.markers.flatMap(\.corners)
            : detection.boardCorners.map(\.point)
        let width = Double(detection.imageSize.width), height = Double(detection.imageSize.height)
        guard points.count >= 4, width > 0, height > 0 else { return nil }
        let hull = Self.convexHull(points)
        guard hull.count >= 3 else { return nil }
        let area = Self.area(of: hull)
        let quad = Self.outline(of: hull)
        x = min(1, max(0, points.map(\.x).reduce(0, +) / Double(points.count) / width))
        y = min(1, max(0, points.map(\.y).reduce(0, +) / Double(points.count) / height))
        size = min(1, (area / (width * height)).squareRoot())
        let deviations = (0..<4).map { corner in
            abs(Double.pi / 2 - Self.angle(at: quad[corner], from: quad[(corner + 3) % 4], to: quad[(corner + 1) % 4]))
        }
        skew = min(1, 2 * deviations.reduce(0, +) / 4)
    }

    /// The sum of absolute differences of the four measures.
    package func distance(to other: BoardView) -> Double {
        abs(x - other.x) + abs(y - other.y) + abs(size - other.size) + abs(skew - other.skew)
    }

    public var description: String {
        String(format: "x %.2f y %.2f size %.2f skew %.2f", x, y, size, skew)
    }

    /// The convex hull, counter-clockwise (monotone chain).
    static func convexHull(_ points: [ImagePoint]) -> [ImagePoint] {
        let sorted = points.sorted { ($0.x, $0.y) < ($1.x, $1.y) }
        func cross(_ o: ImagePoint, _ a: ImagePoint, _ b: ImagePoint) -> Double {
            (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
        }
        var lower: [ImagePoint] = [], upper: [ImagePoint] = []
        for point in sorted {
            while lower.count >= 2, cross(lower[lower.count - 2], lower[lower.count - 1], point) <= 0 { lower.removeLast() }
            lower.append(point)
        }
        for point in sorted.reversed() {
            while upper.count >= 2, cross(upper[upper.count - 2], upper[upper.count - 1], point) <= 0 { upper.removeLast() }
            upper.append(point)
        }
        return Array(lower.dropLast() + upper.dropLast())
    }

    static func area(of polygon: [ImagePoint]) -> Double {
        var twice = 0.0
        for (index, point) in polygon.enumerated() {
            let next = polygon[(index + 1) % polygon.count]
            twice += point.x * next.y - next.x * point.y
        }
        return abs(twice) / 2
    }

    /// Four corners of a hull: the points furthest out along the two diagonals, in order around it.
    static func outline(of hull: [ImagePoint]) -> [ImagePoint] {
        [
            hull.min { $0.x + $0.y < $1.x + $1.y }!,  // top left
            hull.max { $0.x - $0.y < $1.x - $1.y }!,  // top right
            hull.max { $0.x + $0.y < $1.x + $1.y }!,  // bottom right
            hull.min { $0.x - $0.y < $1.x - $1.y }!,  // bottom left
        ]
    }

    static func angle(at vertex: ImagePoint, from a: ImagePoint, to b: ImagePoint) -> Double {
        let (ux, uy) = (a.x - vertex.x, a.y - vertex.y), (vx, vy) = (b.x - vertex.x, b.y - vertex.y)
        let lengths = (ux * ux + uy * uy).squareRoot() * (vx * vx + vy * vy).squareRoot()
        guard lengths > 0 else { return .pi / 2 }
        return acos(min(1, max(-1, (ux * vx + uy * vy) / lengths)))
    }
}
