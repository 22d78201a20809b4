import MarkerDetection
import MarkerDetectionTestSupport
import Pixels

/// Where a rendered board's markers and corners are, from the layout rules alone: a board drawn by
/// `PrintableTarget.render` into exactly `columns * side + 2 * margin` pixels across (and likewise
/// down) starts at (margin, margin) with squares of `side` pixels. Pixel centres are at whole
/// coordinates, so the edge between two pixels is at a half.
struct BoardGeometry {
    let pattern: Pattern
    let side: Int
    let margin: Int

    var squares: (columns: Int, rows: Int) {
        switch pattern {
        case .charuco(let board): (board.columns, board.rows)
        case .chessboard(let board): (board.columns + 1, board.rows + 1)
        default: preconditionFailure("only ChArUco boards and chessboards have squares")
        }
    }

    var width: Int { squares.columns * side + 2 * margin }
    var height: Int { squares.rows * side + 2 * margin }

    func render() throws -> PixelBuffer {
        try PrintableTarget.render(pattern, width: width, height: height, margin: margin)
    }

    private func edge(_ squares: Int) -> Double { Double(margin + squares * side) - 0.5 }

    /// Inner corners by id, row by row.
    var corners: [Int: ImagePoint] {
        let columns = squares.columns - 1, rows = squares.rows - 1
        var result: [Int: ImagePoint] = [:]
        for row in 0..<rows {
            for column in 0..<columns {
                result[row * columns + column] = ImagePoint(x: edge(column + 1), y: edge(row + 1))
            }
        }
        return result
    }

    /// ChArUco markers by id, corners clockwise from the top-left: marker n sits in the n-th square
    /// (row by row) that holds one; those are the squares whose column + row is odd, or even in the
    /// legacy layout of boards with an even number of rows.
    var markers: [Int: [ImagePoint]] {
        guard case .charuco(let board) = pattern else { return [:] }
        let markerSide = Double((Double(side) * board.markerLength / board.squareLength).rounded())
        let inset = Double((side - Int(markerSide)) / 2)
        let parity = board.legacyLayout && board.rows % 2 == 0 ? 0 : 1
        var result: [Int: [ImagePoint]] = [:]
        for row in 0..<board.rows {
            for column in 0..<board.columns where (row + column) % 2 == parity {
                let x = edge(column) + inset, y = edge(row) + inset
                result[result.count] = [
                    ImagePoint(x: x, y: y), ImagePoint(x: x + markerSide, y: y),
                    ImagePoint(x: x + markerSide, y: y + markerSide), ImagePoint(x: x, y: y + markerSide),
                ]
            }
        }
        return result
    }
}

extension ImagePoint {
    func mapped(by homography: Homography) -> ImagePoint {
        let point = homography.apply(x: x, y: y)
        return ImagePoint(x: point.x, y: point.y)
    }
}
