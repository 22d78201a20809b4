import MarkerDetection
import MarkerDetectionTestSupport
import Pixels
import Testing

/// Boards rendered here, seen through known homographies (tilted up to 60 degrees, at several
/// distances), blurred and made noisy: the expected ids and corner positions follow from the
/// rendering and the homography.
@Suite struct SyntheticViewTests {
    struct View: CustomTestStringConvertible, Sendable {
        let tiltX: Double
        let tiltY: Double
        let distance: Double
        var testDescription: String { "tilt \(tiltX)/\(tiltY) deg at \(distance)" }
    }

    static let views: [View] = [
        View(tiltX: 0, tiltY: 0, distance: 1.6), View(tiltX: 0, tiltY: 30, distance: 1.6),
        View(tiltX: 0, tiltY: 45, distance: 1.6), View(tiltX: 0, tiltY: 60, distance: 1.4),
        View(tiltX: 60, tiltY: 0, distance: 1.6), View(tiltX: 25, tiltY: -40, distance: 2.0),
        View(tiltX: -35, tiltY: 35, distance: 2.4), View(tiltX: 0, tiltY: 0, distance: 3.0),
    ]

    static let frame = (width: 640, height: 480, focal: 700.0)

    /// Renders `geometry`'s board, views it, blurs it (sigma 1 px) and adds noise (sigma 4 grey levels).
    func scene(_ geometry: BoardGeometry, _ view: View) throws -> (image: PixelBuffer, homography: Homography) {
        let homography = Homography.camera(
            sourceWidth: geometry.width, sourceHeight: geometry.height, targetWidth: Self.frame.width,
            targetHeight: Self.frame.height, tiltX: view.tiltX, tiltY: view.tiltY, distance: view.distance,
            focal: Self.frame.focal)
        let warped = try SyntheticImage.warp(
            geometry.render(), by: homography, width: Self.frame.width, height: Self.frame.height)
        let image = try SyntheticImage.addNoise(SyntheticImage.blur(warped, sigma: 1), sigma: 4, seed: 7)
        return (image, homography)
    }

    @Test(arguments: views, DetectionMode.allCases)
    func charucoBoardUnderPerspective(view: View, mode: DetectionMode) throws {
        let geometry = BoardGeometry(
            pattern: try Pattern(parsing: "charuco:7x5:DICT_4X4_50:marker=0.03"), side: 80, margin: 40)
        let (image, homography) = try scene(geometry, view)
        let detection = try MarkerDetector(pattern: geometry.pattern, mode: mode).detect(image)

        let expectedMarkers = geometry.markers
        #expect(detection.markers.map(\.id).sorted() == expectedMarkers.keys.sorted())
        for marker in detection.markers {
            let expected = try #require(expectedMarkers[marker.id]).map { $0.mapped(by: homography) }
            let error = zip(marker.corners, expected).map { $0.distance(to: $1) }.max()!
            #expect(error <= 5, "marker \(marker.id) is off by \(error) px")
        }
        let expectedCorners = geometry.corners
        #expect(detection.boardCorners.map(\.id).sorted() == expectedCorners.keys.sorted())
        for corner in detection.boardCorners {
            let error = try #require(expectedCorners[corner.id]).mapped(by: homography).distance(to: corner.point)
            #expect(error <= 5, "corner \(corner.id) is off by \(error) px")
        }
    }

    @Test(arguments: views, DetectionMode.allCases)
    func chessboardUnderPerspective(view: View, mode: DetectionMode) throws {
        let geometry = BoardGeometry(pattern: try Pattern(parsing: "chessboard:9x6"), side: 60, margin: 60)
        let (image, homography) = try scene(geometry, view)
        let detection = try MarkerDetector(pattern: geometry.pattern, mode: mode).detect(image)

        // OpenCV may number a chessboard from either end, so match corners by position.
        let expected = geometry.corners.values.map { $0.mapped(by: homography) }
        #expect(detection.boardCorners.count == expected.count)
        for point in expected {
            let error = detection.boardCorners.map { $0.point.distance(to: point) }.min() ?? .infinity
            #expect(error <= 5, "no corner within 5 px of \(point): nearest at \(error) px")
        }
    }

    @Test(arguments: ["charuco:7x5:DICT_6X6_250", "charuco:6x4:DICT_5X5_100:legacy", "chessboard:9x6"], DetectionMode.allCases)
    func untiltedLightlyBlurredBoardHasSubPixelCorners(pattern: String, mode: DetectionMode) throws {
        let geometry = BoardGeometry(pattern: try Pattern(parsing: pattern), side: 80, margin: 40)
        let image = try SyntheticImage.blur(geometry.render(), sigma: 0.8)
        let detection = try MarkerDetector(pattern: geometry.pattern, mode: mode).detect(image)

        let expected = geometry.corners
        #expect(detection.boardCorners.count == expected.count)
        for corner in detection.boardCorners {
            let error = expected.values.map { $0.distance(to: corner.point) }.min()!
            #expect(error <= 0.1, "corner \(corner.id) is off by \(error) px")
        }
    }
}
