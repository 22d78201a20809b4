import Foundation
import MarkerDetection
import Testing

@Suite struct PatternTests {
    @Test func parsesTheDocumentedForms() throws {
        #expect(try Pattern(parsing: "aruco:DICT_6X6_250") == .aruco(.predefined(.dict6x6_250)))
        #expect(try Pattern(parsing: "aruco:DICT_APRILTAG_36h11") == .aruco(.predefined(.aprilTag36h11)))
        #expect(try Pattern(parsing: "aruco:dict_apriltag_36H11") == .aruco(.predefined(.aprilTag36h11)))
        #expect(try Pattern(parsing: "aruco:boards/custom.yml") == .aruco(.file(path: "boards/custom.yml")))
        #expect(
            try Pattern(parsing: "charuco:5x7:DICT_6X6_250")
                == .charuco(CharucoBoard(columns: 5, rows: 7, dictionary: .predefined(.dict6x6_250))))
        #expect(
            try Pattern(parsing: "charuco:8x6:DICT_4X4_50:square=0.035,marker=0.026,legacy")
                == .charuco(
                    CharucoBoard(
                        columns: 8, rows: 6, dictionary: .predefined(.dict4x4_50), squareLength: 0.035,
                        markerLength: 0.026, legacyLayout: true)))
        #expect(
            try Pattern(parsing: "gridboard:5x7:DICT_6X6_250:marker=0.05,gap=0.02,first=10")
                == .gridBoard(
                    ArucoGridBoard(
                        columns: 5, rows: 7, dictionary: .predefined(.dict6x6_250), markerLength: 0.05,
                        markerSeparation: 0.02, firstMarker: 10)))
        #expect(try Pattern(parsing: "chessboard:9x6") == .chessboard(Chessboard(columns: 9, rows: 6)))
    }

    @Test(arguments: [
        "aruco:DICT_6X6_250", "aruco:DICT_APRILTAG_36h11", "aruco:../shared/images/aruco/gridboard_dict.yml",
        "gridboard:5x7:DICT_6X6_250", "gridboard:2x3:DICT_4X4_50:marker=0.5,gap=0.125,first=7",
        "charuco:5x7:DICT_6X6_250", "charuco:8x6:DICT_4X4_50:square=0.035,marker=0.026,legacy",
        "charuco:4x4:DICT_5X5_100:legacy", "chessboard:9x6",
        "apriltag:tag36h11", "apriltag:tagCircle21h7:decimate=1.5,sigma=0.8,refine=0",
        "aprilgrid:6x6:tag36h11", "aprilgrid:3x2:tag16h5:size=0.05,spacing=0.2,first=4,sigma=-0.5",
    ])
    func descriptionRoundTrips(text: String) throws {
        let pattern = try Pattern(parsing: text)
        #expect(pattern.description == text)
        #expect(try Pattern(parsing: pattern.description) == pattern)
        #expect(Pattern(pattern.description) == pattern)
    }

    @Test func descriptionIsCanonical() throws {
        #expect(try Pattern(parsing: "ChArUco:5X7:dict_6x6_250:marker=0.02").description == "charuco:5x7:DICT_6X6_250")
    }

    @Test(arguments: [
        ("", "a pattern kind (aruco, gridboard, charuco, chessboard, apriltag, aprilgrid, circles or acircles) followed by ':', found ''"),
        ("qr:DICT_6X6_250", "a pattern kind (aruco, gridboard, charuco, chessboard, apriltag, aprilgrid, circles or acircles) followed by ':', found 'qr'"),
        ("aruco:DICT_6X6_251", "a predefined dictionary ("),
        ("aruco:markers.txt", "a dictionary: an OpenCV name like DICT_6X6_250 or a dictionary file ending in .yml, .yaml, .xml, .json, found 'markers.txt'"),
        ("aruco", "a dictionary: an OpenCV name like DICT_6X6_250"),
        ("aruco:DICT_6X6_250:5x7", "nothing after the pattern, found ':5x7'"),
        ("charuco:DICT_6X6_250:5x7", "a size COLSxROWS in squares, like 5x7, found 'DICT_6X6_250'"),
        ("charuco:1x7:DICT_6X6_250", "a size of 2...1000 squares each way, found 1x7"),
        ("charuco:5x7:DICT_6X6_250:size=3", "an option (square, marker, legacy), found 'size=3'"),
        ("charuco:5x7:DICT_6X6_250:marker=big", "marker=LENGTH with a positive number, found 'marker=big'"),
        ("charuco:5x7:DICT_6X6_250:marker=0.05", "a marker (0.05) smaller than its square (0.04)"),
        ("charuco:5x7:DICT_6X6_250:legacy=yes", "'legacy' alone, without a value, found 'legacy=yes'"),
        ("charuco:5x7:DICT_6X6_250:legacy,legacy", "each option once, found 'legacy' twice"),
        ("gridboard:5x7:DICT_6X6_250:first=-1", "first=N with a whole number N from 0 to 1000000, found 'first=-1'"),
        ("gridboard:5x7:DICT_6X6_250:first=1000001", "first=N with a whole number N from 0 to 1000000, found 'first=1000001'"),
        ("gridboard:2x2:DICT_4X4_50:first=9223372036854775807",
         "first=N with a whole number N from 0 to 1000000, found 'first=9223372036854775807'"),
        ("aprilgrid:6x6:tag36h11:first=9223372036854775807",
         "first=N with a whole number N from 0 to 1000000, found 'first=9223372036854775807'"),
        ("chessboard:9x6x2", "a size COLSxROWS in inner corners, like 5x7, found '9x6x2'"),
        ("chessboard:2x6", "a size of 3...1000 inner corners each way, found 2x6"),
    ])
    func malformedStringsSayWhatWasExpected(text: String, expected: String) {
        let error = #expect(throws: PatternSyntaxError.self) { try Pattern(parsing: text) }
        #expect(error?.text == text)
        #expect(error?.expected.hasPrefix(expected) == true, "\(error?.expected ?? "no error")")
        #expect(error?.description.hasPrefix("invalid pattern '\(text)': expected ") == true)
        #expect(Pattern(text) == nil)
    }

    @Test func grammarNamesEveryKind() {
        for kind in ["aruco:DICTIONARY", "gridboard:COLSxROWS:DICTIONARY", "charuco:COLSxROWS:DICTIONARY", "chessboard:COLSxROWS", "legacy"] {
            #expect(Pattern.grammar.contains(kind))
        }
    }

    /// The usage text states the range `first=` is checked against.
    @Test func grammarStatesTheRangeOfFirst() {
        #expect(Pattern.grammar.contains("ID          the first marker or tag id of the board (the others count on from\n"))
        #expect(Pattern.grammar.contains("it): a whole number from 0 to \(Pattern.maximumID)\n"))
        #expect(Pattern.maximumID == 1_000_000)
    }

    /// The grammar in Docs/formats.md is the text the help prints.
    @Test func theFormatsPageShowsTheGrammarAsTheHelpPrintsIt() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let page = try String(contentsOf: root.appendingPathComponent("Docs/formats.md"), encoding: .utf8)
        #expect(page.contains("as `Pattern.grammar` holds it:\n\n```\n" + Pattern.grammar + "\n```\n"))
    }

    @Test func everyPredefinedDictionaryIsNamedAsOpenCVNamesIt() {
        #expect(PredefinedDictionary.allCases.count == 21)
        #expect(PredefinedDictionary(name: "DICT_7X7_1000") == .dict7x7_1000)
        #expect(PredefinedDictionary(name: "DICT_ARUCO_ORIGINAL") == .arucoOriginal)
        #expect(PredefinedDictionary(name: "DICT_8X8_50") == nil)
    }
}
