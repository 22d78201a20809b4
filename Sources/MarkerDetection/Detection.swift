/// A position in an image, in pixels: x to the right, y down, the centre of the top-left pixel at
/// (0, 0), as OpenCV reports positions.
public struct ImagePoint: Sendable, Hashable, CustomStringConvertible {
    /// Pixels from the left.
    public var x: Double
    /// Pixels from the top.
    public var y: Double

    /// Makes a point.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The straight-line distance to `other`, in pixels.
    public func distance(to other: ImagePoint) -> Double {
        ((x - other.x) * (x - other.x) + (y - other.y) * (y - other.y)).squareRoot()
    }

    /// `(x, y)`.
    public var description: String { "(\(x), \(y))" }
}

/// Width and height in pixels.
public struct ImageSize: Sendable, Hashable, CustomStringConvertible {
    /// Pixels across.
    public var width: Int
    /// Pixels down.
    public var height: Int

    /// Makes a size.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// `WIDTHxHEIGHT`.
    public var description: String { "\(width)x\(height)" }
}

/// One detected ArUco or AprilTag marker.
public struct Marker: Sendable, Hashable {
    /// The marker's id in its dictionary.
    public var id: Int
    /// The four outer corners in OpenCV's order: clockwise, starting at the marker's own top-left
    /// corner (whichever way the marker is turned in the image).
    public var corners: [ImagePoint]

    /// Makes a marker.
    ///
    /// - Parameters:
    ///   - id: The marker's id.
    ///   - corners: Exactly four corners, in OpenCV's order.
    public init(id: Int, corners: [ImagePoint]) {
        precondition(corners.count == 4, "a marker has 4 corners, not \(corners.count)")
        self.id = id
        self.corners = corners
    }

    /// The mean of the four corners.
    public var centre: ImagePoint {
        ImagePoint(x: corners.map(\.x).reduce(0, +) / 4, y: corners.map(\.y).reduce(0, +) / 4)
    }
}

/// One detected board corner: a ChArUco or chessboard inner corner or an AprilGrid tag corner,
/// refined to sub-pixel precision.
public struct BoardCorner: Sendable, Hashable {
    /// The corner's id on its board, numbered row by row.
    public var id: Int
    /// Where the corner is in the image.
    public var point: ImagePoint

    /// Makes a board corner.
    public init(id: Int, point: ImagePoint) {
        self.id = id
        self.point = point
    }
}

/// What one detection found in one image.
///
/// A value: it can be kept, compared and sent between threads. Two detections are equal when every
/// field is, including ``duration``, so two runs over the same image usually differ only there.
public struct Detection: Sendable, Equatable {
    /// The size of the image the detection looked at.
    public var imageSize: ImageSize
    /// Markers found, in OpenCV's order (AprilTags: by id, then position). For boards, only
    /// markers that belong to the board.
    public var markers: [Marker]
    /// Board corners found (ChArUco, chessboard and AprilGrid patterns; empty otherwise).
    public var boardCorners: [BoardCorner]
    /// Variance of the Laplacian of the gray image inside the convex hull of everything found:
    /// large for a sharp view, small for a blurred one. `nil` when nothing was found.
    public var sharpness: Double?
    /// How long detection took, from the call into the detector to its return.
    public var duration: Duration

    /// Makes a detection.
    public init(
        imageSize: ImageSize, markers: [Marker], boardCorners: [BoardCorner], sharpness: Double?, duration: Duration
    ) {
        self.imageSize = imageSize
        self.markers = markers
        self.boardCorners = boardCorners
        self.sharpness = sharpness
        self.duration = duration
    }

    /// Whether nothing at all was found.
    public var isEmpty: Bool { markers.isEmpty && boardCorners.isEmpty }

    /// Whether this detection may enable the shutter under `rule`.
    public func isValid(under rule: ValidityRule) -> Bool { rule.accepts(self) }
}
