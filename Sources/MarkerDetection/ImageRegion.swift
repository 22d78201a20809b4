/// A rectangle of an image in whole pixels: the part ``MarkerDetector/detect(_:within:)`` searches.
public struct ImageRegion: Sendable, Hashable, CustomStringConvertible {
    /// The leftmost column.
    public var x: Int
    /// The top row.
    public var y: Int
    /// Columns across (at least 1).
    public var width: Int
    /// Rows down (at least 1).
    public var height: Int

    /// Makes a region; `width` and `height` must be at least 1.
    public init(x: Int, y: Int, width: Int, height: Int) {
        precondition(width >= 1 && height >= 1, "an image region needs a size, not \(width)x\(height)")
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The smallest region holding every marker corner and board corner of `detection`, grown on
    /// every side by `margin` times its larger side, and clipped to the image; `nil` when the
    /// detection found nothing.
    public init?(around detection: Detection, margin: Double) {
        let points = detection.markers.flatMap(\.corners) + detection.boardCorners.map(\.point)
        guard let first = points.first else { return nil }
        var (left, right, top, bottom) = (first.x, first.x, first.y, first.y)
        for point in points {
            left = min(left, point.x)
            right = max(right, point.x)
            top = min(top, point.y)
            bottom = max(bottom, point.y)
        }
        let grow = margin * max(right - left, bottom - top)
        let x0 = max(0, Int((left - grow).rounded(.down)))
        let y0 = max(0, Int((top - grow).rounded(.down)))
        let x1 = min(detection.imageSize.width, Int((right + grow).rounded(.up)) + 1)
        let y1 = min(detection.imageSize.height, Int((bottom + grow).rounded(.up)) + 1)
        guard x1 > x0, y1 > y0 else { return nil }
        self.init(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Whether the region is the whole of an image of `size`.
    public func covers(_ size: ImageSize) -> Bool { x <= 0 && y <= 0 && x + width >= size.width && y + height >= size.height }

    /// `WIDTHxHEIGHT+X+Y`.
    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}
