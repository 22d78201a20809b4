import MarkerDetection
import MarkerDetectionTestSupport
import Pixels
import Testing

@Suite struct MarkerDetectorTests {
    static var pattern: Pattern { get throws { try Pattern(parsing: "charuco:5x7:DICT_6X6_250") } }

    static func board() throws -> PixelBuffer {
        try PrintableTarget.render(pattern, width: 640, height: 480)
    }

    @Test(arguments: [PixelFormat.gray8, .bgr24, .rgb24, .yuyv], DetectionMode.allCases)
    func everyPixelFormatGivesTheSameDetection(format: PixelFormat, mode: DetectionMode) throws {
        let detector = try MarkerDetector(pattern: Self.pattern, mode: mode)
        let gray = try detector.detect(Self.board())
        // Converted, with 13 bytes of padding after each row to exercise the stride.
        let converted = try SyntheticImage.convert(Self.board(), to: format, rowPadding: 13)
        let detection = try detector.detect(converted)
        #expect(detection.markers == gray.markers)
        #expect(detection.boardCorners == gray.boardCorners)
        #expect(detection.sharpness == gray.sharpness)
        #expect(detection.imageSize == ImageSize(width: 640, height: 480))
        #expect(detection.boardCorners.count == 24)
    }

    @Test(arguments: DetectionMode.allCases)
    func borrowedMemoryIsReadInPlace(mode: DetectionMode) throws {
        let board = try Self.board()
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: board.byteCount, alignment: 16)
        board.withUnsafeBytes { memory.copyMemory(from: $0) }
        let borrowed = try PixelBuffer(borrowing: memory, width: 640, height: 480, format: .gray8) { $0.deallocate() }
        let detection = try MarkerDetector(pattern: Self.pattern, mode: mode).detect(borrowed)
        #expect(detection.boardCorners.count == 24)
    }

    @Test(arguments: DetectionMode.allCases)
    func emptyFrameFindsNothing(mode: DetectionMode) throws {
        let blank = try PixelBuffer(width: 320, height: 240, format: .gray8) { $0.initializeMemory(as: UInt8.self, repeating: 200) }
        for text in ["aruco:DICT_6X6_250", "charuco:5x7:DICT_6X6_250", "chessboard:9x6", "gridboard:5x7:DICT_4X4_50"] {
            let pattern = try Pattern(parsing: text)
            let detection = try MarkerDetector(pattern: pattern, mode: mode).detect(blank)
            #expect(detection.isEmpty)
            #expect(detection.sharpness == nil)
            #expect(!detection.isValid(under: ValidityRule(defaultsFor: pattern)))
        }
    }

    @Test(arguments: DetectionMode.allCases)
    func boardPatternsIgnoreMarkersThatAreNotOnTheBoard(mode: DetectionMode) throws {
        // A 5x7 ChArUco board carries markers 0...16; a grid board printed from 20 on is not part of it.
        let others = try PrintableTarget.render(Pattern(parsing: "gridboard:3x2:DICT_6X6_250:first=20"), width: 600, height: 400)
        let detection = try MarkerDetector(pattern: Self.pattern, mode: mode).detect(others)
        #expect(detection.markers.isEmpty)
        let loose = try MarkerDetector(pattern: Pattern(parsing: "aruco:DICT_6X6_250"), mode: mode).detect(others)
        #expect(loose.markers.map(\.id).sorted() == Array(20..<26))
    }

    @Test(arguments: DetectionMode.allCases)
    func sharpnessFallsWithBlur(mode: DetectionMode) throws {
        let detector = try MarkerDetector(pattern: Self.pattern, mode: mode)
        let board = try PrintableTarget.render(Self.pattern, width: 1280, height: 960)
        var values: [Double] = []
        for sigma in [0.5, 1.0, 2.5] {
            let detection = try detector.detect(SyntheticImage.blur(board, sigma: sigma))
            #expect(detection.boardCorners.count == 24)
            values.append(try #require(detection.sharpness))
        }
        #expect(values[0] > values[1] && values[1] > values[2])
        #expect(values[0] > ValidityRule.defaultMinimumSharpness * 10)
        #expect(values[2] < ValidityRule.defaultMinimumSharpness)
    }

    @Test func dictionaryFileProblemsAreTyped() throws {
        #expect(throws: DetectionError.dictionaryUnreadable(path: "/nonexistent/dict.yml", errno: 2)) {
            try MarkerDetector(pattern: Pattern(parsing: "aruco:/nonexistent/dict.yml"))
        }
        if SharedImages.available {
            let notADictionary = SharedImages.path("MANIFEST.md")
            let error = #expect(throws: DetectionError.self) {
                try MarkerDetector(pattern: .aruco(.file(path: notADictionary)))
            }
            guard case .invalidDictionary(let path, _) = error else {
                Issue.record("expected invalidDictionary, got \(String(describing: error))")
                return
            }
            #expect(path == notADictionary)
        }
        #expect(throws: DetectionError.invalidPattern(reason: "the board needs markers 0...71 but the dictionary has only 50 (0...49)")) {
            try MarkerDetector(pattern: Pattern(parsing: "charuco:12x12:DICT_4X4_50"))
        }
    }

    /// Lengths beyond 32-bit floats, ids beyond 32-bit integers: each refused naming the value,
    /// never with OpenCV's own assertion text ("squaresX > 1 && ... markerLength > 0").
    @Test(arguments: [
        ("charuco:5x7:DICT_6X6_250:square=1e300,marker=1e299", "invalid pattern: square=1e+300 is outside 1e-30...1e+30 (lengths are in any one unit)"),
        ("charuco:5x7:DICT_6X6_250:square=1e-300,marker=1e-301", "invalid pattern: square=1e-300 is outside 1e-30...1e+30 (lengths are in any one unit)"),
        ("charuco:5x7:DICT_6X6_250:square=1,marker=0.99999999999",
         "invalid pattern: a ChArUco marker (marker=0.99999999999) must be smaller than its square (square=1)"),
        ("charuco:5x7:DICT_6X6_250:square=1e7,marker=1", "invalid pattern: the board's lengths (square=10000000.000000, marker=1.000000) differ more than 1e+06 times"),
        ("gridboard:5x7:DICT_4X4_50:marker=1e-300", "invalid pattern: marker=1e-300 is outside 1e-30...1e+30 (lengths are in any one unit)"),
        ("gridboard:5x7:DICT_4X4_50:marker=1e300,gap=1e300", "invalid pattern: marker=1e+300 is outside 1e-30...1e+30 (lengths are in any one unit)"),
        ("gridboard:2x2:DICT_4X4_50:first=1000000",
         "invalid pattern: the board needs markers 1000000...1000003 but the dictionary has only 50 (0...49)"),
    ])
    func boardsOpenCVCannotHoldAreRefusedWithTheirValues(text: String, reason: String) throws {
        let pattern = try Pattern(parsing: text)
        #expect(throws: DetectionError.invalidPattern(reason: String(reason.dropFirst("invalid pattern: ".count)))) {
            try MarkerDetector(pattern: pattern)
        }
        let error = #expect(throws: DetectionError.self) { try PrintableTarget.render(pattern, width: 1000, height: 1000) }
        #expect(error?.description == reason)
    }

    /// One detector shared by many tasks at once gives every task the serial result.
    @Test func oneDetectorIsSafeToShareBetweenThreads() async throws {
        let detector = try MarkerDetector(pattern: Self.pattern)
        let frames = try [0.0, 0.7, 1.2, 1.6].map { try $0 == 0 ? Self.board() : SyntheticImage.blur(Self.board(), sigma: $0) }
        let serial = try frames.map { try detector.detect($0) }
        try await withThrowingTaskGroup(of: (Int, Detection).self) { group in
            for round in 0..<24 {
                let index = round % frames.count
                let frame = frames[index]
                group.addTask { (index, try detector.detect(frame)) }
            }
            for try await (index, detection) in group {
                #expect(detection.markers == serial[index].markers)
                #expect(detection.boardCorners == serial[index].boardCorners)
                #expect(detection.sharpness == serial[index].sharpness)
            }
        }
    }

    @Test func durationIsMeasured() throws {
        let detection = try MarkerDetector(pattern: Self.pattern).detect(Self.board())
        #expect(detection.duration > .zero)
    }

    @Test func openCVThreadCountCanBeSetAndRestored() {
        let before = MarkerDetector.openCVThreadCount
        MarkerDetector.openCVThreadCount = 1
        #expect(MarkerDetector.openCVThreadCount == 1)
        MarkerDetector.openCVThreadCount = -1
        #expect(MarkerDetector.openCVThreadCount == before)
    }
}
