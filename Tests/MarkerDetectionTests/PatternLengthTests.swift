import MarkerDetection
import Testing

/// Physical sizes in patterns: one grammar of lengths (``Length``) for every kind, the unit kept
/// on the board and written back.
@Suite struct PatternLengthTests {
    @Test(arguments: [
        ("25mm", 25.0, LengthUnit.millimetre, 0.025), ("2.5cm", 2.5, .centimetre, 0.025), ("0.025m", 0.025, .metre, 0.025),
        ("1in", 1, .inch, 0.0254), ("1.5IN", 1.5, .inch, 0.0381), ("40MM", 40, .millimetre, 0.04), ("1e1mm", 10, .millimetre, 0.01),
    ])
    func lengthsWithAUnitAreInMetres(text: String, value: Double, unit: LengthUnit, metres: Double) throws {
        let length = try #require(Length(parsing: text))
        #expect(length.value == value)
        #expect(length.unit == unit)
        #expect(abs(try #require(length.metres) - metres) < 1e-15)
    }

    @Test func lengthsWithoutAUnitAreBoardUnits() throws {
        let length = try #require(Length(parsing: "0.025"))
        #expect(length.unit == nil)
        #expect(length.metres == nil)
        #expect(length.description == "0.025")
    }

    @Test(arguments: ["", "mm", "0mm", "-3mm", "25 mm", "25ft", "25mmm", "infmm", "nan", "inf", "1e400mm", "2x"])
    func malformedLengthsAreRefused(text: String) {
        #expect(Length(parsing: text) == nil)
    }

    @Test func everyKindTakesALengthWithAUnit() throws {
        #expect(
            try Pattern(parsing: "chessboard:9x6:square=25mm")
                == .chessboard(Chessboard(columns: 9, rows: 6, squareLength: 25, unit: .millimetre)))
        #expect(
            try Pattern(parsing: "charuco:5x7:DICT_6X6_250:square=4cm,marker=3cm")
                == .charuco(
                    CharucoBoard(
                        columns: 5, rows: 7, dictionary: .predefined(.dict6x6_250), squareLength: 4, markerLength: 3,
                        unit: .centimetre)))
        #expect(
            try Pattern(parsing: "gridboard:5x7:DICT_6X6_250:marker=1in,gap=0.25in")
                == .gridBoard(
                    ArucoGridBoard(
                        columns: 5, rows: 7, dictionary: .predefined(.dict6x6_250), markerLength: 1, markerSeparation: 0.25,
                        unit: .inch)))
        #expect(
            try Pattern(parsing: "aprilgrid:6x6:tag36h11:size=0.088m")
                == .aprilGrid(AprilGrid(columns: 6, rows: 6, tagSize: 0.088, unit: .metre)))
        #expect(try Pattern(parsing: "chessboard:9x6:square=25mm").unit == .millimetre)
        #expect(try Pattern(parsing: "aprilgrid:6x6:tag36h11:size=88mm").unit == .millimetre)
    }

    /// Strings without a unit read exactly as before: board units, the defaults as they were.
    @Test func patternsWithoutAUnitAreUnchanged() throws {
        #expect(try Pattern(parsing: "chessboard:9x6") == .chessboard(Chessboard(columns: 9, rows: 6)))
        #expect(try Pattern(parsing: "chessboard:9x6").unit == nil)
        #expect(try Pattern(parsing: "chessboard:9x6:square=0.025") == .chessboard(Chessboard(columns: 9, rows: 6, squareLength: 0.025)))
        let charuco = try Pattern(parsing: "charuco:5x7:DICT_6X6_250")
        #expect(charuco == .charuco(CharucoBoard(columns: 5, rows: 7, dictionary: .predefined(.dict6x6_250))))
        #expect(charuco.unit == nil)
        #expect(try Pattern(parsing: "aprilgrid:6x6:tag36h11") == .aprilGrid(AprilGrid(columns: 6, rows: 6)))
    }

    /// A length left out is the default in metres, in the unit of those given.
    @Test func defaultsFollowTheUnitGiven() throws {
        guard case .charuco(let board) = try Pattern(parsing: "charuco:5x7:DICT_6X6_250:square=40mm") else {
            Issue.record("not a ChArUco board")
            return
        }
        #expect(board.squareLength == 40)
        #expect(board.markerLength == 20)
        #expect(board.unit == .millimetre)
        guard case .gridBoard(let grid) = try Pattern(parsing: "gridboard:5x7:DICT_6X6_250:marker=3cm") else {
            Issue.record("not a grid board")
            return
        }
        #expect(grid.markerLength == 3)
        #expect(grid.markerSeparation == 1)
    }

    @Test(arguments: [
        "chessboard:9x6:square=25mm", "chessboard:9x6:square=0.025", "chessboard:9x6:square=1in",
        "charuco:5x7:DICT_6X6_250:square=40mm,marker=20mm", "charuco:8x6:DICT_4X4_50:square=3.5cm,marker=2.6cm,legacy",
        "gridboard:5x7:DICT_6X6_250:marker=40mm,gap=10mm,first=3", "aprilgrid:6x6:tag36h11:size=88mm",
        "aprilgrid:6x6:tag36h11:size=0.088m,spacing=0.25",
    ])
    func descriptionKeepsTheUnit(text: String) throws {
        let pattern = try Pattern(parsing: text)
        #expect(pattern.description == text)
        #expect(try Pattern(parsing: pattern.description) == pattern)
    }

    /// A default length is written out when the pattern has a unit, so that the unit is not lost.
    @Test func aDefaultLengthIsWrittenWithItsUnit() throws {
        #expect(try Pattern(parsing: "charuco:5x7:DICT_6X6_250:square=40mm").description == "charuco:5x7:DICT_6X6_250:square=40mm,marker=20mm")
        #expect(try Pattern(parsing: "aprilgrid:6x6:tag36h11:size=88mm").description == "aprilgrid:6x6:tag36h11:size=88mm")
    }

    @Test(arguments: [
        ("chessboard:9x6:square=25mm,marker=3mm", "an option (square), found 'marker=3mm'"),
        ("chessboard:9x6:square=25ft", "square=LENGTH with a positive number, with a unit (mm, cm, m, in) or without one, found 'square=25ft'"),
        ("chessboard:9x6:square=-1mm", "square=LENGTH with a positive number"),
        ("charuco:5x7:DICT_6X6_250:square=40mm,marker=0.02", "every length in one unit (or all without one), found square=40mm and marker=0.02"),
        ("charuco:5x7:DICT_6X6_250:square=1in,marker=20mm", "every length in one unit (or all without one), found square=1in and marker=20mm"),
        ("charuco:5x7:DICT_6X6_250:square=15mm", "a marker (20mm) smaller than its square (15mm)"),
        ("aprilgrid:6x6:tag36h11:spacing=3mm", "spacing= a number above 0.0 and at most 1.0, found 'spacing=3mm'"),
    ])
    func malformedSizesSayWhatWasExpected(text: String, expected: String) {
        let error = #expect(throws: PatternSyntaxError.self) { try Pattern(parsing: text) }
        #expect(error?.expected.hasPrefix(expected) == true, "\(error?.expected ?? "no error")")
    }
}
