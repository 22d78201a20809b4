@testable import MarkerDetection
import Testing

/// How the frames' findings are weighed into one pattern, or into a doubt, without images.
@Suite struct PatternDecisionTests {
    static func layout(
        _ kind: LayoutObservation.Kind, _ codeSet: CodeSet?, columns: Int?, rows: Int?, minimumRows: Int = 1, first: Int? = nil,
        idsUp: Bool = false, origin: Bool = false, ratio: Double? = nil, features: Int = 20, ids: ClosedRange<Int> = 0...10
    ) -> LayoutObservation {
        LayoutObservation(
            kind: kind, codeSet: codeSet, features: features, minimumID: ids.lowerBound, maximumID: ids.upperBound,
            columns: columns, rows: rows, minimumRows: minimumRows, firstID: first, idsUp: idsUp, markerAtOrigin: origin,
            ratio: ratio, columnsAcross: true, error: 0.5)
    }

    static func frames(_ layouts: [[LayoutObservation]]) -> [FrameEvidence] {
        layouts.map { FrameEvidence(imageSize: ImageSize(width: 640, height: 480), layouts: $0, markers: []) }
    }

    static let dict4x4 = CodeSet.dictionary(.dict4x4_1000)

    @Test func aChArUcoBoardTakesItsRowsFromTheFramesThatShowItsEnd() {
        let seen = Self.layout(.charuco, Self.dict4x4, columns: 8, rows: nil, minimumRows: 6, ratio: 0.75)
        let whole = Self.layout(.charuco, Self.dict4x4, columns: 8, rows: 8, minimumRows: 8, ratio: 0.74)
        let outcome = PatternDecision.decide(Self.frames([[seen], [whole], [seen], [whole], []]))
        #expect(outcome.pattern?.description == "charuco:8x8:DICT_4X4_50:square=1.0,marker=0.75")
        #expect(outcome.frames == 4)
    }

    @Test func noFrameShowingTheEndIsADoubtThatNamesWhatIsKnown() {
        let seen = Self.layout(.charuco, Self.dict4x4, columns: 8, rows: nil, minimumRows: 6, origin: true)
        let outcome = PatternDecision.decide(Self.frames([[seen], [seen]]))
        #expect(outcome.pattern == nil)
        #expect(outcome.doubt == "no frame shows the board's last row")
        #expect(outcome.candidates.first?.text == "charuco:8x?:DICT_4X4_1000 (at least 6 rows, legacy layout)")
    }

    /// Of the nested dictionaries, the smallest that holds every marker of the board.
    @Test func theSmallestDictionaryThatHoldsTheBoardIsNamed() {
        let board = Self.layout(.charuco, .dictionary(.dict6x6_1000), columns: 12, rows: 9)
        #expect(PatternDecision.decide(Self.frames([[board]])).pattern?.description == "charuco:12x9:DICT_6X6_100")
        let grid = Self.layout(.grid, .dictionary(.dict5x5_1000), columns: 4, rows: 3, first: 200, ratio: 0.25)
        #expect(PatternDecision.decide(Self.frames([[grid]])).pattern?.description == "gridboard:4x3:DICT_5X5_250:first=200")
        let beyond = Self.layout(.grid, .dictionary(.dict5x5_1000), columns: 4, rows: 3, first: 240, ratio: 0.27)
        #expect(PatternDecision.decide(Self.frames([[beyond]])).pattern?.description == "gridboard:4x3:DICT_5X5_1000:first=240")
        let loose = Self.layout(.loose, .dictionary(.dict6x6_1000), columns: nil, rows: nil, features: 6, ids: 23...203)
        #expect(PatternDecision.decide(Self.frames([[loose]])).pattern?.description == "aruco:DICT_6X6_250")
    }

    @Test func twoBoardsEquallySupportedAreADoubt() {
        let charuco = Self.layout(.charuco, Self.dict4x4, columns: 5, rows: 7)
        let chessboard = Self.layout(.chessboard, nil, columns: 9, rows: 6, features: 54)
        let outcome = PatternDecision.decide(Self.frames([[charuco], [chessboard], [charuco], [chessboard]]))
        #expect(outcome.pattern == nil)
        #expect(outcome.doubt == "the frames show different boards")
        #expect(outcome.candidates.count == 2)
    }

    /// A board outvotes a board seen in one frame of five, and loose markers never outvote a board.
    @Test func theBoardMostFramesShowWins() {
        let board = Self.layout(.charuco, Self.dict4x4, columns: 5, rows: 7)
        let stray = Self.layout(.grid, .dictionary(.dict6x6_1000), columns: 2, rows: 2, first: 0, features: 4)
        let loose = Self.layout(.loose, .tags(.tag36h11, borderCells: 1), columns: nil, rows: nil, features: 40)
        let outcome = PatternDecision.decide(Self.frames([[board, loose], [board, stray, loose], [board], [board], [loose]]))
        #expect(outcome.pattern?.description == "charuco:5x7:DICT_4X4_50")
    }

    /// Kalibr's AprilGrids count rows up from the bottom; a grid of tags with Kalibr's border that
    /// counts down is no pattern, nor are such tags on their own.
    @Test func gridsAreTheirKindOnlyInTheirOwnNumbering() {
        let aprilGrid = Self.layout(.grid, .tags(.tag36h11, borderCells: 2), columns: 6, rows: 6, first: 0, idsUp: true, ratio: 0.31)
        #expect(PatternDecision.decide(Self.frames([[aprilGrid]])).pattern?.description == "aprilgrid:6x6:tag36h11")
        let down = Self.layout(.grid, .tags(.tag36h11, borderCells: 2), columns: 6, rows: 6, first: 0, idsUp: false)
        #expect(PatternDecision.decide(Self.frames([[down]])).pattern == nil)
        let gridTags = Self.layout(.loose, .tags(.tag36h11, borderCells: 2), columns: nil, rows: nil, features: 70)
        let misread = Self.layout(.loose, Self.dict4x4, columns: nil, rows: nil, features: 3, ids: 100...900)
        let outcome = PatternDecision.decide(Self.frames([[gridTags, misread]]))
        #expect(outcome.pattern == nil)
        #expect(outcome.doubt == "AprilGrid tags were seen, but in no one grid")
    }

    /// One OpenCV dictionary and one libapriltag family with the same codes are one target when
    /// loose: libapriltag's (the better detector). A board is OpenCV's only as OpenCV reads it: its
    /// AprilTag dictionaries read libapriltag's tags turned a half turn, so tags libapriltag read in
    /// rows are loose tags.
    @Test func codesTwoReadersShareAreOneTarget() {
        let byOpenCV = Self.layout(.loose, .dictionary(.aprilTag36h11), columns: nil, rows: nil, features: 10)
        let byLibapriltag = Self.layout(.loose, .tags(.tag36h11, borderCells: 1), columns: nil, rows: nil, features: 12)
        #expect(PatternDecision.decide(Self.frames([[byOpenCV, byLibapriltag]])).pattern?.description == "apriltag:tag36h11")
        let board = Self.layout(.charuco, .dictionary(.aprilTag36h11), columns: 5, rows: 7)
        #expect(PatternDecision.decide(Self.frames([[board]])).pattern?.description == "charuco:5x7:DICT_APRILTAG_36h11")
        let rows = Self.layout(.grid, .tags(.tag36h11, borderCells: 1), columns: 4, rows: 3, first: 0)
        #expect(PatternDecision.decide(Self.frames([[rows]])).pattern?.description == "apriltag:tag36h11")
    }

    @Test func plainBoardsAreNamedAsMostFramesSawThem() {
        let across = Self.layout(.chessboard, nil, columns: 9, rows: 6, features: 54)
        let turned = Self.layout(.chessboard, nil, columns: 6, rows: 9, features: 54)
        #expect(PatternDecision.decide(Self.frames([[across], [turned], [across]])).pattern?.description == "chessboard:9x6")
        let acircles = Self.layout(.acircles, nil, columns: 4, rows: 10, features: 40)
        let other = Self.layout(.acircles, nil, columns: 5, rows: 8, features: 40)
        #expect(PatternDecision.decide(Self.frames([[acircles], [other], [other]])).pattern?.description == "acircles:5x8")
    }

    @Test func nothingSeenIsNoPattern() {
        let outcome = PatternDecision.decide(Self.frames([[], []]))
        #expect(outcome.pattern == nil && outcome.candidates.isEmpty && outcome.doubt == nil)
        #expect(PatternIdentification(pattern: nil, frames: 2, framesShowing: 0, doubt: nil, candidates: []).description
            == "no target found in 2 frames")
    }

    @Test func codeSetsRoundTripThroughTheShimsNumbers() {
        for codeSet in PredefinedDictionary.allCases.map(CodeSet.dictionary)
            + AprilTagFamily.allCases.flatMap({ [CodeSet.tags($0, borderCells: 1), .tags($0, borderCells: 2)] })
        {
            #expect(CodeSet(shimValue: codeSet.shimValue) == codeSet)
        }
        #expect(CodeSet(shimValue: 21) == nil)
        #expect(CodeSet.dictionary(.dict4x4_1000).smallestDictionary(holding: 49) == .dict4x4_50)
        #expect(CodeSet.dictionary(.dict4x4_1000).smallestDictionary(holding: 1000) == nil)
        #expect(CodeSet.dictionary(.aprilTag36h11).smallestDictionary(holding: 586) == .aprilTag36h11)
    }
}
