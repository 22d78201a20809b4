/// What one frame of a video showed, for searching the next one
/// (``MarkerDetector/detect(_:following:)``): where the board was, and how large its markers (or
/// chessboard squares) looked.
///
/// In ``DetectionMode/fast`` the next frame is searched first around where the board was, from the
/// downscaled pass that size calls for; the rest of the image is searched only when that search
/// does not account for the board (a board marker it did not find would lie elsewhere in the
/// image). Between consecutive frames a board barely moves, so most frames are searched in a small
/// part only. The markers and corners found are those a full search of the whole image finds
/// (board corners within 0.1 px on the real recordings of `RealRecordingTrackingTests`), but for
/// one case: with two copies of one board in view, the search keeps to the copy where the board was.
public struct SearchHint: Sendable, Hashable {
    /// Where the board was, grown by a margin; `nil` when the frame showed none.
    public var region: ImageRegion?
    /// The mean side, in pixels, of the markers (chessboard squares) last seen; `nil` before any.
    public var featureSide: Double?

    /// Makes a hint.
    public init(region: ImageRegion?, featureSide: Double?) {
        self.region = region
        self.featureSide = featureSide
    }

    /// How far the region reaches beyond the board on each side, as a fraction of the board's
    /// larger side. A board that moves further between two frames is found all the same, by the
    /// whole-image search that follows; on the offline benchmark's video, 10% to 25% (and a region
    /// shifted by the board's last move) changed the time by a few per cent (BENCHMARKS.md).
    public static let margin = 0.15

    /// The hint for the frame after one in which `pattern` was searched and `detection` found. A
    /// frame that showed nothing keeps the size `before` gave (the board, when it comes back, is
    /// most likely as large as it was) but no region.
    public init(after detection: Detection, of pattern: Pattern, before: SearchHint? = nil) {
        region = ImageRegion(around: detection, margin: Self.margin)
        featureSide = Self.featureSide(of: detection, pattern: pattern) ?? before?.featureSide
    }

    /// The mean side of the detection's markers, or for a chessboard the mean distance between
    /// neighbouring corners of a row; `nil` when there is none.
    static func featureSide(of detection: Detection, pattern: Pattern) -> Double? {
        var total = 0.0, count = 0
        if case .chessboard(let board) = pattern {
            let byID = Dictionary(detection.boardCorners.map { ($0.id, $0.point) }, uniquingKeysWith: { first, _ in first })
            for (id, point) in byID where (id + 1) % board.columns != 0 {
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
