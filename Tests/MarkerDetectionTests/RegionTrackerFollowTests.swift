@testable import MarkerDetection
import MarkerDetectionTestSupport
import Pixels
import Testing

/// Searching a video's frame where the frame before showed the board (a `RegionTracker` that
/// followed it, as `process` does): what is found is what a search of the whole image finds,
/// whether the tracker is right, stale or wrong.
@Suite struct RegionTrackerFollowTests {
    static let charuco = "charuco:5x7:DICT_6X6_250"

    /// A tracker, as `process` makes one, that followed `detection` (and `before` it, if any).
    static func following(_ detection: Detection, of pattern: Pattern, before: RegionTracker? = nil) -> RegionTracker {
        var tracker = before ?? RegionTracker(margin: RegionTracker.videoMargin)
        tracker.follow(detection, of: pattern)
        return tracker
    }

    /// `geometry`'s board seen as `DetectionModeTests.view` sees it, moved `shift` pixels across.
    static func view(_ geometry: BoardGeometry, distance: Double = 1.6, shift: Double = 0) throws
        -> (image: PixelBuffer, homography: Homography)
    {
        let centred = Homography.camera(
            sourceWidth: geometry.width, sourceHeight: geometry.height, targetWidth: 1920, targetHeight: 1080,
            tiltX: 10, tiltY: 20, distance: distance, focal: 1920 * 0.75)
        let homography = Homography([1, 0, shift, 0, 1, 0, 0, 0, 1]).composed(after: centred)
        let warped = try SyntheticImage.warp(geometry.render(), by: homography, width: 1920, height: 1080, samples: 2)
        return (try SyntheticImage.addNoise(SyntheticImage.blur(warped, sigma: 1), sigma: 3, seed: 14), homography)
    }

    static func expectSameFinds(_ found: Detection, _ expected: Detection, tolerance: Double = 0.05,
                                sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(found.markers.map(\.id).sorted() == expected.markers.map(\.id).sorted(), sourceLocation: sourceLocation)
        #expect(found.boardCorners.map(\.id) == expected.boardCorners.map(\.id), sourceLocation: sourceLocation)
        for (a, b) in zip(found.boardCorners, expected.boardCorners) {
            #expect(a.point.distance(to: b.point) <= tolerance, "corner \(a.id): \(a.point) vs \(b.point)",
                    sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: [charuco, "chessboard:9x6"])
    func aHintWhereTheBoardIsFindsWhatTheWholeImageSearchFinds(pattern text: String) throws {
        let geometry = BoardGeometry(pattern: try Pattern(parsing: text), side: 120, margin: 60)
        let detector = try MarkerDetector(pattern: geometry.pattern)
        let before = try detector.detect(Self.view(geometry).image)
        let hint = Self.following(before, of: geometry.pattern)
        let region = try #require(hint.region)
        #expect(!region.covers(before.imageSize))
        // The next frame: the board moved 12 pixels, well inside the hint's margin.
        let image = try Self.view(geometry, shift: 12).image
        let whole = try detector.detect(image)
        #expect(whole.boardCorners.count == (text == Self.charuco ? 24 : 54))
        Self.expectSameFinds(try detector.detect(image, following: hint), whole)
    }

    /// A hint that has gone stale (the board left the region), or whose size is far off, costs time
    /// and changes nothing: the whole image is searched, from the passes the size calls for.
    @Test func aStaleOrWrongHintStillFindsTheBoard() throws {
        let geometry = BoardGeometry(pattern: try Pattern(parsing: Self.charuco), side: 120, margin: 60)
        let detector = try MarkerDetector(pattern: geometry.pattern)
        let image = try Self.view(geometry).image
        let whole = try detector.detect(image)
        let board = try #require(ImageRegion(around: whole, margin: 0))
        let elsewhere = ImageRegion(x: 0, y: 0, width: max(40, board.x - 50), height: 300)
        for side in [nil, 3.0, 30, 900] {
            Self.expectSameFinds(try detector.detect(image, following: RegionTracker(region: elsewhere, featureSide: side)), whole)
            Self.expectSameFinds(try detector.detect(image, following: RegionTracker(region: board, featureSide: side)), whole)
        }
        // After a frame that showed nothing, the image is searched at full resolution straight
        // away: what full mode finds.
        let full = try MarkerDetector(pattern: geometry.pattern, mode: .full).detect(image)
        let afterNothing = try detector.detect(image, following: RegionTracker(region: nil, featureSide: 40))
        #expect(afterNothing.markers.map(\.id).sorted() == full.markers.map(\.id).sorted())
        #expect(afterNothing.boardCorners.map(\.id) == full.boardCorners.map(\.id))
        // Full mode ignores hints.
        let fullDetector = try MarkerDetector(pattern: geometry.pattern, mode: .full)
        Self.expectSameFinds(try fullDetector.detect(image, following: RegionTracker(region: elsewhere, featureSide: 3)), full,
                             tolerance: 0)
    }

    /// A hand over part of the board: the markers the region search misses lie inside the region,
    /// where it looked, so its result stands and the rest of the image is not searched. A second,
    /// smaller copy of the board elsewhere shows which search gave the result: the whole image
    /// search takes some of the hidden markers' ids from the copy, the region search keeps to the
    /// board (the one case where the two differ: two copies of one board in view).
    @Test func markersHiddenInsideTheRegionDoNotSendTheSearchToTheWholeImage() throws {
        let geometry = BoardGeometry(pattern: try Pattern(parsing: Self.charuco), side: 120, margin: 60)
        let detector = try MarkerDetector(pattern: geometry.pattern)
        let (board, homography) = try Self.view(geometry, shift: -300)
        let copy = try Self.view(geometry, distance: 6, shift: 700)
        // The board spans about x 200 to 1100, the copy (a quarter its size) about 1540 to 1780.
        let copyArea = (x0: 1400, x1: 1920)
        let both = try board.withUnsafeBytes { left in
            try copy.image.withUnsafeBytes { right in
                try PixelBuffer(width: 1920, height: 1080, format: .gray8) { target in
                    for y in 0..<1080 {
                        for x in 0..<1920 {
                            let source = x >= copyArea.x0 ? right : left
                            target[y * 1920 + x] = source[y * board.rowStride + x]
                        }
                    }
                }
            }
        }
        let before = try detector.detect(both)
        #expect(before.markers.count == 17)
        let hint = Self.following(before, of: geometry.pattern)
        let region = try #require(hint.region)
        #expect(region.x + region.width < copyArea.x0)

        // Cover the three markers nearest the board's middle.
        let middle = homography.apply(x: Double(geometry.width) / 2, y: Double(geometry.height) / 2)
        let nearest = geometry.markers.sorted { a, b in
            func distance(_ corners: [ImagePoint]) -> Double {
                let p = homography.apply(x: corners[0].x, y: corners[0].y)
                return ((p.x - middle.x) * (p.x - middle.x) + (p.y - middle.y) * (p.y - middle.y)).squareRoot()
            }
            return distance(a.value) < distance(b.value)
        }.prefix(3)
        var covered = both
        for (_, corners) in nearest {
            let points = corners.map { homography.apply(x: $0.x, y: $0.y) }
            covered = try AprilTagDetectionTests.covering(
                covered, x0: Int(points.map(\.x).min()!) - 4, y0: Int(points.map(\.y).min()!) - 4,
                x1: Int(points.map(\.x).max()!) + 5, y1: Int(points.map(\.y).max()!) + 5, value: 128)
        }
        let hidden = Set(nearest.map { $0.key })

        let whole = try detector.detect(covered)
        let fromTheCopy = whole.markers.filter { hidden.contains($0.id) && $0.corners[0].x >= Double(copyArea.x0) }
        #expect(!fromTheCopy.isEmpty, "the copy's markers stand in for hidden ones")
        let hinted = try detector.detect(covered, following: hint)
        #expect(Set(hinted.markers.map(\.id)) == Set(0..<17).subtracting(hidden))
        let (left, right) = (Double(region.x), Double(region.x + region.width))
        let (top, bottom) = (Double(region.y), Double(region.y + region.height))
        let corners: [ImagePoint] = hinted.markers.flatMap { $0.corners }
        let inside = corners.allSatisfy { (point: ImagePoint) -> Bool in
            point.x >= left && point.x < right && point.y >= top && point.y < bottom
        }
        #expect(inside)
    }

    @Test func aHintCarriesTheSizeOfWhatWasSeen() throws {
        let charuco = BoardGeometry(pattern: try Pattern(parsing: Self.charuco), side: 120, margin: 60)
        let found = try MarkerDetector(pattern: charuco.pattern).detect(Self.view(charuco).image)
        let hint = Self.following(found, of: charuco.pattern)
        let sides = found.markers.flatMap { marker in (0..<4).map { marker.corners[$0].distance(to: marker.corners[($0 + 1) % 4]) } }
        #expect(abs(try #require(hint.featureSide) - sides.reduce(0, +) / Double(sides.count)) < 1e-9)

        let chessboard = BoardGeometry(pattern: try Pattern(parsing: "chessboard:9x6"), side: 120, margin: 60)
        let corners = try MarkerDetector(pattern: chessboard.pattern).detect(Self.view(chessboard).image)
        let square = try #require(Self.following(corners, of: chessboard.pattern).featureSide)
        // Neighbouring corners of a row: 120-pixel squares, 1200 of the picture's 1320 pixels,
        // seen 900 pixels wide and turned by 20 degrees: about 77 pixels.
        #expect(square > 70 && square < 85, "\(square)")

        // A frame that shows nothing keeps the size, not the region.
        let nothing = Detection(imageSize: found.imageSize, markers: [], boardCorners: [], sharpness: nil, duration: .zero)
        let after = Self.following(nothing, of: charuco.pattern, before: hint)
        #expect(after.region == nil)
        #expect(after.featureSide == hint.featureSide)
        #expect(Self.following(nothing, of: charuco.pattern).featureSide == nil)
    }
}
