import MarkerDetection
import MarkerDetectionTestSupport
import Pixels
import Testing

/// Fast mode against full mode on images large enough for fast mode to shrink, and searches in a
/// region. (The other detection tests run in both modes too, on images mostly too small to shrink.)
@Suite struct DetectionModeTests {
    /// `geometry`'s board seen at `width` x `height`, tilted, lightly blurred and noisy, and the
    /// homography from the flat board to the image.
    /// At `distance` 1.6 the board spans about 47% of the image width; the width shrinks with distance.
    static func view(_ geometry: BoardGeometry, width: Int, height: Int, tiltY: Double, distance: Double = 1.6) throws
        -> (image: PixelBuffer, homography: Homography)
    {
        let homography = Homography.camera(
            sourceWidth: geometry.width, sourceHeight: geometry.height, targetWidth: width, targetHeight: height,
            tiltX: 10, tiltY: tiltY, distance: distance, focal: Double(width) * 0.75)
        let warped = try SyntheticImage.warp(geometry.render(), by: homography, width: width, height: height, samples: 2)
        return (try SyntheticImage.addNoise(SyntheticImage.blur(warped, sigma: 1), sigma: 3, seed: 14), homography)
    }

    @Test func fastModeShrinksLargeImagesOnlyForBoards() throws {
        let charuco = try MarkerDetector(pattern: Pattern(parsing: "charuco:5x7:DICT_6X6_250"))
        #expect(charuco.fastScale(for: ImageSize(width: 1920, height: 1080)) < 0.5)
        #expect(charuco.fastScale(for: ImageSize(width: 640, height: 480)) == 1)
        let loose = try MarkerDetector(pattern: Pattern(parsing: "aruco:DICT_6X6_250"))
        #expect(loose.fastScale(for: ImageSize(width: 3840, height: 2160)) == 1)
        // A grid board's marker corners are its calibration points: never taken from a shrunken copy.
        let grid = try MarkerDetector(pattern: Pattern(parsing: "gridboard:5x7:DICT_6X6_250"))
        #expect(grid.fastScale(for: ImageSize(width: 3840, height: 2160)) == 1)
    }

    @Test(arguments: ["charuco:5x7:DICT_6X6_250", "chessboard:9x6"], [0.0, 45.0])
    func fastFindsWhatFullFindsWithCornersNoWorse(pattern text: String, tiltY: Double) throws {
        let geometry = BoardGeometry(pattern: try Pattern(parsing: text), side: 120, margin: 60)
        let (image, homography) = try Self.view(geometry, width: 1920, height: 1080, tiltY: tiltY)
        let full = try MarkerDetector(pattern: geometry.pattern, mode: .full).detect(image)
        let fast = try MarkerDetector(pattern: geometry.pattern, mode: .fast).detect(image)
        #expect(!full.isEmpty)
        #expect(fast.markers.map(\.id).sorted() == full.markers.map(\.id).sorted())
        #expect(fast.boardCorners.count == full.boardCorners.count)
        // Board corners are refined on the full-resolution image in both modes.
        let truth = geometry.corners.values.map { $0.mapped(by: homography) }
        func worstCornerError(_ detection: Detection) -> Double {
            detection.boardCorners.map { corner in truth.map { $0.distance(to: corner.point) }.min()! }.max() ?? 0
        }
        #expect(worstCornerError(fast) <= worstCornerError(full) + 0.01)
        #expect(worstCornerError(fast) < 0.2)
        // Marker corners come from the shrunken image, refined at full resolution (cornerSubPix):
        // most land closer to the truth than full mode's unrefined ones, but on the board tilted
        // by 45 degrees one corner lands 4.7 pixels off (full mode's worst: 1.4). ChArUco corners,
        // which calibration uses, are not affected (above).
        func worstMarkerError(_ detection: Detection) throws -> Double {
            try detection.markers.map { marker in
                let expected = try #require(geometry.markers[marker.id]).map { $0.mapped(by: homography) }
                return zip(marker.corners, expected).map { $0.distance(to: $1) }.max()!
            }.max() ?? 0
        }
        #expect(try worstMarkerError(full) < 2)
        #expect(try worstMarkerError(fast) < 5)
    }

    @Test(arguments: DetectionMode.allCases)
    func aRegionAroundTheBoardFindsWhatTheWholeImageDoes(mode: DetectionMode) throws {
        let geometry = BoardGeometry(pattern: try Pattern(parsing: "charuco:5x7:DICT_6X6_250"), side: 120, margin: 60)
        let image = try Self.view(geometry, width: 1920, height: 1080, tiltY: 20).image
        let detector = try MarkerDetector(pattern: geometry.pattern, mode: mode)
        let whole = try detector.detect(image)
        let region = try #require(ImageRegion(around: whole, margin: 0.2))
        #expect(!region.covers(whole.imageSize))
        let inside = try detector.detect(image, within: region)
        #expect(inside.imageSize == whole.imageSize)
        #expect(inside.markers.map(\.id).sorted() == whole.markers.map(\.id).sorted())
        #expect(inside.boardCorners.map(\.id) == whole.boardCorners.map(\.id))
        for (a, b) in zip(inside.boardCorners, whole.boardCorners) {
            #expect(a.point.distance(to: b.point) < 0.05, "corner \(a.id): \(a.point) vs \(b.point)")
        }
        #expect(!inside.boardCorners.isEmpty)
    }

    /// Live's searches (`FastSearch`): the downscaled passes alone find a board of a usual size as
    /// the complete search does, one pass at a time too, and a board half covered by a hand in part;
    /// a board too small for them is left to the complete search, which reaches full resolution.
    @Test func downscaledSearchesFindUsualBoardsAndLeaveTinyOnesToTheCompleteSearch() throws {
        let geometry = BoardGeometry(pattern: try Pattern(parsing: "charuco:5x7:DICT_6X6_250"), side: 120, margin: 60)
        let detector = try MarkerDetector(pattern: geometry.pattern, mode: .fast)
        let usual = try Self.view(geometry, width: 1920, height: 1080, tiltY: 20).image
        let complete = try detector.detect(usual, within: nil, search: .complete)
        #expect(complete.boardCorners.count == 24)
        let downscaled = try detector.detect(usual, within: nil, search: .downscaled)
        #expect(downscaled.markers.map(\.id).sorted() == complete.markers.map(\.id).sorted())
        #expect(downscaled.boardCorners.map(\.id) == complete.boardCorners.map(\.id))
        // One pass at a time: at 1920x1080 this board takes two (scales 0.35 and 0.70); the first
        // misses one marker, the second finds them all, and a third wraps around to the first.
        #expect(detector.fastScale(for: complete.imageSize) < 0.4)
        let passes = try (0..<3).map { try detector.detect(usual, within: nil, search: .downscaledPass($0)) }
        for pass in passes {
            #expect(Set(pass.markers.map(\.id)).isSubset(of: Set(complete.markers.map(\.id))))
            #expect(pass.markers.count >= complete.markers.count - 2)
        }
        #expect(passes[1].markers.map(\.id).sorted() == complete.markers.map(\.id).sorted())
        #expect(passes[2].markers.map(\.id).sorted() == passes[0].markers.map(\.id).sorted())

        // The right half covered: the passes account for no whole board, and give the part they found.
        let covered = try AprilTagDetectionTests.covering(usual, x0: 960, y0: 0, x1: 1920, y1: 1080, value: 90)
        let part = try detector.detect(covered, within: nil, search: .downscaled)
        let partFull = try detector.detect(covered, within: nil, search: .complete)
        #expect(!part.markers.isEmpty && part.markers.count < complete.markers.count)
        #expect(Set(part.markers.map(\.id)).isSubset(of: Set(partFull.markers.map(\.id))))

        // About 10% of the image width: full resolution finds it, the downscaled passes do not.
        let tiny = try Self.view(geometry, width: 1920, height: 1080, tiltY: 20, distance: 7).image
        #expect(try detector.detect(tiny, within: nil, search: .complete).markers.count == 17)
        #expect(try detector.detect(tiny, within: nil, search: .downscaled).isEmpty)

        // An image fast mode does not shrink is searched in full whatever the search says.
        let small = try Self.view(geometry, width: 640, height: 480, tiltY: 20).image
        let smallComplete = try detector.detect(small, within: nil, search: .complete)
        #expect(try detector.detect(small, within: nil, search: .downscaledPass(1)).boardCorners.map(\.id)
                    == smallComplete.boardCorners.map(\.id))
    }

    @Test func aRegionBesideTheBoardFindsNothingAndOneOutsideTheImageIsRefused() throws {
        let geometry = BoardGeometry(pattern: try Pattern(parsing: "charuco:5x7:DICT_6X6_250"), side: 120, margin: 60)
        let image = try Self.view(geometry, width: 1920, height: 1080, tiltY: 20).image
        let detector = try MarkerDetector(pattern: geometry.pattern)
        let whole = try detector.detect(image)
        let board = try #require(ImageRegion(around: whole, margin: 0))
        let beside = ImageRegion(x: 0, y: 0, width: max(16, board.x - 5), height: 1080)
        #expect(try detector.detect(image, within: beside).isEmpty)
        #expect(throws: DetectionError.self) {
            try detector.detect(image, within: ImageRegion(x: 5000, y: 0, width: 100, height: 100))
        }
    }
}
