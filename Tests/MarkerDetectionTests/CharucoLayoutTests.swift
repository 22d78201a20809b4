import MarkerDetection
import MarkerDetectionTestSupport
import Pixels
import Testing

/// The ChArUco marker layout of OpenCV before 4.6 (boards with an even number of rows).
@Suite struct CharucoLayoutTests {
    let legacy: BoardGeometry
    let current: BoardGeometry

    init() throws {
        legacy = BoardGeometry(pattern: try Pattern(parsing: "charuco:6x4:DICT_5X5_100:legacy"), side: 100, margin: 50)
        current = BoardGeometry(pattern: try Pattern(parsing: "charuco:6x4:DICT_5X5_100"), side: 100, margin: 50)
    }

    @Test(arguments: DetectionMode.allCases)
    func eachLayoutPutsItsMarkersWhereItsRuleSays(mode: DetectionMode) throws {
        for geometry in [legacy, current] {
            let detection = try MarkerDetector(pattern: geometry.pattern, mode: mode).detect(geometry.render())
            #expect(detection.markers.count == 12)
            for marker in detection.markers {
                let expected = try #require(geometry.markers[marker.id])
                let error = zip(marker.corners, expected).map { $0.distance(to: $1) }.max()!
                #expect(error < 1, "\(geometry.pattern): marker \(marker.id) is \(error) px from its square")
            }
        }
        // Legacy puts marker 0 in the top-left square, so that square is not solid black.
        #expect(try legacy.render().row(100)[50..<150].contains(255))
        #expect(try current.render().row(100)[50..<150].allSatisfy { $0 == 0 })
    }

    @Test func oddRowCountsHaveOneLayout() throws {
        let odd = try PrintableTarget.render(Pattern(parsing: "charuco:5x7:DICT_6X6_250:legacy"), width: 500, height: 700)
        let oddCurrent = try PrintableTarget.render(Pattern(parsing: "charuco:5x7:DICT_6X6_250"), width: 500, height: 700)
        #expect((0..<700).allSatisfy { odd.row($0) == oddCurrent.row($0) })
    }

    /// Seen at an angle, a legacy board read with the legacy layout has every corner exact. Read with
    /// the current layout, its corners are first placed from markers taken for other squares (more
    /// than a pixel off under this perspective), then each settles on the image's own saddle point
    /// (settle_saddle in the shim), which lies within its reach here: the corners come out right
    /// all the same, where before they kept OpenCV's place a pixel or more off.
    @Test(arguments: DetectionMode.allCases)
    func legacyBoardUnderPerspectiveSettlesOnItsCornersWithEitherLayout(mode: DetectionMode) throws {
        let homography = Homography.camera(
            sourceWidth: legacy.width, sourceHeight: legacy.height, targetWidth: 640, targetHeight: 480,
            tiltX: 30, tiltY: 50, distance: 1.6, focal: 700)
        let image = try SyntheticImage.warp(legacy.render(), by: homography, width: 640, height: 480)
        func worstCornerError(as pattern: Pattern) throws -> Double {
            let detection = try MarkerDetector(pattern: pattern, mode: mode).detect(image)
            #expect(detection.boardCorners.count == 15)
            return detection.boardCorners.map { legacy.corners[$0.id]!.mapped(by: homography).distance(to: $0.point) }.max()!
        }
        #expect(try worstCornerError(as: legacy.pattern) < 0.5)
        #expect(try worstCornerError(as: current.pattern) < 0.5)
    }
}
