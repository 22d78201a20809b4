extension Pattern {
    /// Whether `other` is this target at another size: the same kind, counts, dictionary or
    /// family, first id, layout and detector options, with its lengths in the same ratios, in any
    /// unit or none. Pictures detected with one are views of the other, so a size given later
    /// (`--pattern chessboard:9x6:square=25mm` over sidecars of `chessboard:9x6`) applies to them.
    public func isSameTarget(resizedFrom other: Pattern) -> Bool {
        guard let mine = proportions, let theirs = other.proportions else { return self == other }
        guard mine.shape == theirs.shape, mine.ratios.count == theirs.ratios.count else { return false }
        return zip(mine.ratios, theirs.ratios).allSatisfy { abs($0 - $1) <= 1e-9 * max(abs($0), abs($1)) }
    }

    /// The pattern with its lengths divided by its first one and no unit (`shape`), and those
    /// ratios; `nil` for patterns without lengths.
    private var proportions: (shape: Pattern, ratios: [Double])? {
        switch self {
        case .aruco, .aprilTag: return nil
        case .chessboard(var board):
            board.squareLength = 1
            board.unit = nil
            return (.chessboard(board), [])
        case .charuco(var board):
            let ratios = [board.markerLength / board.squareLength]
            (board.squareLength, board.markerLength, board.unit) = (1, 1, nil)
            return (.charuco(board), ratios)
        case .gridBoard(var board):
            let ratios = [board.markerSeparation / board.markerLength]
            (board.markerLength, board.markerSeparation, board.unit) = (1, 1, nil)
            return (.gridBoard(board), ratios)
        case .aprilGrid(var grid):
            (grid.tagSize, grid.unit) = (1, nil)
            return (.aprilGrid(grid), [])
        case .circleGrid(var grid):
            (grid.spacing, grid.unit) = (1, nil)
            return (.circleGrid(grid), [])
        }
    }
}
