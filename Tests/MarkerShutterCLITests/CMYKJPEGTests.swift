import Foundation
import Testing

/// CMYK and YCCK JPEGs (as Adobe's applications write them), whole, cut off and corrupt: `process`
/// and `calibrate` read them with their own decoder, and nothing a C library prints on its own
/// reaches standard error.
@Suite struct CMYKJPEGTests {
    /// The fixtures: the ChArUco board photo saved as an ordinary JPEG, as CMYK and as YCCK.
    static let fixtures = MarkerShutterBinary.packageRoot + "/Tests/Fixtures/cmyk-jpeg"
    static let chessboard = CalibrateCommandTests.chessboard
    static let available = FileManager.default.fileExists(atPath: chessboard + "/left01.jpg")
    static let missing = "the shared photos are not next to the package (../shared/images)"

    /// What libjpeg prints on its own (warnings on corrupt data, a cut-off file) and OpenCV's
    /// wording around it: none of it may reach the user.
    static let rawLibraryWords = ["Corrupt JPEG", "Premature end", "libjpeg", "Warning", "extraneous bytes", "imgcodecs"]

    /// Copies the board fixtures into `folder` as `a-rgb.jpg`, `b-cmyk.jpg`, `c-ycck.jpg`, and makes
    /// from the CMYK one `d-corrupt.jpg` (garbage inside its entropy-coded data and before its
    /// end-of-image marker: libjpeg warns and decodes on) and `e-truncated.jpg` (its first half).
    static func boardFolder(_ folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (fixture, name) in [("board-rgb", "a-rgb"), ("board-cmyk", "b-cmyk"), ("board-ycck", "c-ycck")] {
            try FileManager.default.copyItem(atPath: fixtures + "/\(fixture).jpg", toPath: folder + "/\(name).jpg")
        }
        let cmyk = try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixtures + "/board-cmyk.jpg")))
        try #require(cmyk.suffix(2) == [0xFF, 0xD9])
        var corrupt = cmyk
        let middle = corrupt.count / 2
        for index in 0..<64 { corrupt[middle + index] = UInt8((index * 37) % 255) }
        corrupt.insert(contentsOf: [0x00, 0x11, 0x22, 0x33], at: corrupt.count - 2)
        try Data(corrupt).write(to: URL(fileURLWithPath: folder + "/d-corrupt.jpg"))
        try Data(cmyk.prefix(cmyk.count / 2)).write(to: URL(fileURLWithPath: folder + "/e-truncated.jpg"))
    }

    static func expectNoRawLibraryLines(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for line in text.split(separator: "\n") {
            for words in rawLibraryWords {
                #expect(!line.contains(words), "a library's own line reached the user: \(line)", sourceLocation: sourceLocation)
            }
        }
    }

    /// The markers of a row, by id, each with its corners.
    static func markers(_ row: [String: Any]) -> [Int: [[Double]]] {
        let markers = row["markers"] as? [[String: Any]] ?? []
        return Dictionary(markers.compactMap { marker in
            (marker["id"] as? Int).map { ($0, (marker["corners"] as? [[Double]]) ?? []) }
        }, uniquingKeysWith: { first, _ in first })
    }

    @Test func processReadsCMYKAndYCCKAndPrintsNoLibraryLine() throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try Self.boardFolder(scratch + "/frames")
        let result = try MarkerShutterBinary.run(["process", "frames", "--pattern", "charuco:5x7:DICT_6X6_250"], in: scratch)
        Self.expectNoRawLibraryLines(result.standardError)
        Self.expectNoRawLibraryLines(result.standardOutput)
        // One frame (the cut-off one) is unreadable.
        #expect(result.status == 2, "\(result.standardError)")
        let rows = result.jsonLines
        try #require(rows.count == 5, "\(result.standardOutput)")
        #expect(rows.map { $0["file"] as? String } == ["a-rgb.jpg", "b-cmyk.jpg", "c-ycck.jpg", "d-corrupt.jpg", "e-truncated.jpg"])
        #expect(rows[4]["error"] as? String == "'frames/e-truncated.jpg' is truncated: the image data ends early", "\(rows[4])")
        #expect(rows[3]["error"] == nil, "\(rows[3])")
        // The board as CMYK and as YCCK: the markers and corners of the ordinary JPEG.
        let ordinary = Self.markers(rows[0])
        #expect(ordinary.keys.sorted() == Array(0...16))
        #expect(rows[0]["valid"] as? Bool == true)
        for row in rows[1...2] {
            #expect(row["valid"] as? Bool == true, "\(row)")
            let found = Self.markers(row)
            #expect(found.keys.sorted() == ordinary.keys.sorted(), "\(row)")
            for (id, corners) in ordinary {
                let other = found[id] ?? []
                let furthest = zip(corners, other).map { hypot($0[0] - $1[0], $0[1] - $1[1]) }.max() ?? .infinity
                #expect(other.count == 4 && furthest <= 0.05, "marker \(id) of \(row["file"] ?? ""): \(other) against \(corners)")
            }
            #expect((row["corners"] as? [Any])?.count == (rows[0]["corners"] as? [Any])?.count, "\(row)")
        }
    }

    @Test(.enabled(if: available, Comment(rawValue: missing)))
    func calibrateReadsCMYKAndPrintsNoLibraryLine() throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let photos = scratch + "/photos"
        try Self.boardFolder(scratch + "/boards")
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        for number in 1...9 {
            try FileManager.default.createSymbolicLink(
                atPath: photos + "/left0\(number).jpg", withDestinationPath: Self.chessboard + "/left0\(number).jpg")
        }
        for name in ["b-cmyk.jpg", "c-ycck.jpg", "d-corrupt.jpg"] {
            try FileManager.default.copyItem(atPath: scratch + "/boards/" + name, toPath: photos + "/" + name)
        }
        let result = try MarkerShutterBinary.run(["calibrate", "photos", "--pattern", "chessboard:9x6", "--out", "cam"], in: scratch)
        Self.expectNoRawLibraryLines(result.standardError)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.hasPrefix("photos: detected chessboard:9x6 in 12 pictures, target in 9\n"), "\(result.standardError)")
    }
}
