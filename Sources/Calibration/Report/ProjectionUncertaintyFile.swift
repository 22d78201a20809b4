import MarkerDetection

/// calibration.json's `projection_uncertainty`: the map's numbers, written and read back (by
/// `compare`). Numbers that are not finite are `null`.
struct ProjectionUncertaintyFile: Codable {
    struct Corner: Codable {
        let name: String
        let px: Double?
    }

    struct Grid: Codable {
        let columns: Int
        let rows: Int
        /// Row by row from the top, the first and last points on the image's edges.
        let px: [Double?]
    }

    let measure: String
    let distance: Double?
    let distance_note: String
    let centre_px: Double?
    let worst_corner: Corner
    let corners_px: [Double?]
    let share_under_0_5_px: Double?
    let grid: Grid

    static func number(_ value: Double) -> Double? { value.isFinite ? value : nil }

    init(_ map: UncertaintyMap) {
        measure = "worstdirection-stdev"
        distance = Self.number(map.distance)
        distance_note = "each pixel's point is placed at the boards' mean distance from the camera, in the target's units"
        centre_px = Self.number(map.centre)
        let worst = map.worstCorner
        worst_corner = Corner(name: worst.name, px: Self.number(worst.value))
        corners_px = map.corners.map(Self.number)
        share_under_0_5_px = Self.number(map.share())
        grid = Grid(columns: map.columns, rows: map.rows, px: map.values.map(Self.number))
    }

    /// The map again, for an image of `size`.
    func map(imageSize size: ImageSize) -> UncertaintyMap? {
        guard grid.columns >= 2, grid.rows >= 2, grid.px.count == grid.columns * grid.rows, corners_px.count == 4 else { return nil }
        return UncertaintyMap(
            imageSize: size, distance: distance ?? .nan, columns: grid.columns, rows: grid.rows,
            values: grid.px.map { $0 ?? .nan }, centre: centre_px ?? .nan, corners: corners_px.map { $0 ?? .nan })
    }
}
