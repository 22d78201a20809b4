#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
public import MarkerDetection
public import Pixels

/// A set of folders of rendered boards for measuring target identification: boards of every kind
/// the patterns describe, in many sizes, dictionaries and families, both ChArUco layouts, grid boards
/// and AprilGrids that start at other ids, circle grids, sheets of loose tags; each drawn as `board`
/// draws it and seen in a few frames from other places, blurred and noisy, against a gray of its own.
/// Every frame follows from the case's seed alone.
public enum IdentificationSet {
    /// One folder: the target it shows, as a pattern string, and how its frames are made.
    public struct Case: Sendable, CustomStringConvertible {
        /// The pattern (for a sheet of loose tags, `apriltag:FAMILY`).
        public let truth: String
        /// For a sheet of loose AprilTags (`board apriltag`): its columns and rows and first id.
        public let sheet: (columns: Int, rows: Int, first: Int)?
        /// For markers strewn at random: how many (ids at random too).
        public let scattered: Int?
        /// Seeds the frames.
        public let seed: UInt64
        /// How far the views turn the board in its own plane, in degrees (either way).
        public let roll: Double

        public init(
            _ truth: String, sheet: (columns: Int, rows: Int, first: Int)? = nil, scattered: Int? = nil, seed: UInt64, roll: Double = 20
        ) {
            self.truth = truth
            self.sheet = sheet
            self.scattered = scattered
            self.seed = seed
            self.roll = roll
        }

        public var description: String { truth }
    }

    /// The cases: 68 folders.
    public static let cases: [Case] = [
        // ChArUco: sizes, dictionaries, proportions, both layouts of boards with an even number of rows.
        Case("charuco:5x7:DICT_6X6_250", seed: 1),
        Case("charuco:7x5:DICT_4X4_50:square=1,marker=0.75", seed: 2),
        Case("charuco:8x6:DICT_5X5_100:square=0.035,marker=0.026", seed: 3),
        Case("charuco:8x6:DICT_5X5_100:square=0.035,marker=0.026,legacy", seed: 4),
        Case("charuco:6x6:DICT_4X4_50:legacy", seed: 5),
        Case("charuco:6x6:DICT_4X4_50", seed: 6),
        Case("charuco:10x7:DICT_7X7_250:square=1,marker=0.7", seed: 7),
        Case("charuco:12x9:DICT_4X4_100:square=1,marker=0.8", seed: 8),
        Case("charuco:4x4:DICT_ARUCO_ORIGINAL", seed: 9),
        Case("charuco:9x6:DICT_APRILTAG_36h11:square=1,marker=0.6", seed: 10),
        Case("charuco:8x8:DICT_4X4_1000:square=1,marker=0.75", seed: 11),
        Case("charuco:8x8:DICT_4X4_1000:square=1,marker=0.75,legacy", seed: 12),
        Case("charuco:5x4:DICT_6X6_1000:square=1,marker=0.65,legacy", seed: 13),
        Case("charuco:11x8:DICT_5X5_250:square=1,marker=0.7", seed: 14),
        Case("charuco:3x5:DICT_7X7_50", seed: 15),
        Case("charuco:7x10:DICT_APRILTAG_25h9:square=1,marker=0.75", seed: 16),
        Case("charuco:6x8:DICT_6X6_250:square=1,marker=0.72,legacy", seed: 17, roll: 170),
        // Grid boards: first ids, gaps, dictionaries.
        Case("gridboard:5x7:DICT_6X6_250", seed: 21),
        Case("gridboard:4x3:DICT_4X4_50:first=12", seed: 22),
        Case("gridboard:6x4:DICT_5X5_100:marker=1,gap=0.5,first=40", seed: 23),
        Case("gridboard:3x3:DICT_7X7_1000:first=100", seed: 24),
        Case("gridboard:7x5:DICT_ARUCO_ORIGINAL:marker=1,gap=0.2", seed: 25),
        Case("gridboard:5x5:DICT_APRILTAG_36h11:first=25", seed: 26),
        Case("gridboard:8x6:DICT_4X4_250:marker=1,gap=0.35,first=96", seed: 27),
        Case("gridboard:4x6:DICT_5X5_1000:first=500", seed: 28, roll: 100),
        Case("gridboard:6x3:DICT_6X6_50:first=18", seed: 29),
        Case("gridboard:2x4:DICT_APRILTAG_16h5:first=6", seed: 30),
        // Kalibr's AprilGrid: families, first ids, spacings.
        Case("aprilgrid:6x6:tag36h11", seed: 41),
        Case("aprilgrid:4x5:tag25h9:spacing=0.25", seed: 42),
        Case("aprilgrid:5x4:tag16h5:first=5", seed: 43),
        Case("aprilgrid:7x5:tag36h11:spacing=0.4,first=50", seed: 44),
        Case("aprilgrid:3x3:tag36h10:first=9", seed: 45),
        Case("aprilgrid:8x5:tag36h11:first=100", seed: 46, roll: 180),
        // Chessboards.
        Case("chessboard:9x6", seed: 51),
        Case("chessboard:7x5", seed: 52),
        Case("chessboard:8x6", seed: 53),
        Case("chessboard:5x8", seed: 54),
        Case("chessboard:11x8", seed: 55),
        Case("chessboard:4x3", seed: 56),
        Case("chessboard:6x6", seed: 57),
        Case("chessboard:10x7", seed: 58, roll: 90),
        // Circle grids.
        Case("circles:7x6", seed: 61),
        Case("circles:4x5", seed: 62),
        Case("circles:10x8", seed: 63),
        Case("circles:5x3", seed: 64),
        Case("acircles:4x11", seed: 65),
        Case("acircles:5x7", seed: 66),
        Case("acircles:3x9", seed: 67),
        Case("acircles:6x13", seed: 68),
        Case("acircles:4x10", seed: 69),
        Case("circles:6x9", seed: 70, roll: 90),
        // Sheets of AprilTags in rows, as libapriltag draws them: loose tags (OpenCV's AprilTag
        // dictionaries read them turned a half turn, so they are no grid board of OpenCV's).
        Case("apriltag:tag36h11", sheet: (4, 3, 0), seed: 81),
        Case("apriltag:tagStandard41h12", sheet: (3, 3, 7), seed: 82),
        Case("apriltag:tagCircle21h7", sheet: (3, 2, 4), seed: 83),
        Case("apriltag:tag25h9", sheet: (3, 3, 20), seed: 84),
        Case("apriltag:tagStandard52h13", sheet: (4, 2, 1000), seed: 85),
        Case("apriltag:tagCustom48h12", sheet: (3, 2, 300), seed: 86),
        Case("apriltag:tag36h10", sheet: (3, 3, 2000), seed: 87),
        Case("apriltag:tagCircle49h12", sheet: (2, 2, 60000), seed: 88),
        // Loose markers and tags strewn at random, ids at random.
        Case("aruco:DICT_6X6_250", scattered: 9, seed: 101),
        Case("aruco:DICT_4X4_50", scattered: 7, seed: 102),
        Case("aruco:DICT_5X5_1000", scattered: 8, seed: 103),
        Case("aruco:DICT_ARUCO_ORIGINAL", scattered: 6, seed: 104),
        Case("apriltag:tag36h11", scattered: 8, seed: 105),
        Case("apriltag:tagStandard41h12", scattered: 6, seed: 106),
        Case("apriltag:tag25h9", scattered: 7, seed: 107),
        // More of the common boards, at other places.
        Case("charuco:5x7:DICT_6X6_250", seed: 91, roll: 60),
        Case("chessboard:9x6", seed: 92, roll: 45),
    ]

    /// The board the case shows, drawn about `width` pixels across as `board` draws it.
    public static func board(for item: Case, width: Int = 1200) throws -> PixelBuffer {
        let pattern = try Pattern(parsing: item.truth)
        if let sheet = item.sheet, case .aprilTag(let family, _) = pattern {
            let height = width * sheet.rows / sheet.columns
            return try PrintableTarget.renderTagSheet(
                family: family, columns: sheet.columns, rows: sheet.rows, firstTag: sheet.first, width: width, height: height)
        }
        if let count = item.scattered { return try strewn(pattern, count: count, seed: item.seed, width: width) }
        let target = PrintableTarget.Target.board(pattern)
        return try target.render(width: width, height: target.fittingHeight(width: width))
    }

    /// `count` markers (or tags) of the loose pattern's dictionary (family), ids at random, each as
    /// one marker drawn by `board`, strewn at random over a white sheet `width` pixels square without
    /// overlapping: cells of a 4x4 layout, each marker of a random size inside a random cell.
    static func strewn(_ pattern: Pattern, count: Int, seed: UInt64, width: Int) throws -> PixelBuffer {
        var random = SplitMix64(seed: seed)
        var cells = Array(0..<16)
        for index in stride(from: cells.count - 1, to: 0, by: -1) { cells.swapAt(index, Int(random.next() % UInt64(index + 1))) }
        let cell = width / 4
        var sheet = [UInt8](repeating: 255, count: width * width)
        var used = Set<Int>()
        for place in cells.prefix(count) {
            let side = cell * (55 + Int(random.next() % 35)) / 100
            let marker: PixelBuffer
            switch pattern {
            case .aruco(.predefined(let name)):
                var id = Int(random.next() % UInt64(name.markerCount))
                while !used.insert(id).inserted { id = (id + 1) % name.markerCount }
                marker = try PrintableTarget.render(Pattern(parsing: "gridboard:1x1:\(name):first=\(id)"), width: side, height: side, margin: side / 8)
            case .aprilTag(let family, _):
                var id = Int(random.next() % UInt64(family.codeCount))
                while !used.insert(id).inserted { id = (id + 1) % family.codeCount }
                marker = try PrintableTarget.renderTagSheet(family: family, columns: 1, rows: 1, firstTag: id, width: side, height: side, margin: side / 8)
            default:
                throw PatternSyntaxError(text: pattern.description, expected: "loose markers of a predefined dictionary or family")
            }
            let x = (place % 4) * cell + Int(random.next() % UInt64(cell - side + 1))
            let y = (place / 4) * cell + Int(random.next() % UInt64(cell - side + 1))
            marker.withUnsafeBytes { pixels in
                for row in 0..<side {
                    for column in 0..<side { sheet[(y + row) * width + x + column] = pixels[row * marker.rowStride + column] }
                }
            }
        }
        return try PixelBuffer(copying: sheet, width: width, height: width, format: .gray8)
    }

    /// The case's `count` frames of `width` x `height` pixels: the board tilted up to 35 degrees each
    /// way, turned up to ``Case/roll`` in its plane, spanning 40 to 85% of the frame, off centre by up
    /// to a tenth, blurred (sigma 0.4 to 1.2 px) and noisy (1 to 4 gray levels), on a gray ground.
    public static func frames(for item: Case, count: Int = 5, width: Int = 800, height: Int = 600) throws -> [PixelBuffer] {
        let board = try Self.board(for: item)
        var random = SplitMix64(seed: item.seed &* 7919)
        func uniform(_ range: ClosedRange<Double>) -> Double { range.lowerBound + (range.upperBound - range.lowerBound) * random.nextUniform() }
        var frames: [PixelBuffer] = []
        for index in 0..<count {
            let focal = Double(width) * 1.1
            let span = uniform(0.4...0.85)
            // The board is scaled to a width of 1 on its plane; its shorter side must fit too.
            let aspect = max(1, Double(board.height) / Double(board.width) * Double(width) / Double(height))
            let distance = focal / (span * Double(width)) * aspect
            let view = Homography.camera(
                sourceWidth: board.width, sourceHeight: board.height, targetWidth: width, targetHeight: height,
                tiltX: uniform(-35...35), tiltY: uniform(-35...35), distance: distance, focal: focal)
            let angle = uniform(-item.roll...item.roll) * .pi / 180
            let (cx, cy) = (Double(board.width - 1) / 2, Double(board.height - 1) / 2)
            let roll = Homography([
                cos(angle), -sin(angle), cx - cos(angle) * cx + sin(angle) * cy,
                sin(angle), cos(angle), cy - sin(angle) * cx - cos(angle) * cy,
                0, 0, 1,
            ])
            let shift = Homography([
                1, 0, uniform(-0.1...0.1) * Double(width), 0, 1, uniform(-0.1...0.1) * Double(height), 0, 0, 1,
            ])
            let ground = UInt8(uniform(60...180))
            let warped = try SyntheticImage.warp(
                board, by: shift.composed(after: view.composed(after: roll)), width: width, height: height, background: ground,
                samples: 2)
            let blurred = try SyntheticImage.blur(warped, sigma: uniform(0.4...1.2))
            frames.append(try SyntheticImage.addNoise(blurred, sigma: uniform(1...4), seed: item.seed &* 31 &+ UInt64(index)))
        }
        return frames
    }

    /// How one case came out: what was found, whether it is the truth, and of the frames where the
    /// true pattern's detector finds the board, those where the identified pattern's does too.
    public struct Outcome: Sendable {
        public var truth: String
        public var found: String
        public var correct: Bool
        public var sure: Bool
        public var truthFrames: Int
        public var foundFrames: Int

        /// `ok`, `unsure` or `WRONG` (sure, and not the truth).
        public var mark: String { correct ? "ok    " : sure ? "WRONG " : "unsure" }
    }

    /// Identifies `item`'s frames (its seed moved by `seedOffset`) with `identifier` and counts, frame
    /// by frame, where the true pattern's detector finds the board and where the identified one's does.
    public static func measure(_ item: Case, seedOffset: UInt64, with identifier: PatternIdentifier) throws -> Outcome {
        let moved = Case(item.truth, sheet: item.sheet, scattered: item.scattered, seed: item.seed &+ seedOffset, roll: item.roll)
        let truth = try Pattern(parsing: moved.truth)
        let frames = try Self.frames(for: moved)
        let identification = try identifier.identify(frames)
        let truthDetector = try MarkerDetector(pattern: truth)
        let foundDetector = try identification.pattern.map { try MarkerDetector(pattern: $0) }
        var truthFrames = 0, foundFrames = 0
        for frame in frames where !(try truthDetector.detect(frame).isEmpty) {
            truthFrames += 1
            if let foundDetector, !(try foundDetector.detect(frame).isEmpty) { foundFrames += 1 }
        }
        return Outcome(
            truth: moved.truth, found: identification.description,
            correct: identification.pattern.map { equivalent($0, truth) } ?? false, sure: identification.isSure,
            truthFrames: truthFrames, foundFrames: foundFrames)
    }

    /// Whether `found` describes the same target as `truth`: the same kind, size, first id and
    /// layout; the same codes for every id the target carries (a dictionary of the same nest that
    /// holds them); proportions within 0.02 (ChArUco) or 0.05 (gaps, spacings); and a chessboard or
    /// symmetric circle grid either way round (one pattern finds both), an asymmetric grid in either
    /// of its descriptions.
    public static func equivalent(_ found: Pattern, _ truth: Pattern) -> Bool {
        switch (found, truth) {
        case (.charuco(let a), .charuco(let b)):
            let markers = b.markerCount
            return a.columns == b.columns && a.rows == b.rows
                && sameCodes(a.dictionary, b.dictionary, upTo: markers - 1)
                && (b.rows % 2 != 0 || a.legacyLayout == b.legacyLayout)
                && abs(a.markerLength / a.squareLength - b.markerLength / b.squareLength) <= 0.02
        case (.gridBoard(let a), .gridBoard(let b)):
            return a.columns == b.columns && a.rows == b.rows && a.firstMarker == b.firstMarker
                && sameCodes(a.dictionary, b.dictionary, upTo: b.firstMarker + b.markerCount - 1)
                && abs(a.markerSeparation / a.markerLength - b.markerSeparation / b.markerLength) <= 0.05
        case (.aprilGrid(let a), .aprilGrid(let b)):
            return a.columns == b.columns && a.rows == b.rows && a.family == b.family && a.firstTag == b.firstTag
                && abs(a.tagSpacing - b.tagSpacing) <= 0.05
        case (.chessboard(let a), .chessboard(let b)):
            return (a.columns, a.rows) == (b.columns, b.rows) || (a.columns, a.rows) == (b.rows, b.columns)
        case (.circleGrid(let a), .circleGrid(let b)):
            guard a.asymmetric == b.asymmetric else { return false }
            if (a.columns, a.rows) == (b.columns, b.rows) { return true }
            if !b.asymmetric { return (a.columns, a.rows) == (b.rows, b.columns) }
            return b.rows % 2 == 0 && (a.columns, a.rows) == (b.rows / 2, 2 * b.columns)
        case (.aprilTag(let a, _), .aprilTag(let b, _)):
            return a == b
        case (.aruco(let a), .aruco(let b)):
            return sameCodes(a, b, upTo: 0)
        default:
            return false
        }
    }

    /// Whether two predefined dictionaries give the same codes to ids 0 ... `last`: the same one, or
    /// two of a nest (`DICT_4X4_50` is the first codes of `DICT_4X4_1000`) that both hold them.
    static func sameCodes(_ a: MarkerDictionary, _ b: MarkerDictionary, upTo last: Int) -> Bool {
        guard case .predefined(let x) = a, case .predefined(let y) = b else { return a == b }
        if x == y { return true }
        func nest(_ name: PredefinedDictionary) -> (bits: String, count: Int)? {
            let parts = name.rawValue.split(separator: "_")
            guard parts.count == 3, parts[1].contains("X"), let count = Int(parts[2]) else { return nil }
            return (String(parts[1]), count)
        }
        guard let p = nest(x), let q = nest(y), p.bits == q.bits else { return false }
        return last < p.count && last < q.count
    }
}
