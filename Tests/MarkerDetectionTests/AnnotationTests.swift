import MarkerDetection
import Pixels
import Testing

@Suite struct AnnotationTests {
    @Test func drawsOnACopyWithBadgeMarkersAndCorners() throws {
        let pattern = try Pattern(parsing: "charuco:5x7:DICT_6X6_250")
        let frame = try PrintableTarget.render(pattern, width: 640, height: 480)
        let rule = ValidityRule(defaultsFor: pattern)
        let detection = try MarkerDetector(pattern: pattern).detect(frame)
        let badge = Annotation.Badge(detection: detection, rule: rule)
        #expect(badge.isOK)
        #expect(badge.text.hasPrefix("VALID: 17 markers, 24 corners, sharpness "))

        let annotated = try Annotation.draw(detection, on: frame, badge: badge)
        #expect(annotated.format == .bgr24 && annotated.width == 640 && annotated.height == 480)
        // The frame itself is untouched: a gray image has no coloured pixel.
        #expect((0..<480).allSatisfy { y in frame.row(y).allSatisfy { $0 == 0 || $0 == 255 } })
        // The badge is green (BGR 0, 150, 0) at the top-left corner.
        #expect(Array(annotated.row(2)[0..<3]) == [0, 150, 0])
        // Each marker's outline is drawn in green through its first edge's midpoint.
        for marker in detection.markers {
            let a = marker.corners[0], b = marker.corners[1]
            let x = Int(((a.x + b.x) / 2).rounded()), y = Int(((a.y + b.y) / 2).rounded())
            let pixel = Array(annotated.row(y)[(3 * x)..<(3 * x + 3)])
            #expect(pixel[1] > 100 && pixel[0] < 100 && pixel[2] < 100, "marker \(marker.id) outline at \(x),\(y): \(pixel)")
        }
        // Each board corner gets a magenta circle (BGR 255, 0, 255) of radius 3 around it, centred on
        // the nearest pixel as OpenCV rounds (half to even: the rendered board's corners lie exactly
        // between pixels, at 227.5, 288.5, ...).
        for corner in detection.boardCorners {
            let x = Int(corner.point.x.rounded(.toNearestOrEven)) + 3, y = Int(corner.point.y.rounded(.toNearestOrEven))
            let pixel = Array(annotated.row(y)[(3 * x)..<(3 * x + 3)])
            #expect(pixel[0] > 150 && pixel[2] > 150 && pixel[1] < 100, "corner \(corner.id) at \(x),\(y): \(pixel)")
        }
    }

    @Test func invalidDetectionGetsARedBadgeListingShortfalls() throws {
        let pattern = try Pattern(parsing: "chessboard:9x6")
        let blank = try PixelBuffer(width: 320, height: 240, format: .gray8) { $0.initializeMemory(as: UInt8.self, repeating: 90) }
        let detection = try MarkerDetector(pattern: pattern).detect(blank)
        let badge = Annotation.Badge(detection: detection, rule: ValidityRule(defaultsFor: pattern))
        #expect(badge == Annotation.Badge(text: "INVALID: 0 of 54 corners, sharpness none below 50", isOK: false))
        let annotated = try Annotation.draw(detection, on: blank, badge: badge)
        #expect(Array(annotated.row(2)[0..<3]) == [0, 0, 190])
        // Without a badge nothing is drawn on an empty detection.
        let plain = try Annotation.draw(detection, on: blank, badge: nil)
        #expect((0..<240).allSatisfy { plain.row($0).allSatisfy { $0 == 90 } })
    }
}
