import ArgumentParser
import FileFormats
import Foundation
import MarkerDetection
import MarkerShutter

/// `marker-shutter board`: render a printable calibration target.
struct BoardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "board",
        abstract: "Render a printable calibration target (a PNG, or a PDF or SVG sheet at its real size), or identify the target in photos.",
        discussion: """
            The target is given as words or as one pattern string: charuco 5x7 DICT_6X6_250 is the same \
            as charuco:5x7:DICT_6X6_250. `aruco` renders an ArUco grid board (gridboard). `aprilgrid` renders \
            Kalibr's AprilGrid; `apriltag COLSxROWS FAMILY[:first=ID]` a sheet of loose AprilTags, ids row by \
            row from the top-left, to detect with apriltag:FAMILY; `circles` and `acircles` a symmetric or \
            OpenCV's asymmetric circle grid (circles half a spacing across, a spacing of white around the \
            grid). Print the file without scaling, and give the same pattern to `live` and `process`.

            --identify IMAGE... prints the pattern string of the target the photos show (the board you \
            own, whatever its kind, size, dictionary or layout) on standard output, and what was found in \
            how many photos on standard error; when the photos leave doubt it prints nothing on standard \
            output, says why on standard error and lists the candidates with the photos that show each \
            (exit status 1). `live`, `process` and `calibrate` do the same with --pattern auto.

            An --out ending in .pdf or .svg draws the target at its real size on a sheet of --paper (A4, \
            Letter or A3, turned to landscape when the target fits only that way): the pattern must give its \
            size with a unit (chessboard:9x6:square=25mm). The sheet states the pattern and its size above \
            the target and carries a 100 mm ruler (4 in for a pattern in inches) to check the print: print \
            at 100%, never "fit to page", and measure a square. --width, --height and --margin are for PNG.

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
              marker-shutter board chessboard:9x6:square=25mm --out chessboard.pdf
              marker-shutter board charuco:5x7:DICT_6X6_250:square=35mm,marker=26mm --paper A3 --out charuco.svg
              marker-shutter board apriltag 4x3 tag36h11 --out tags.png
              marker-shutter board acircles 4x11 --out acircles.png
              marker-shutter board --identify photos/*.jpg
            """
    )

    @Argument(help: ArgumentHelp(
        "The target: charuco|aruco|chessboard|aprilgrid|apriltag|circles|acircles followed by its size and dictionary or family, or a pattern string; with --identify, the photos.",
        valueName: "target"))
    var target: [String] = []

    @Flag(help: "Print the pattern of the target the photos given show, instead of rendering one.")
    var identify = false

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

    @Option(help: ArgumentHelp("Where to write the target: a .pdf or .svg sheet at its real size, otherwise PNG.", valueName: "file"))
    var out: String?

    @Option(help: ArgumentHelp("The paper of a PDF or SVG sheet: A4, Letter or A3.", valueName: "paper"))
    var paper: String = "A4"

    /// The sheet format --out's extension asks for, or `nil` for PNG.
    private var sheetFormat: PrintSheet.Format? {
        out.flatMap { PrintSheet.Format(rawValue: ($0 as NSString).pathExtension.lowercased()) }
    }

    @Flag(help: "Replace the output file if it exists.")
    var force = false

    func validate() throws {
        if identify {
            guard !target.isEmpty else { throw ValidationError("--identify needs the photos to look at") }
            if out != nil || force || height != nil || margin != nil || paper != "A4" {
                throw ValidationError("--identify prints a pattern: it takes no --out, --force, --height, --margin or --paper")
            }
            return
        }
        guard out != nil else { throw ValidationError("give --out FILE (or --identify IMAGE...)") }
        guard !target.isEmpty else { throw ValidationError("name the target to render (or give --identify IMAGE...)") }
        do {
            _ = try PrintableTarget.Target(parsing: target)
        } catch .pattern(let error) {
            throw ValidationError("\(error)\n\nTargets:\n\(Pattern.grammar)")
        } catch {
            throw ValidationError("\(error)")
        }
        try validateSizes()
        guard PrintSheet.Paper(name: paper) != nil else {
            throw ValidationError("unknown --paper '\(paper)': expected A4, Letter or A3")
        }
        if sheetFormat != nil, case .tagSheet = try? PrintableTarget.Target(parsing: target) {
            throw ValidationError("a sheet of loose tags has no size: write it as PNG")
        }
    }

    private func validateSizes() throws {
        try Self.sides.validate(width, option: "--width")
        try Self.sides.validate(height, option: "--height")
        try Self.margins.validate(margin, option: "--margin")
    }

    func run() throws {
        if identify { return try runIdentify() }
        guard let out else { throw ValidationError("give --out FILE") }
        let destination: SafeOutput.Destination
        do {
            destination = try SafeOutput.destination(for: out, replacing: force)
        } catch {
            throw RuntimeError("\(error)")
        }
        let target: PrintableTarget.Target
        do {
            target = try PrintableTarget.Target(parsing: self.target)
        } catch {
            throw ValidationError("\(error)")
        }
        let name = target.name
        let height = self.height ?? target.fittingHeight(width: width)
        let image: [UInt8]
        var what = "\(width)x\(height) pixels"
        do {
            if let format = sheetFormat, case .board(let pattern) = target, let paper = PrintSheet.Paper(name: paper) {
                image = try PrintSheet.render(pattern, paper: paper, format: format)
                let extent = PrintSheet.extent(of: pattern).map { String(format: "%.1f x %.1f mm", $0.width * 1000, $0.height * 1000) } ?? ""
                what = "\(PrintSheet.sizeText(of: pattern)), \(extent) on \(paper) at 100%: check the ruler after printing"
            } else {
                image = try ImageFile.encode(target.render(width: width, height: height, margin: margin), as: .png)
            }
        } catch {
            throw Self.renderingError(error, of: name)
        }
        do {
            try destination.write(image, replacing: force)
        } catch let error where error.errno == EEXIST {
            throw RuntimeError("\(OutputError.exists(out))")
        } catch {
            throw RuntimeError("\(error)")
        }
        let summary = "wrote \(destination == .standardOutput ? "standard output" : out): \(name), \(what)"
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

    /// `--identify`: the pattern of the photos on standard output, the finding on standard error.
    private func runIdentify() throws {
        let found = try PatternChoice.identify(photos: target)
        FileHandle.standardError.write(found.description + "\n")
        guard let pattern = found.pattern else { throw ExitCode(1) }
        StandardOutput.line(pattern.description)
    }
}
