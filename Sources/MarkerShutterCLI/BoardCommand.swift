import ArgumentParser
import Foundation
import MarkerDetection
import MarkerShutter

/// `marker-shutter board`: render a printable calibration target.
struct BoardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "board",
        abstract: "Render a printable calibration target to a PNG file.",
        discussion: """
            The target is given as words or as one pattern string: charuco 5x7 DICT_6X6_250 is the same \
            as charuco:5x7:DICT_6X6_250. `aruco` renders an ArUco grid board (gridboard). Print the file \
            without scaling, and give the same pattern to `live` and `process`.

            Examples:
              marker-shutter board charuco 5x7 DICT_6X6_250 --out board.png
              marker-shutter board aruco 5x7 DICT_6X6_250 --width 2480 --out grid.png
              marker-shutter board chessboard 9x6 --out chessboard.png
              marker-shutter board charuco:6x8:DICT_5X5_100:legacy --out legacy.png
            """
    )

    @Argument(help: ArgumentHelp("The target: charuco|aruco|chessboard followed by its size and dictionary, or a pattern string.",
                                 valueName: "target"))
    var target: [String]

    @Option(parsing: .unconditional, help: "Width of the image in pixels.")
    var width: Int = 2100

    @Option(parsing: .unconditional, help: "Height of the image in pixels (default: fits the target's shape).")
    var height: Int?

    @Option(parsing: .unconditional, help: "White margin around the target in pixels (default: a tenth of the shorter side).")
    var margin: Int?

    @Option(help: ArgumentHelp("Where to write the PNG.", valueName: "file"))
    var out: String

    @Flag(help: "Replace the output file if it exists.")
    var force = false

    /// The target as a pattern string: words joined by ":", with `aruco` meaning a grid board.
    var patternText: String {
        var words = target.flatMap { $0.split(separator: ":").map(String.init) }
        if words.first?.lowercased() == "aruco", words.count > 1 { words[0] = "gridboard" }
        return words.joined(separator: ":")
    }

    func validate() throws {
        guard !target.isEmpty else { throw ValidationError("name the target, e.g. charuco 5x7 DICT_6X6_250") }
        do {
            let pattern = try Pattern(parsing: patternText)
            if case .aruco = pattern {
                throw ValidationError("loose markers have no board to print: give a size (aruco 5x7 DICT_6X6_250)")
            }
        } catch let error as ValidationError {
            throw error
        } catch {
            throw ValidationError("\(error)\n\nTargets:\n\(Pattern.grammar)")
        }
        let side = AllowedRange(100...PrintableTarget.maximumSide, unit: "pixels")
        try side.validate(width, option: "--width")
        try side.validate(height, option: "--height")
        try AllowedRange(0...PrintableTarget.maximumSide, unit: "pixels").validate(margin, option: "--margin")
    }

    func run() throws {
        let pattern = try Pattern(parsing: patternText)
        let height = height ?? Self.fittingHeight(for: pattern, width: width)
        let image: [UInt8]
        do {
            let rendered = try PrintableTarget.render(pattern, width: width, height: height, margin: margin)
            image = try ImageFile.encode(rendered, as: .png)
        } catch {
            throw RuntimeError("cannot render \(pattern): \(error)")
        }
        do {
            try AtomicFile.write(image, to: out, replacing: force)
        } catch let error where error.errno == EEXIST {
            throw RuntimeError("\(out) exists; use --force to replace it")
        } catch {
            throw RuntimeError("\(error)")
        }
        print("wrote \(out): \(pattern), \(width)x\(height) pixels")
        if fflush(nil) != 0 { throw RuntimeError("cannot write standard output: \(String(cString: strerror(errno)))") }
    }

    /// A height that gives the board's squares the same size across and down, with the margin.
    static func fittingHeight(for pattern: Pattern, width: Int) -> Int {
        let (columns, rows): (Int, Int)
        switch pattern {
        case .charuco(let board): (columns, rows) = (board.columns, board.rows)
        case .gridBoard(let board): (columns, rows) = (board.columns, board.rows)
        case .chessboard(let board): (columns, rows) = (board.columns + 1, board.rows + 1)
        case .aruco: (columns, rows) = (1, 1)
        }
        let margin = Double(width) / 10
        let inner = Double(width) - 2 * margin
        return Int((inner * Double(rows) / Double(columns) + 2 * margin).rounded())
    }
}
