/// What one image tells of the target it shows, as far as it tells it (`msd_layout`): the board
/// markers of one code set form, or a chessboard or circle grid counted whole.
struct LayoutObservation: Sendable, Hashable {
    /// The kinds of layout.
    enum Kind: Sendable, Hashable {
        /// Markers that form no board.
        case loose
        /// Markers in rows and columns whose ids count along the rows (grid board, AprilGrid).
        case grid
        /// Markers in the white squares of a chessboard.
        case charuco
        /// A chessboard.
        case chessboard
        /// A symmetric circle grid.
        case circles
        /// OpenCV's asymmetric circle grid.
        case acircles
    }

    var kind: Kind
    /// The markers' code set; `nil` for chessboards and circle grids.
    var codeSet: CodeSet?
    /// Markers, squares or circles that fit the layout.
    var features: Int
    /// The smallest and largest id of those markers.
    var minimumID: Int
    var maximumID: Int
    /// Markers (inner corners, circles) across; `nil` when the image does not tell.
    var columns: Int?
    /// Rows; `nil` when the image does not show where the board ends.
    var rows: Int?
    /// Rows the board has at least.
    var minimumRows: Int
    /// Grids: the first marker's id, when the image tells it.
    var firstID: Int?
    /// Grids: ids count rows from the bottom (Kalibr's AprilGrid).
    var idsUp: Bool
    /// ChArUco: the top-left square holds a marker (the layout of OpenCV before 4.6 with an even
    /// number of rows).
    var markerAtOrigin: Bool
    /// ChArUco: marker side over square side; grids: gap over marker side; `nil` when not measured.
    var ratio: Double?
    /// Whether the board's columns run more across the image than down it.
    var columnsAcross: Bool
    /// Root mean square distance, in pixels, of the markers from one homography of the layout.
    var error: Double
}

/// One marker read by its code while a target is identified.
struct CodedMarker: Sendable, Hashable {
    var codeSet: CodeSet
    var id: Int
    /// Clockwise from the marker's own top-left.
    var corners: [ImagePoint]
}

/// Everything one frame tells while a target is identified: its layouts and every marker read.
public struct FrameEvidence: Sendable {
    /// The frame's size.
    public let imageSize: ImageSize
    let layouts: [LayoutObservation]
    let markers: [CodedMarker]
}
