import ArgumentParser
import FileFormats
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
            as charuco:5x7:DICT_6X6_250. `aruco` renders an ArUco grid board (gridboard). `aprilgrid` renders \
            Kalibr's AprilGrid; `apriltag COLSxROWS FAMILY[:first=ID]` a sheet of loose AprilTags, ids row by \
            row from the top-left, to detect with apriltag:FAMILY. Print the file without scaling, and give \
            the same pattern to `live` and `process`.

            --out writes a new file, or replaces a regular file only with --force; `-` is standard \
            output (the line saying what was written then goes to standard error); a device, FIFO or \
            symbolic link is written through, never replaced.

            Exit status: 0 the file written; 1 nothing written (the file exists and --force was not given, \
            or it cannot be written) or standard output cannot be written; 64 a usage error (an unknown \
            target, a size outside its range, a board its dictionary cannot hold, a target that does not \
            fit the image).

            Examples:
              marker-shutter board charuco 5x7 DICT_6X6_250 --out board.png
              marker-shutter board aruco 5x7 DICT_6X6_250 --width 2480 --out grid.png
              marker-shutter board chessboard 9x6 --out chessboard.png
              marker-shutter board charuco:6x8:DICT_5X5_100:legacy --out legacy.png
              marker-shutter board aprilgrid 6x6 tag36h11 --out aprilgrid.png
              marker-shutter board apriltag 4x3 tag36h11 --out tags.png
            """
    )

    @Argument(help: ArgumentHelp("The target: charuco|aruco|chessboard|aprilgrid|apriltag followed by its size and dictionary or family, or a pattern string.",
                                 valueName: "target"))
    var target: [String]

    /// The sizes `--width` and `--height` may have.
    static let sides = AllowedRange(100...PrintableTarget.maximumSide, unit: "pixels")
    /// The margins `--margin` may have.
    static let margins = AllowedRange(0...PrintableTarget.maximumSide, unit: "pixels")

    @Option(parsing: .unconditional, help: "Width of the image in pixels (\(sides)).",
            transform: sides.parse(option: "--width"))
    var width: Int = 2100

    @Option(parsing: .unconditional, help: "Height of the image in pixels (default: fits the target's shape; \(sides)).",
            transform: sides.parse(option: "--height"))
    var height: Int?

    @Option(parsing: .unconditional, help: "White margin around the target in pixels (default: a tenth of the shorter side; \(margins)).",
            transform: margins.parse(option: "--margin"))
    var margin: Int?

    @Option(help: ArgumentHelp("Where to write the PNG.", valueName: "file"))
    var out: String

    @Flag(help: "Replace the output file if it exists.")
    var force = false

    /// The target as a pattern string: words joined by ":", with `aruco` meaning a grid board.
    var patternText: String {
        var words = words
        if words.first?.lowercased() == "aruco", words.count > 1 { words[0] = "gridboard" }
        return words.joined(separator: ":")
    }

    /// A sheet of loose AprilTags: `apriltag COLSxROWS FAMILY[:first=ID]`.
    struct TagSheet {
        let columns: Int
        let rows: Int
        let family: AprilTagFamily
        let firstTag: Int

        /// The sheet `words` ask for, `nil` when they name another target.
        /// - Throws: `ValidationError` for a malformed sheet.
        init?(words: [String]) throws {
            guard words.first?.lowercased() == "apriltag", words.count > 2 else { return nil }
            let usage = "a sheet of tags is apriltag COLSxROWS FAMILY[:first=ID], e.g. apriltag 4x3 tag36h11"
            let size = words[1].lowercased().split(separator: "x").compactMap { Int($0) }
            guard words.count == 3 || words.count == 4, size.count == 2, (1...100).contains(size[0]), (1...100).contains(size[1])
            else { throw ValidationError("\(usage); found \(words.joined(separator: ":"))") }
            guard let family = AprilTagFamily(name: words[2]) else {
                let names = AprilTagFamily.allCases.map(\.rawValue).joined(separator: ", ")
                throw ValidationError("unknown AprilTag family '\(words[2])': expected \(names)")
            }
            var first = 0
            if words.count == 4 {
                guard words[3].lowercased().hasPrefix("first="), let value = Int(words[3].dropFirst(6)), value >= 0 else {
                    throw ValidationError("\(usage); found '\(words[3])'")
                }
                first = value
            }
            // Compared as a difference: `first + count` overflows for an id near `Int.max`.
            guard first <= family.codeCount - size[0] * size[1] else {
                throw ValidationError(
                    "\(size[0] * size[1]) tags from id \(first) do not fit in \(family)'s ids 0...\(family.codeCount - 1)")
            }
            (columns, rows, self.family, firstTag) = (size[0], size[1], family, first)
        }
    }

    /// The target words, split at ":".
    private var words: [String] { target.flatMap { $0.split(separator: ":").map(String.init) } }

    func validate() throws {
        guard !target.isEmpty else { throw ValidationError("name the target, e.g. charuco 5x7 DICT_6X6_250") }
        if try TagSheet(words: words) != nil { return try validateSizes() }
        do {
            let pattern = try Pattern(parsing: patternText)
            if case .aruco = pattern {
                throw ValidationError("loose markers have no board to print: give a size (aruco 5x7 DICT_6X6_250)")
            }
            if case .aprilTag(let family, _) = pattern {
                throw ValidationError("loose tags have no board to print: give a size (apriltag 4x3 \(family))")
            }
        } catch let error as ValidationError {
            throw error
        } catch {
            throw ValidationError("\(error)\n\nTargets:\n\(Pattern.grammar)")
        }
        try validateSizes()
    }

    private func validateSizes() throws {
        try Self.sides.validate(width, option: "--width")
        try Self.sides.validate(height, option: "--height")
        try Self.margins.validate(margin, option: "--margin")
    }

    func run() throws {
        let destination: SafeOutput.Destination
        do {
            destination = try SafeOutput.destination(for: out, replacing: force)
        } catch {
            throw RuntimeError("\(error)")
        }
        let name: String
        let height: Int
        let image: [UInt8]
        if let sheet = try TagSheet(words: words) {
            name = "\(sheet.columns)x\(sheet.rows) \(sheet.family) tags from id \(sheet.firstTag)"
            height = self.height ?? Self.fittingHeight(columns: Double(sheet.columns), rows: Double(sheet.rows), width: width)
            do {
                let rendered = try PrintableTarget.renderTagSheet(
                    family: sheet.family, columns: sheet.columns, rows: sheet.rows, firstTag: sheet.firstTag, width: width,
                    height: height, margin: margin)
                image = try ImageFile.encode(rendered, as: .png)
            } catch {
                throw Self.renderingError(error, of: name)
            }
        } else {
            let pattern = try Pattern(parsing: patternText)
            name = pattern.description
            height = self.height ?? Self.fittingHeight(for: pattern, width: width)
            do {
                let rendered = try PrintableTarget.render(pattern, width: width, height: height, margin: margin)
                image = try ImageFile.encode(rendered, as: .png)
            } catch {
                throw Self.renderingError(error, of: pattern.description)
            }
        }
        do {
            try destination.write(image, replacing: force)
        } catch let error where error.errno == EEXIST {
            throw RuntimeError("\(OutputError.exists(out))")
        } catch {
            throw RuntimeError("\(error)")
        }
        let summary = "wrote \(destination == .standardOutput ? "standard output" : out): \(name), \(width)x\(height) pixels"
        if destination == .standardOutput {
            FileHandle.standardError.write(summary + "\n")
        } else {
            StandardOutput.line(summary)
        }
    }

    /// A pattern its dictionary cannot hold, or a target too large for the image (`--width`,
    /// `--height`, `--margin`), is a usage error (exit 64); anything else a failure (exit 1).
    private static func renderingError(_ error: any Error, of name: String) -> any Error {
        switch error as? DetectionError {
        case .invalidPattern, .cannotRender: UsageError("cannot render \(name): \(error)")
        default: RuntimeError("cannot render \(name): \(error)")
        }
    }

    /// A height that gives the board's squares the same size across and down, with the margin.
    static func fittingHeight(for pattern: Pattern, width: Int) -> Int {
        let (columns, rows): (Double, Double)
        switch pattern {
        case .charuco(let board): (columns, rows) = (Double(board.columns), Double(board.rows))
        case .gridBoard(let board): (columns, rows) = (Double(board.columns), Double(board.rows))
        case .chessboard(let board): (columns, rows) = (Double(board.columns + 1), Double(board.rows + 1))
        case .aruco, .aprilTag: (columns, rows) = (1, 1)
        case .aprilGrid(let grid):
            // Tags and the gaps (with corner squares) around them.
            (columns, rows) = (
                Double(grid.columns) * (1 + grid.tagSpacing) + grid.tagSpacing,
                Double(grid.rows) * (1 + grid.tagSpacing) + grid.tagSpacing
            )
        }
        return fittingHeight(columns: columns, rows: rows, width: width)
    }

    /// A height for a target `columns` x `rows` squares in shape, with the margin.
    static func fittingHeight(columns: Double, rows: Double, width: Int) -> Int {
        let margin = Double(width) / 10
        let inner = Double(width) - 2 * margin
        return Int((inner * rows / columns + 2 * margin).rounded())
    }
}
