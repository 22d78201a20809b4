import MarkerDetection

/// calibration.json's `projection_uncertainty`: the map's numbers (the corners' scatter and the
/// views' spread together), with each part's, written and read back (by `compare`). `null` stands
/// for no bound: a point beyond the lens model's fold, where it says nothing of where a point
/// appears.
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

    /// One part of the map: its centre, corners and grid.
    struct Part: Codable {
        let centre_px: Double?
        let corners_px: [Double?]
        let grid_px: [Double?]

        init(_ map: UncertaintyMap) {
            centre_px = ProjectionUncertaintyFile.number(map.centre)
            corners_px = map.corners.map(ProjectionUncertaintyFile.number)
            grid_px = map.values.map(ProjectionUncertaintyFile.number)
        }
    }

    let measure: String
    let distance: Double?
    let distance_note: String
    let centre_px: Double?
    let worst_corner: Corner
    let corners_px: [Double?]
    let share_under_0_5_px: Double?
    let share_under_1_px: Double?
    let grid: Grid
    let parts_note: String?
    /// The corners' scatter's part, and the views' spread's part beyond it.
    let noise: Part?
    let spread: Part?
    let null_note: String?

    /// A number, or `nil` (written `null`) for one that is not finite.
    static func number(_ value: Double) -> Double? { value.isFinite ? value : nil }

    init(_ map: UncertaintyMap, noise: UncertaintyMap? = nil, spread: UncertaintyMap? = nil) {
        measure = "worstdirection-stdev"
        distance = Self.number(map.distance)
        distance_note = "each pixel's point is placed at the boards' mean distance from the camera, in the target's units"
        centre_px = Self.number(map.centre)
        let worst = map.worstCorner
        worst_corner = Corner(name: worst.name, px: Self.number(worst.value))
        corners_px = map.corners.map(Self.number)
        share_under_0_5_px = Self.number(map.share())
        share_under_1_px = Self.number(map.share(under: 1))
        grid = Grid(columns: map.columns, rows: map.rows, px: map.values.map(Self.number))
        self.noise = noise.map(Part.init)
        self.spread = spread.map(Part.init)
        parts_note = spread == nil ? nil
            : "the map is the root of the sum of the squares of its parts: noise, the corners' scatter (the covariance of the "
                + "solve), and spread, the views' spread beyond it (the jackknife's cameras), scaled so that 1.96 times the map "
                + "is a 95% interval"
        null_note = map.values.contains { !$0.isFinite } || !map.centre.isFinite || map.corners.contains { !$0.isFinite }
            ? "null: no bound, where the lens model folds and says nothing of where a point appears" : nil
    }

    /// The map again, for an image of `size` (`null` read as no bound).
    func map(imageSize size: ImageSize) -> UncertaintyMap? {
        guard grid.columns >= 2, grid.rows >= 2, grid.px.count == grid.columns * grid.rows, corners_px.count == 4 else { return nil }
        return UncertaintyMap(
            imageSize: size, distance: distance ?? .nan, columns: grid.columns, rows: grid.rows,
            values: grid.px.map { $0 ?? .infinity }, centre: centre_px ?? .infinity, corners: corners_px.map { $0 ?? .infinity })
    }
}
