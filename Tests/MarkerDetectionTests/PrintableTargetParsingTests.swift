import MarkerDetection
import Testing

/// `board`'s words: which target they name, the height that fits it, and the messages for words
/// that name none.
@Suite struct PrintableTargetParsingTests {
    typealias Target = PrintableTarget.Target

    @Test func wordsAndPatternStringsNameTheSameBoard() throws {
        let charuco = try Target(parsing: ["charuco", "5x7", "DICT_6X6_250"])
        #expect(charuco == .board(try Pattern(parsing: "charuco:5x7:DICT_6X6_250")))
        #expect(try Target(parsing: ["charuco:5x7:DICT_6X6_250"]) == charuco)
        #expect(try Target(parsing: ["charuco:5x7", "DICT_6X6_250"]) == charuco)
        #expect(charuco.name == "charuco:5x7:DICT_6X6_250")
        // `aruco` with a size is a grid board.
        #expect(try Target(parsing: ["aruco", "5x7", "DICT_6X6_250"]) == .board(try Pattern(parsing: "gridboard:5x7:DICT_6X6_250")))
        #expect(try Target(parsing: ["chessboard", "9x6"]).name == "chessboard:9x6")
    }

    @Test func aprilTagWordsWithASizeNameASheet() throws {
        let sheet = try Target(parsing: ["apriltag", "4x3", "tag36h11"])
        guard case .tagSheet(let tags) = sheet else { Issue.record("not a sheet: \(sheet)"); return }
        #expect(tags.columns == 4 && tags.rows == 3 && tags.family == .tag36h11 && tags.firstTag == 0)
        #expect(sheet.name == "4x3 tag36h11 tags from id 0")
        let from30 = try Target(parsing: ["apriltag:4x3:tag25h9:first=20"])
        #expect(from30.name == "4x3 tag25h9 tags from id 20")
        // Fewer than three words is the loose-tag pattern, not a sheet.
        #expect(try PrintableTarget.TagSheet(words: ["apriltag", "tag36h11"]) == nil)
        #expect(try PrintableTarget.TagSheet(words: ["charuco", "5x7", "DICT_6X6_250"]) == nil)
    }

    @Test(arguments: [
        ([], "name the target, e.g. charuco 5x7 DICT_6X6_250"),
        (["apriltag", "4x3", "tag25h9:first=30"], "12 tags from id 30 do not fit in tag25h9's ids 0...34"),
        (["apriltag", "4x3", "tag36h11:first=9223372036854775807"],
         "12 tags from id 9223372036854775807 do not fit in tag36h11's ids 0...586"),
        (["apriltag", "4x3", "tag36h11", "last=3"],
         "a sheet of tags is apriltag COLSxROWS FAMILY[:first=ID], e.g. apriltag 4x3 tag36h11; found 'last=3'"),
        (["apriltag", "0x3", "tag36h11"],
         "a sheet of tags is apriltag COLSxROWS FAMILY[:first=ID], e.g. apriltag 4x3 tag36h11; found apriltag:0x3:tag36h11"),
        (["apriltag", "tag36h11"], "loose tags have no board to print: give a size (apriltag 4x3 tag36h11)"),
        // `aruco` and more words is read as a grid board, which needs a size.
        (["aruco", "DICT_6X6_250"],
         "invalid pattern 'gridboard:DICT_6X6_250': expected a size COLSxROWS in markers, like 5x7, found 'DICT_6X6_250'"),
    ])
    func wordsThatNameNoTargetSayWhy(words: [String], message: String) {
        #expect(throws: (any Error).self) { try Target(parsing: words) }
        do {
            _ = try Target(parsing: words)
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func anUnknownFamilyListsTheKnownOnes() {
        do {
            _ = try Target(parsing: ["apriltag", "4x3", "tag99h1"])
            Issue.record("tag99h1 parsed")
        } catch {
            let names = AprilTagFamily.allCases.map(\.rawValue).joined(separator: ", ")
            #expect(error == .tagSheet("unknown AprilTag family 'tag99h1': expected \(names)"))
        }
    }

    @Test func aStringOutsideTheGrammarIsAPatternError() {
        do {
            _ = try Target(parsing: ["hexboard", "5x7"])
            Issue.record("hexboard parsed")
        } catch {
            guard case .pattern(let syntax) = error else { Issue.record("\(error)"); return }
            #expect(syntax.text == "hexboard:5x7")
            #expect(error.description == "\(syntax)")
        }
    }

    /// Squares as tall as they are wide with a margin of a tenth of the width: 2100 pixels wide
    /// leaves 1680 inside the margins.
    @Test func theFittingHeightKeepsSquaresSquare() throws {
        #expect(try Target(parsing: ["charuco", "5x7", "DICT_6X6_250"]).fittingHeight(width: 2100) == 1680 * 7 / 5 + 420)
        #expect(try Target(parsing: ["aruco", "5x7", "DICT_6X6_250"]).fittingHeight(width: 2100) == 1680 * 7 / 5 + 420)
        // A 9x6 chessboard has 10x7 squares.
        #expect(try Target(parsing: ["chessboard", "9x6"]).fittingHeight(width: 2100) == 1680 * 7 / 10 + 420)
        #expect(try Target(parsing: ["apriltag", "4x3", "tag36h11"]).fittingHeight(width: 2100) == 1680 * 3 / 4 + 420)
        // An AprilGrid: 6 tags and 7 gaps of 0.3 tags each way: square.
        #expect(try Target(parsing: ["aprilgrid", "6x6", "tag36h11"]).fittingHeight(width: 2100) == 2100)
        // Rounded to the nearest pixel: 80 * 6 / 7 + 20 = 88.57.
        #expect(try Target(parsing: ["chessboard", "6x5"]).fittingHeight(width: 100) == 89)
    }

    @Test func aTargetRendersAsThePrintableTargetCallsDo() throws {
        let board = try Target(parsing: ["chessboard", "9x6"])
        let drawn = try board.render(width: 400, height: 304, margin: 20)
        let direct = try PrintableTarget.render(Pattern(parsing: "chessboard:9x6"), width: 400, height: 304, margin: 20)
        #expect(drawn.width == 400 && drawn.height == 304)
        #expect(drawn.withUnsafeBytes { Array($0) } == direct.withUnsafeBytes { Array($0) })
        let sheet = try Target(parsing: ["apriltag", "2x2", "tag36h11:first=5"])
        let tags = try sheet.render(width: 400, height: 400)
        let directTags = try PrintableTarget.renderTagSheet(family: .tag36h11, columns: 2, rows: 2, firstTag: 5, width: 400, height: 400)
        #expect(tags.withUnsafeBytes { Array($0) } == directTags.withUnsafeBytes { Array($0) })
    }
}
