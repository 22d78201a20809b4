/// Weighs what several frames tell of a target (their ``FrameEvidence``) into one pattern, or into
/// a doubt and the candidates behind it. Pure: no image is looked at here.
///
/// Each frame's board layouts vote for a target of their kind, code set, width and numbering; a
/// frame that does not show the board's width supports every target its markers fit. The target most
/// frames support wins, and only when all of it is known: a size each frame shows only in part
/// (rows, a grid's first id) is taken from the frames that show where the board ends, and a target
/// that as many frames support as the winner, or half as many with as many markers, is a doubt.
/// Loose markers count only when no frame shows a board.
struct PatternDecision {
    /// The outcome: a pattern, or a doubt; candidates with their frames either way.
    struct Outcome: Sendable, Hashable {
        var pattern: Pattern?
        var frames: Int
        /// The frame that showed the pattern with the most features.
        var bestFrame: Int? = nil
        /// The frames that showed it.
        var showing: Set<Int> = []
        var doubt: String?
        var candidates: [PatternIdentification.Candidate]
    }

    /// A board or set of loose markers that frames vote for.
    private struct Key: Hashable {
        var kind: LayoutObservation.Kind
        var codeSet: CodeSet?
        var columns: Int
        var rows: Int  // plain boards only (their sizes are always whole)
        var idsUp: Bool
        var markerAtOrigin: Bool
    }

    /// What the frames that vote for one key tell together.
    private struct Tally {
        var frames = Set<Int>()
        var features = 0
        var rows: [Int: Int] = [:]
        var minimumRows = 0
        var firstIDs: [Int: Int] = [:]
        var ratios: [Double] = []
        var maximumID = 0
        var across = 0, down = 0
        var seenAs: [[Int]: Int] = [:]  // plain boards: (columns, rows) as seen, counted
        var best: (frame: Int, features: Int)?

        mutating func add(_ layout: LayoutObservation, frame: Int) {
            frames.insert(frame)
            note(frame, features: layout.features)
            features += layout.features
            if let rows = layout.rows { self.rows[rows, default: 0] += 1 }
            minimumRows = max(minimumRows, layout.minimumRows)
            if let first = layout.firstID { firstIDs[first, default: 0] += 1 }
            if let ratio = layout.ratio { ratios.append(ratio) }
            maximumID = max(maximumID, layout.maximumID)
            if layout.columnsAcross { across += 1 } else { down += 1 }
        }

        mutating func note(_ frame: Int, features: Int) {
            if features > (best?.features ?? -1) { best = (frame, features) }
        }
    }

    /// Decides from the frames' evidence.
    static func decide(_ evidence: [FrameEvidence]) -> Outcome {
        var boards: [Key: Tally] = [:]
        var partial: [(frame: Int, layout: LayoutObservation)] = []
        var partialPlain: [(frame: Int, layout: LayoutObservation)] = []
        var loose: [Key: Tally] = [:]
        func addLoose(_ codeSet: CodeSet, _ layout: LayoutObservation, _ frame: Int) {
            let key = Key(kind: .loose, codeSet: codeSet, columns: 0, rows: 0, idsUp: false, markerAtOrigin: false)
            var tally = loose[key] ?? Tally()
            tally.frames.insert(frame)
            tally.note(frame, features: layout.features)
            tally.features += layout.features
            tally.maximumID = max(tally.maximumID, layout.maximumID)
            loose[key] = tally
        }
        for (frame, seen) in evidence.enumerated() {
            for layout in seen.layouts {
                let codeSet = layout.codeSet.map { normalized($0, board: layout.kind != .loose) }
                switch layout.kind {
                case .loose:
                    guard let codeSet, layout.features > 0 else { continue }
                    addLoose(codeSet, layout, frame)
                case .grid, .charuco:
                    // Markers in a layout no pattern describes (tags of a family OpenCV has no
                    // dictionary of, in rows) are loose markers.
                    guard supported(layout, codeSet: codeSet) else {
                        if let codeSet = layout.codeSet.map({ normalized($0, board: false) }) { addLoose(codeSet, layout, frame) }
                        continue
                    }
                    guard let columns = layout.columns else {
                        partial.append((frame, layout))
                        continue
                    }
                    let key = Key(
                        kind: layout.kind, codeSet: codeSet, columns: columns, rows: 0, idsUp: layout.idsUp,
                        markerAtOrigin: layout.kind == .charuco && layout.markerAtOrigin)
                    var tally = boards[key] ?? Tally()
                    tally.add(layout, frame: frame)
                    boards[key] = tally
                case .chessboard, .circles, .acircles:
                    guard let columns = layout.columns, let rows = layout.rows else {
                        partialPlain.append((frame, layout))
                        continue
                    }
                    let sizes = equivalentSizes(layout.kind, columns: columns, rows: rows)
                    let canonical = sizes.min { ($0[0], $0[1]) < ($1[0], $1[1]) } ?? [columns, rows]
                    let key = Key(kind: layout.kind, codeSet: nil, columns: canonical[0], rows: canonical[1], idsUp: false, markerAtOrigin: false)
                    var tally = boards[key] ?? Tally()
                    tally.frames.insert(frame)
                    tally.note(frame, features: layout.features)
                    tally.features += layout.features
                    tally.seenAs[[columns, rows], default: 0] += 1
                    boards[key] = tally
                }
            }
        }
        // Frames that showed part of a board too narrow to tell its width support each board their
        // markers fit.
        for (frame, layout) in partial {
            let codeSet = layout.codeSet.map { normalized($0, board: true) }
            for key in boards.keys where key.kind == layout.kind && key.codeSet == codeSet && key.idsUp == layout.idsUp
                && (key.kind != .charuco || key.markerAtOrigin == layout.markerAtOrigin)
            {
                boards[key]?.add(layout, frame: frame)
            }
        }
        // Frames that showed a chessboard or circle grid but not where it ends support each of its kind.
        for (frame, layout) in partialPlain {
            for key in boards.keys where key.kind == layout.kind || (layout.kind == .circles && key.kind == .acircles) {
                boards[key]?.frames.insert(frame)
            }
        }
        let rankedBoards = boards.sorted { rank($0.value) > rank($1.value) }
        if rankedBoards.isEmpty, let (_, layout) = partialPlain.first {
            let kind = layout.kind == .chessboard ? "a chessboard" : "a circle grid"
            let frames = Set(partialPlain.filter { $0.layout.kind == layout.kind }.map(\.frame)).count
            return Outcome(
                pattern: nil, frames: frames, doubt: "\(kind) was seen, but no frame shows where it ends",
                candidates: [.init(text: layout.kind == .chessboard ? "chessboard:?x?" : "circles:?x? or acircles:?x?", frames: frames)])
        }
        if let (key, tally) = rankedBoards.first {
            var candidates = rankedBoards.prefix(4).map { PatternIdentification.Candidate(text: text(of: $0.key, $0.value), frames: $0.value.frames.count) }
            // Another board shown in as many frames, or in half as many with half as much of it:
            // the frames disagree.
            if rankedBoards.count > 1 {
                let (_, second) = rankedBoards[1]
                if second.frames.count >= tally.frames.count
                    || (2 * second.frames.count >= tally.frames.count && 2 * second.features >= tally.features)
                {
                    return Outcome(pattern: nil, frames: tally.frames.count, doubt: "the frames show different boards", candidates: candidates)
                }
            }
            switch pattern(of: key, tally) {
            case .success(let pattern):
                candidates[0] = PatternIdentification.Candidate(text: pattern.description, frames: tally.frames.count)
                return Outcome(
                    pattern: pattern, frames: tally.frames.count, bestFrame: tally.best?.frame, showing: tally.frames, doubt: nil,
                    candidates: candidates)
            case .failure(let doubt):
                return Outcome(pattern: nil, frames: tally.frames.count, doubt: doubt.reason, candidates: candidates)
            }
        }
        // No board: loose markers, as many as most frames show. Tags with Kalibr's border form no
        // pattern on their own: when they lead, the frames show AprilGrid tags in no one grid (two
        // grids, say), and markers of other codes are no more than misreadings beside them.
        let rankedLoose = loose.sorted { rank($0.value) > rank($1.value) }
        guard let (key, tally) = rankedLoose.first else {
            return Outcome(pattern: nil, frames: 0, doubt: nil, candidates: [])
        }
        let candidates = rankedLoose.prefix(4).map { PatternIdentification.Candidate(text: text(of: $0.key, $0.value), frames: $0.value.frames.count) }
        if case .tags(_, 2) = key.codeSet {
            return Outcome(
                pattern: nil, frames: tally.frames.count, doubt: "AprilGrid tags were seen, but in no one grid",
                candidates: candidates)
        }
        // A marker or two now and then may be misread from anything: loose markers count when at
        // least half the frames show them, two a frame or more.
        if 2 * tally.frames.count < evidence.count || tally.features < 2 * tally.frames.count {
            return Outcome(pattern: nil, frames: tally.frames.count, doubt: "too few markers to tell", candidates: candidates)
        }
        if rankedLoose.count > 1 {
            let (_, second) = rankedLoose[1]
            if 2 * second.frames.count >= tally.frames.count && 2 * second.features >= tally.features {
                return Outcome(pattern: nil, frames: tally.frames.count, doubt: "markers of several kinds were seen", candidates: candidates)
            }
        }
        switch pattern(of: key, tally) {
        case .success(let pattern):
            return Outcome(
                    pattern: pattern, frames: tally.frames.count, bestFrame: tally.best?.frame, showing: tally.frames, doubt: nil,
                    candidates: candidates)
        case .failure(let doubt):
            return Outcome(pattern: nil, frames: tally.frames.count, doubt: doubt.reason, candidates: candidates)
        }
    }

    /// Frames first, then features.
    private static func rank(_ tally: Tally) -> (Int, Int) { (tally.frames.count, tally.features) }

    /// One code set for codes two readers share: loose tags are libapriltag's family, whichever
    /// read them. Boards are not merged: OpenCV's AprilTag dictionaries read a tag as libapriltag
    /// draws it turned a half turn, so a ChArUco or grid board of them (drawn by OpenCV) is OpenCV's
    /// and a grid of tags as libapriltag draws them no board OpenCV reads.
    private static func normalized(_ codeSet: CodeSet, board: Bool) -> CodeSet {
        switch codeSet {
        case .dictionary(let name) where !board:
            if let family = AprilTagFamily.allCases.first(where: { PredefinedDictionary(sameCodesAs: $0) == name }) {
                return .tags(family, borderCells: 1)
            }
        default: break
        }
        return codeSet
    }

    /// Board layouts that some pattern describes: grid boards number rows down in OpenCV's
    /// dictionaries, AprilGrids up in a family with Kalibr's border; ChArUco boards use OpenCV's.
    private static func supported(_ layout: LayoutObservation, codeSet: CodeSet?) -> Bool {
        switch (layout.kind, codeSet) {
        case (.grid, .dictionary?): !layout.idsUp
        case (.grid, .tags(let family, 2)?): layout.idsUp && family.hasPlainBorder
        case (.charuco, .dictionary?): true
        default: false
        }
    }

    /// The sizes that describe one plain board: a symmetric grid or chessboard either way round
    /// is found by the same pattern; an asymmetric grid of an even number of rows also as rows of
    /// the other direction.
    private static func equivalentSizes(_ kind: LayoutObservation.Kind, columns: Int, rows: Int) -> [[Int]] {
        switch kind {
        case .acircles: rows % 2 == 0 ? [[columns, rows], [rows / 2, 2 * columns]] : [[columns, rows]]
        default: [[columns, rows], [rows, columns]]
        }
    }

    private struct Doubt: Error {
        var reason: String
    }

    /// The most votes, the larger value on a tie; `nil` when there are none.
    private static func elected(_ votes: [Int: Int]) -> Int? {
        votes.max { ($0.value, $0.key) < ($1.value, $1.key) }?.key
    }

    private static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        return values.sorted()[values.count / 2]
    }

    /// A ratio as it is printed: two decimals.
    private static func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }

    /// The pattern `key` names with what `tally` tells, or what is missing.
    private static func pattern(of key: Key, _ tally: Tally) -> Result<Pattern, Doubt> {
        switch key.kind {
        case .charuco:
            guard let rows = elected(tally.rows.filter { $0.key >= tally.minimumRows }) else {
                return .failure(Doubt(reason: "no frame shows the board's last row"))
            }
            if key.markerAtOrigin && rows % 2 != 0 {
                return .failure(Doubt(reason: "a marker in the top-left square and an odd number of rows fit no ChArUco layout"))
            }
            guard let dictionary = key.codeSet?.smallestDictionary(holding: key.columns * rows / 2 - 1) else {
                return .failure(Doubt(reason: "the board needs more markers than its dictionary holds"))
            }
            var board = CharucoBoard(columns: key.columns, rows: rows, dictionary: .predefined(dictionary))
            if let ratio = median(tally.ratios).map(rounded), abs(ratio - board.markerLength / board.squareLength) > 0.015, ratio < 1 {
                board.squareLength = 1
                board.markerLength = ratio
            }
            board.legacyLayout = key.markerAtOrigin
            return .success(.charuco(board))
        case .grid:
            guard let rows = elected(tally.rows.filter { $0.key >= tally.minimumRows }) else {
                return .failure(Doubt(reason: key.idsUp ? "no frame shows the grid's top and bottom rows" : "no frame shows the board's first and last rows"))
            }
            guard let first = elected(tally.firstIDs) else {
                return .failure(Doubt(reason: "no frame shows where the board's numbering starts"))
            }
            let last = first + key.columns * rows - 1
            switch key.codeSet {
            case .dictionary?:
                guard let dictionary = key.codeSet?.smallestDictionary(holding: last) else {
                    return .failure(Doubt(reason: "the board needs more markers than its dictionary holds"))
                }
                var board = ArucoGridBoard(columns: key.columns, rows: rows, dictionary: .predefined(dictionary))
                board.firstMarker = first
                // A gap is measured as (1 - m) / m from the marker's share m of a pitch, so its
                // error is about twice m's: the default stands within 0.03.
                if let gap = median(tally.ratios).map(rounded), abs(gap - board.markerSeparation / board.markerLength) > 0.03 {
                    board.markerLength = 1
                    board.markerSeparation = gap
                }
                return .success(.gridBoard(board))
            case .tags(let family, 2)?:
                guard last < family.codeCount else {
                    return .failure(Doubt(reason: "the grid needs more tags than \(family) holds"))
                }
                var grid = AprilGrid(columns: key.columns, rows: rows, family: family)
                grid.firstTag = first
                if let spacing = median(tally.ratios).map(rounded), abs(spacing - grid.tagSpacing) > 0.03, spacing > 0, spacing <= 1 {
                    grid.tagSpacing = spacing
                }
                return .success(.aprilGrid(grid))
            default:
                return .failure(Doubt(reason: "no pattern describes this grid"))
            }
        case .chessboard, .circles, .acircles:
            let seen = tally.seenAs.max { ($0.value, $1.key[0]) < ($1.value, $0.key[0]) }?.key ?? [key.columns, key.rows]
            switch key.kind {
            case .chessboard: return .success(.chessboard(Chessboard(columns: seen[0], rows: seen[1])))
            default: return .success(.circleGrid(CircleGrid(columns: seen[0], rows: seen[1], asymmetric: key.kind == .acircles)))
            }
        case .loose:
            switch key.codeSet {
            case .tags(let family, 1)?: return .success(.aprilTag(family, AprilTagOptions()))
            case .dictionary?:
                guard let dictionary = key.codeSet?.smallestDictionary(holding: tally.maximumID) else {
                    return .failure(Doubt(reason: "the markers' ids fit no dictionary"))
                }
                return .success(.aruco(.predefined(dictionary)))
            default: return .failure(Doubt(reason: "these tags form no pattern on their own"))
            }
        }
    }

    /// A candidate as text: its pattern when all of it is known, else what is, `?` for the rest.
    private static func text(of key: Key, _ tally: Tally) -> String {
        if case .success(let pattern) = pattern(of: key, tally) { return pattern.description }
        let name = key.codeSet.map { "\($0)" } ?? ""
        switch key.kind {
        case .charuco: return "charuco:\(key.columns)x?:\(name) (at least \(tally.minimumRows) rows\(key.markerAtOrigin ? ", legacy layout" : ""))"
        case .grid:
            let kind = key.idsUp ? "aprilgrid" : "gridboard"
            return "\(kind):\(key.columns)x?:\(name) (at least \(tally.minimumRows) rows, first id \(elected(tally.firstIDs).map(String.init) ?? "?"))"
        case .loose: return "loose markers of \(name)"
        default: return "\(key.kind):\(key.columns)x\(key.rows)"
        }
    }
}
