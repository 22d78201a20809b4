public import Pixels

extension RegionTracker {
    /// Detects the pattern in `pixels` where this tracker says, and in the whole image when that
    /// comes back short, never at full resolution (``FastSearch``), taking in what was found: how
    /// `live` searches each frame in fast mode. A region is searched with every downscaled pass;
    /// the whole image with one pass a frame, the one that last found the board, or the next one in
    /// turn while a pass finds nothing or less than the frame before (``wholeImagePass``; at
    /// 3840x2160 each pass costs less than a frame interval, all of them together more). Frames too
    /// small for fast mode to shrink (640x480 and the like) are searched whole, in full: there the
    /// full search is cheap, and a region search could report less than it.
    /// - Throws: What ``MarkerDetector/detect(_:within:search:)`` throws.
    public mutating func search(_ pixels: PixelBuffer, with detector: MarkerDetector) throws(DetectionError) -> Detection {
        guard detector.fastScale(for: ImageSize(width: pixels.width, height: pixels.height)) < 1 else {
            return try detector.detect(pixels)
        }
        let search = nextSearch()
        let detection =
            if let region = search.region {
                try detector.detect(pixels, within: region, search: .downscaled)
            } else {
                try detector.detect(pixels, within: nil, search: .downscaledPass(wholeImagePass))
            }
        guard record(detection, after: search) else { return detection }
        let whole = try detector.detect(pixels, within: nil, search: .downscaledPass(wholeImagePass))
        _ = record(whole, after: .wholeImage)
        return whole
    }
}
