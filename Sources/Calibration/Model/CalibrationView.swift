public import MarkerDetection

/// One picture's worth of calibration data: where known points of the target appeared.
public struct CalibrationView: Sendable, Hashable {
    /// One target point and where it was seen.
    public struct Correspondence: Sendable, Hashable {
        /// The point's id on its target (a board corner id, or marker id x 4 + corner).
        public var id: Int
        /// Where the point is on the target (z = 0).
        public var object: ObjectPoint
        /// Where it was seen.
        public var image: ImagePoint

        /// Makes a correspondence.
        public init(id: Int, object: ObjectPoint, image: ImagePoint) {
            self.id = id
            self.object = object
            self.image = image
        }
    }

    /// The picture's name (its file name).
    public var name: String
    /// The picture's size.
    public var imageSize: ImageSize
    /// The points seen, each once.
    public var points: [Correspondence]

    /// Makes a view.
    public init(name: String, imageSize: ImageSize, points: [Correspondence]) {
        self.name = name
        self.imageSize = imageSize
        self.points = points
    }

    /// Why the view cannot take part in a solve, or `nil` when it can: too few points, or points on
    /// one line of the target (a line says nothing about a plane's tilt).
    public var unusableReason: String? {
        if points.count < Self.minimumPoints {
            return "only \(points.count) corner\(points.count == 1 ? "" : "s") (\(Self.minimumPoints) needed)"
        }
        if Self.isCollinear(points.map(\.object)) { return "its corners lie on one line" }
        return nil
    }

    /// The fewest points a view needs: a homography needs 4, and 6 keep a view from being decided by
    /// its noise alone.
    public static let minimumPoints = 6

    /// Whether the points lie on one line: the smaller spread of the points (the smaller eigenvalue
    /// of their covariance) is under a thousandth of the larger.
    static func isCollinear(_ points: [ObjectPoint]) -> Bool {
        let count = Double(points.count)
        let mx = points.map(\.x).reduce(0, +) / count, my = points.map(\.y).reduce(0, +) / count
        var sxx = 0.0, syy = 0.0, sxy = 0.0
        for point in points {
            sxx += (point.x - mx) * (point.x - mx)
            syy += (point.y - my) * (point.y - my)
            sxy += (point.x - mx) * (point.y - my)
        }
        let trace = sxx + syy, determinant = sxx * syy - sxy * sxy
        let root = max(0, trace * trace / 4 - determinant).squareRoot()
        let larger = trace / 2 + root, smaller = trace / 2 - root
        return larger <= 0 || smaller <= larger * 1e-3
    }
}
