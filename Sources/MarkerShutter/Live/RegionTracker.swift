public import MarkerDetection

/// Where live detection searches each frame: around the board of the frame before, so that a
/// large image is not searched whole for a board that has barely moved, with a whole-image search
/// every ``fullSearchInterval`` frames (a second board position is never missed for long) and as
/// soon as a region search comes back short.
///
/// A plain state machine: it reads no clock and runs no detection. For each frame, ask
/// ``nextSearch()``, detect there, and tell ``record(_:after:)`` what was found; when it answers
/// `true`, detect again in the whole image and record that too.
///
/// A region search comes back short when it finds nothing, or fewer markers and board corners than
/// the detection before it: the board may have moved out of the region, or partly so.
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

    /// The downscaled pass the next whole-image search runs (``FastSearch/downscaledPass(_:)``):
    /// it stays while whole-image searches find as much as the frame before, and moves on to the
    /// next pass when one finds nothing, or less than the frame before (a board too small for this
    /// pass, or seen only in part at its scale). Live searches a large frame one pass at a time.
    public private(set) var wholeImagePass = 0

    private var region: ImageRegion?
    private var lastFeatures = 0
    private var framesSinceFullSearch = 0

    /// Every 10th frame whole, regions a quarter of the board larger than it on each side.
    public init(fullSearchInterval: Int = 10, margin: Double = 0.25) {
        precondition(fullSearchInterval >= 1, "fullSearchInterval must be at least 1, not \(fullSearchInterval)")
        precondition(margin >= 0 && margin.isFinite, "margin must be zero or more, not \(margin)")
        self.fullSearchInterval = fullSearchInterval
        self.margin = margin
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
}
