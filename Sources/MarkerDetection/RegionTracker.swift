/// Where the board was in the frames before, so that the next frame of a video is searched there
/// first instead of whole. Both `live` and `process` follow the board with it, each in its own way:
///
/// - Live, frame by frame, in Swift: ask ``nextSearch()``, detect there, and tell
///   ``record(_:after:)`` what was found; when it answers `true`, detect again in the whole image
///   and record that too (``search(_:with:)`` does all of it). The whole image is searched every
///   ``fullSearchInterval`` frames (a second board position is never missed for long) and as soon
///   as a region search comes back short: when it finds nothing, or fewer markers and board corners
///   than the detection before it (the board may have moved out of the region, or partly so).
/// - Process, inside the detector: ``MarkerDetector/detect(_:following:)`` searches first around
///   ``region``, from the downscaled pass the markers' size (``featureSide``) calls for, and the rest
///   of the image only when that search does not account for the board (a board marker it did not
///   find would lie elsewhere in the image); ``follow(_:of:)`` takes in what it found. The markers
///   and corners found are those a full search of the whole image finds (board corners within
///   0.1 px on the real recordings of `RealRecordingTrackingTests`), but for one case: with two
///   copies of one board in view, the search keeps to the copy where the board was.
///
/// A plain state machine: it reads no clock, and runs no detection but in ``search(_:with:)``.
public struct RegionTracker: Sendable, Hashable {
    /// Where to search one frame.
    public enum Search: Sendable, Hashable {
        /// The whole image.
        case wholeImage
        /// Only this region.
        case region(ImageRegion)

        /// The region to pass to ``MarkerDetector/detect(_:within:)`` (`nil` for the whole image).
        public var region: ImageRegion? {
            if case .region(let region) = self { region } else { nil }
        }
    }

    /// At most this many frames in a row are searched by region before the whole image is
    /// searched again (at least 1; 1 searches every frame whole).
    public let fullSearchInterval: Int
    /// How far the region reaches beyond the last detection on each side, as a fraction of the
    /// detection's larger side.
    public let margin: Double

    /// The margin `process` follows the board with (``follow(_:of:)``). A board that moves further
    /// between two frames is found all the same, by the whole-image search that follows; on the
    /// offline benchmark's video, 10% to 25% (and a region shifted by the board's last move) changed
    /// the time by a few per cent (BENCHMARKS.md).
    public static let videoMargin = 0.15

    /// The downscaled pass the next whole-image search runs (``FastSearch/downscaledPass(_:)``):
    /// it stays while whole-image searches find as much as the frame before, and moves on to the
    /// next pass when one finds nothing, or less than the frame before (a board too small for this
    /// pass, or seen only in part at its scale). Live searches a large frame one pass at a time.
    public private(set) var wholeImagePass = 0

    /// Where the board was, grown by ``margin``; `nil` when the frame before showed none.
    public private(set) var region: ImageRegion?
    /// The mean side, in pixels, of the markers (chessboard squares) last seen; `nil` before any.
    /// Only ``follow(_:of:)`` keeps it.
    public private(set) var featureSide: Double?

    private var lastFeatures = 0
    private var framesSinceFullSearch = 0

    /// Every 10th frame whole, regions a quarter of the board larger than it on each side.
    public init(fullSearchInterval: Int = 10, margin: Double = 0.25) {
        precondition(fullSearchInterval >= 1, "fullSearchInterval must be at least 1, not \(fullSearchInterval)")
        precondition(margin >= 0 && margin.isFinite, "margin must be zero or more, not \(margin)")
        self.fullSearchInterval = fullSearchInterval
        self.margin = margin
    }

    /// A tracker that says the board was in `region`, its markers `featureSide` pixels on a side.
    init(region: ImageRegion?, featureSide: Double?, margin: Double = videoMargin) {
        self.init(margin: margin)
        self.region = region
        self.featureSide = featureSide
    }

    /// Where to search the next frame.
    public func nextSearch() -> Search {
        guard let region, framesSinceFullSearch + 1 < fullSearchInterval else { return .wholeImage }
        return .region(region)
    }

    /// Takes in what `search` found in a frame.
    ///
    /// - Returns: `true` when the same frame should now be searched whole (a region search that
    ///   came back short); record that search too.
    public mutating func record(_ detection: Detection, after search: Search) -> Bool {
        let features = detection.markers.count + detection.boardCorners.count
        switch search {
        case .wholeImage:
            framesSinceFullSearch = 0
            if features == 0 || features < lastFeatures { wholeImagePass = (wholeImagePass + 1) % 1024 }
        case .region:
            framesSinceFullSearch += 1
            if features == 0 || features < lastFeatures {
                region = nil
                return true
            }
        }
        lastFeatures = features
        region = ImageRegion(around: detection, margin: margin)
        if let region, region.covers(detection.imageSize) { self.region = nil }
        return false
    }

    /// Takes in what ``MarkerDetector/detect(_:following:)`` found in a frame in which `pattern`
    /// was searched: the next frame is searched first around it. A frame that showed nothing keeps
    /// the size seen before (the board, when it comes back, is most likely as large as it was) but
    /// no region.
    public mutating func follow(_ detection: Detection, of pattern: Pattern) {
        region = ImageRegion(around: detection, margin: margin)
        featureSide = Self.featureSide(of: detection, pattern: pattern) ?? featureSide
    }

    /// The mean side of the detection's markers, or for a chessboard or circle grid the mean
    /// distance between neighbouring points of a row; `nil` when there is none.
    static func featureSide(of detection: Detection, pattern: Pattern) -> Double? {
        var total = 0.0, count = 0
        let rowLength: Int? =
            switch pattern {
            case .chessboard(let board): board.columns
            case .circleGrid(let grid): grid.columns
            default: nil
            }
        if let rowLength {
            let byID = Dictionary(detection.boardCorners.map { ($0.id, $0.point) }, uniquingKeysWith: { first, _ in first })
            for (id, point) in byID where (id + 1) % rowLength != 0 {
                guard let next = byID[id + 1] else { continue }
                total += point.distance(to: next)
                count += 1
            }
        } else {
            for marker in detection.markers where marker.corners.count == 4 {
                for index in 0..<4 { total += marker.corners[index].distance(to: marker.corners[(index + 1) % 4]) }
                count += 4
            }
        }
        return count > 0 ? total / Double(count) : nil
    }
}
