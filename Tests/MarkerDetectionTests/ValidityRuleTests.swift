import MarkerDetection
import Testing

@Suite struct ValidityRuleTests {
    static func detection(markers: Int, corners: Int, sharpness: Double?) -> Detection {
        let square = [ImagePoint(x: 0, y: 0), ImagePoint(x: 1, y: 0), ImagePoint(x: 1, y: 1), ImagePoint(x: 0, y: 1)]
        return Detection(
            imageSize: ImageSize(width: 640, height: 480),
            markers: (0..<markers).map { Marker(id: $0, corners: square) },
            boardCorners: (0..<corners).map { BoardCorner(id: $0, point: ImagePoint(x: Double($0), y: 0)) },
            sharpness: sharpness, duration: .milliseconds(3))
    }

    @Test func defaultsPerPatternKind() throws {
        #expect(ValidityRule(defaultsFor: try Pattern(parsing: "aruco:DICT_6X6_250"))
            == ValidityRule(minimumMarkers: 1, minimumBoardCorners: 0, minimumSharpness: 50))
        #expect(ValidityRule(defaultsFor: try Pattern(parsing: "gridboard:5x7:DICT_6X6_250"))
            == ValidityRule(minimumMarkers: 17, minimumBoardCorners: 0, minimumSharpness: 50))
        #expect(ValidityRule(defaultsFor: try Pattern(parsing: "charuco:5x7:DICT_6X6_250"))
            == ValidityRule(minimumMarkers: 0, minimumBoardCorners: 12, minimumSharpness: 50))
        #expect(ValidityRule(defaultsFor: try Pattern(parsing: "charuco:3x3:DICT_6X6_250"))
            == ValidityRule(minimumMarkers: 0, minimumBoardCorners: 4, minimumSharpness: 50))
        #expect(ValidityRule(defaultsFor: try Pattern(parsing: "charuco:2x3:DICT_6X6_250"))
            == ValidityRule(minimumMarkers: 0, minimumBoardCorners: 2, minimumSharpness: 50))
        #expect(ValidityRule(defaultsFor: try Pattern(parsing: "chessboard:9x6"))
            == ValidityRule(minimumMarkers: 0, minimumBoardCorners: 54, minimumSharpness: 50))
    }

    @Test func everyThresholdIsInclusiveAndReported() {
        let rule = ValidityRule(minimumMarkers: 2, minimumBoardCorners: 3, minimumSharpness: 50)
        #expect(Self.detection(markers: 2, corners: 3, sharpness: 50).isValid(under: rule))
        #expect(rule.shortfalls(of: Self.detection(markers: 1, corners: 3, sharpness: 50)) == [.markers(found: 1, required: 2)])
        #expect(rule.shortfalls(of: Self.detection(markers: 2, corners: 2, sharpness: 50)) == [.boardCorners(found: 2, required: 3)])
        #expect(rule.shortfalls(of: Self.detection(markers: 2, corners: 3, sharpness: 49.9))
            == [.sharpness(measured: 49.9, required: 50)])
        #expect(rule.shortfalls(of: Self.detection(markers: 0, corners: 0, sharpness: nil)) == [
            .markers(found: 0, required: 2), .boardCorners(found: 0, required: 3), .sharpness(measured: nil, required: 50),
        ])
        #expect(ValidityRule.Shortfall.boardCorners(found: 3, required: 12).description == "3 of 12 corners")
        #expect(ValidityRule.Shortfall.sharpness(measured: 12.4, required: 50).description == "sharpness 12 below 50")
    }

    @Test func zeroSharpnessFloorAcceptsUnmeasuredDetections() {
        let rule = ValidityRule(minimumMarkers: 0, minimumBoardCorners: 0, minimumSharpness: 0)
        #expect(rule.accepts(Self.detection(markers: 0, corners: 0, sharpness: nil)))
    }
}
