/// What a detection found, as the project's files record it: the board corners, each by id with
/// where it was seen, and the markers, each by id with its four corners.
///
/// ```
/// "markers":[{"id":3,"corners":[[244.4,94.2],[262.1,94.3],[262,112.1],[244.3,112]]}],
/// "corners":[{"id":0,"xy":[244.4,94.2]}]
/// ```
///
/// Coordinates are written with at most three decimals (a thousandth of a pixel).
public struct RecordedDetection: Sendable, Equatable {
    /// A point in the picture, in pixels.
    public struct Point: Sendable, Equatable {
        /// Across, from the left pixel's centre.
        public var x: Double
        /// Down, from the top pixel's centre.
        public var y: Double

        /// Makes a point.
        public init(x: Double, y: Double) {
            self.x = x
            self.y = y
        }
    }

    /// A board corner: its id on the target and where it was seen.
    public struct Corner: Sendable, Equatable {
        /// The corner's id.
        public var id: Int
        /// Where it was seen.
        public var point: Point

        /// Makes a corner.
        public init(id: Int, point: Point) {
            self.id = id
            self.point = point
        }
    }

    /// A marker: its id and its four corners, clockwise from its top-left.
    public struct Marker: Sendable, Equatable {
        /// The marker's id.
        public var id: Int
        /// Its four corners.
        public var corners: [Point]

        /// Makes a marker.
        public init(id: Int, corners: [Point]) {
            self.id = id
            self.corners = corners
        }
    }

    /// The markers found.
    public var markers: [Marker]
    /// The board corners found.
    public var corners: [Corner]

    /// Makes a record.
    public init(markers: [Marker], corners: [Corner]) {
        self.markers = markers
        self.corners = corners
    }

    /// `[{"id":3,"corners":[[x,y],[x,y],[x,y],[x,y]]},...]`
    package var markersText: String {
        "[" + markers.map { marker in
            "{\"id\":\(marker.id),\"corners\":[" + marker.corners.map(Self.text(of:)).joined(separator: ",") + "]}"
        }.joined(separator: ",") + "]"
    }

    /// `[{"id":0,"xy":[x,y]},...]`
    package var cornersText: String {
        "[" + corners.map { "{\"id\":\($0.id),\"xy\":\(Self.text(of: $0.point))}" }.joined(separator: ",") + "]"
    }

    /// `[x,y]`, each with at most three decimals.
    static func text(of point: Point) -> String {
        "[\(JSONObjectText.number(point.x, decimals: 3)),\(JSONObjectText.number(point.y, decimals: 3))]"
    }
}
