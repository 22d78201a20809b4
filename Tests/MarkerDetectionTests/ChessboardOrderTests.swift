import Foundation
import MarkerDetection
import MarkerDetectionTestSupport
import Pixels
import Testing

/// A chessboard that looks the same turned half a turn (columns and rows of corners both even or
/// both odd), or a quarter turn (a square one), is numbered in one order whichever search finds it:
/// its rows run down the image, as nearly as the board's turns allow. OpenCV numbers such a board
/// from whichever corner its search started at, which differed between a frame searched alone and
/// the same frame searched where the frame before showed the board (on a real 7x7 folder, corner 0
/// at opposite or neighbouring corners of the board).
@Suite struct ChessboardOrderTests {
    /// `geometry`'s board turned `degrees` in the image plane, seen from a little above and aside in
    /// a 1280x720 frame (large enough for fast mode to shrink).
    static func view(_ geometry: BoardGeometry, turned degrees: Double) throws -> PixelBuffer {
        let (width, height) = (1280, 720)
        let camera = Homography.camera(
            sourceWidth: geometry.width, sourceHeight: geometry.height, targetWidth: width, targetHeight: height,
            tiltX: 12, tiltY: 15, distance: 2.4, focal: Double(width) * 0.75)
        let angle = degrees * .pi / 180
        let (c, s) = (cos(angle), sin(angle))
        let cx = Double(width - 1) / 2, cy = Double(height - 1) / 2
        let tx: Double = cx - c * cx + s * cy
        let ty: Double = cy - s * cx - c * cy
        let turn = Homography([c, -s, tx, s, c, ty, 0, 0, 1])
        let warped = try SyntheticImage.warp(
            geometry.render(), by: turn.composed(after: camera), width: width, height: height, samples: 2)
        return try SyntheticImage.addNoise(SyntheticImage.blur(warped, sigma: 0.8), sigma: 2, seed: 40)
    }

    /// From the mean of the first row to the last's, and of the first column to the last's.
    static func directions(_ detection: Detection, columns: Int, rows: Int) -> (down: ImagePoint, across: ImagePoint) {
        let points = Dictionary(detection.boardCorners.map { ($0.id, $0.point) }, uniquingKeysWith: { first, _ in first })
        func mean(_ ids: [Int]) -> ImagePoint {
            let found = ids.map { points[$0]! }
            return ImagePoint(x: found.map(\.x).reduce(0, +) / Double(found.count), y: found.map(\.y).reduce(0, +) / Double(found.count))
        }
        let first = mean(Array(0..<columns)), last = mean(Array((rows - 1) * columns..<rows * columns))
        let left = mean((0..<rows).map { $0 * columns }), right = mean((0..<rows).map { $0 * columns + columns - 1 })
        return (ImagePoint(x: last.x - first.x, y: last.y - first.y), ImagePoint(x: right.x - left.x, y: right.y - left.y))
    }

    @Test(arguments: ["chessboard:7x7", "chessboard:8x6", "chessboard:9x7"], [10.0, 70.0, 110.0, 200.0, 290.0])
    func everySearchNumbersASymmetricBoardAlike(pattern text: String, degrees: Double) throws {
        let pattern = try Pattern(parsing: text)
        guard case .chessboard(let board) = pattern else { preconditionFailure("a chessboard") }
        let image = try Self.view(BoardGeometry(pattern: pattern, side: 60, margin: 40), turned: degrees)
        let full = try MarkerDetector(pattern: pattern, mode: .full).detect(image)
        let fast = try MarkerDetector(pattern: pattern, mode: .fast)
        let alone = try fast.detect(image)
        var tracker = RegionTracker(margin: RegionTracker.videoMargin)
        tracker.follow(alone, of: pattern)
        let tracked = try fast.detect(image, following: tracker)
        try #require(full.boardCorners.count == board.columns * board.rows, "\(text) turned \(degrees) degrees: found")

        let (down, across) = Self.directions(full, columns: board.columns, rows: board.rows)
        #expect(down.y > 0, "\(text) turned \(degrees) degrees: rows run up (\(down))")
        if board.columns == board.rows {
            #expect(down.y >= abs(across.y), "\(text) turned \(degrees) degrees: columns run down more nearly (\(down), \(across))")
        }
        for (detection, search) in [(alone, "fast mode alone"), (tracked, "fast mode where it was")] {
            #expect(detection.boardCorners.map(\.id) == full.boardCorners.map(\.id), "\(text), \(degrees) degrees, \(search): ids")
            for (found, expected) in zip(detection.boardCorners, full.boardCorners) {
                #expect(found.point.distance(to: expected.point) < 0.01,
                        "\(text), \(degrees) degrees, \(search): corner \(found.id) at \(found.point), full mode's at \(expected.point)")
            }
        }
    }
}
