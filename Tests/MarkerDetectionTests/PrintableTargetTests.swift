import MarkerDetection
import Pixels
import Testing

/// Every printable target is detected completely from its own rendering.
@Suite struct PrintableTargetTests {
    static let targets: [(pattern: String, markers: [Int], corners: Int)] = [
        ("charuco:5x7:DICT_6X6_250", Array(0..<17), 24),
        ("charuco:7x5:DICT_4X4_50:marker=0.03", Array(0..<17), 24),
        ("charuco:6x4:DICT_5X5_100", Array(0..<12), 15),
        ("charuco:6x4:DICT_5X5_100:legacy", Array(0..<12), 15),
        ("charuco:10x8:DICT_APRILTAG_36h11:square=0.03,marker=0.022,legacy", Array(0..<40), 63),
        ("gridboard:5x7:DICT_6X6_250", Array(0..<35), 0),
        ("gridboard:4x3:DICT_7X7_100:marker=0.05,gap=0.02,first=60", Array(60..<72), 0),
        ("chessboard:9x6", [], 54),
        ("chessboard:7x7", [], 49),
    ]

    @Test(arguments: targets.indices, DetectionMode.allCases)
    func renderedTargetIsDetectedCompletely(index: Int, mode: DetectionMode) throws {
        let target = Self.targets[index]
        let pattern = try Pattern(parsing: target.pattern)
        let image = try PrintableTarget.render(pattern, width: 1400, height: 1000)
        #expect(image.format == .gray8 && image.width == 1400 && image.height == 1000)
        // The margin (1/20 of the shorter side) is white all round.
        for y in [0, 49, 950, 999] { #expect(image.row(y).allSatisfy { $0 == 255 }, "row \(y)") }
        #expect((0..<1000).allSatisfy { image.row($0)[0] == 255 && image.row($0)[1399] == 255 })

        let detection = try MarkerDetector(pattern: pattern, mode: mode).detect(image)
        #expect(detection.markers.map(\.id).sorted() == target.markers)
        #expect(detection.boardCorners.map(\.id).sorted() == Array(0..<target.corners))
        #expect(detection.isValid(under: ValidityRule(defaultsFor: pattern)))
    }

    /// A target of 2147483647 pixels a side made OpenCV say "Failed to allocate 4611686014132420609 bytes".
    @Test func targetsLargerThanTheLimitAreRefusedWithTheSize() throws {
        let pattern = try Pattern(parsing: "charuco:5x7:DICT_6X6_250")
        #expect(PrintableTarget.maximumSide == 16384)
        for (width, height) in [(3_000_000_000, 3_000_000_000), (16385, 100), (100, Int.max)] {
            #expect(throws: DetectionError.cannotRender(reason: "\(width)x\(height) pixels is larger than 16384 pixels a side")) {
                try PrintableTarget.render(pattern, width: width, height: height)
            }
        }
        #expect(throws: DetectionError.cannotRender(reason: "cannot draw a 100x0 target with a margin of 5 pixels")) {
            try PrintableTarget.render(pattern, width: 100, height: 0, margin: 5)
        }
    }

    @Test(.enabled(if: SharedImages.available, Comment(rawValue: SharedImages.missing)), arguments: DetectionMode.allCases)
    func customDictionaryGridBoardRoundTrips(mode: DetectionMode) throws {
        let pattern = try Pattern(parsing: "gridboard:5x7:" + SharedImages.path("aruco/gridboard_dict.yml"))
        let image = try PrintableTarget.render(pattern, width: 1000, height: 1400, margin: 30)
        let detection = try MarkerDetector(pattern: pattern, mode: mode).detect(image)
        #expect(detection.markers.map(\.id).sorted() == Array(0..<35))
    }

    @Test func looseMarkersAndTinyImagesCannotBeDrawn() throws {
        #expect(throws: DetectionError.cannotRender(reason: "loose markers have no printable layout; describe a grid board")) {
            try PrintableTarget.render(Pattern(parsing: "aruco:DICT_6X6_250"), width: 500, height: 500)
        }
        #expect(throws: DetectionError.self) {
            try PrintableTarget.render(Pattern(parsing: "charuco:5x7:DICT_6X6_250"), width: 40, height: 40, margin: 2)
        }
    }

    @Test func renderedTargetEncodesAsPNG() throws {
        let image = try PrintableTarget.render(Pattern(parsing: "chessboard:9x6"), width: 800, height: 600)
        let png = try ImageFile.encode(image, as: .png)
        #expect(try ImageFile.header(of: png) == ImageFile.Header(format: .png, width: 800, height: 600))
        let decoded = try ImageFile.decode(png)
        #expect(decoded.row(300) == image.row(300).flatMap { [$0, $0, $0] })
    }
}
