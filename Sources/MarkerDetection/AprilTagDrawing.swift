import Pixels

/// Draws AprilTag targets black on white: Kalibr's AprilGrid, and sheets of loose tags.
///
/// Each tag cell is a whole number of pixels, as large as fits inside the margins, and the
/// target is centred.
enum AprilTagDrawing {
    /// A white GRAY8 canvas on which `columns` x `rows` tags of `tagCells` cells with gaps of
    /// `gapCells` cells (and a gap outside the outer tags) fit, or an error naming what is too small.
    private struct Canvas {
        let width: Int
        let height: Int
        var pixels: [UInt8]
        let cell: Int
        let origin: (x: Int, y: Int)

        init(
            width: Int, height: Int, margin: Int, columns: Int, rows: Int, tagCells: Int, gapCells: Double, what: String
        ) throws(DetectionError) {
            let limit = PrintableTarget.maximumSide
            guard width <= limit, height <= limit else {
                throw .cannotRender(reason: "a \(width)x\(height) image is larger than \(limit) pixels a side")
            }
            let across = Double(columns * tagCells) + Double(columns + 1) * gapCells
            let down = Double(rows * tagCells) + Double(rows + 1) * gapCells
            let cell = Int(min(Double(width - 2 * margin) / across, Double(height - 2 * margin) / down))
            guard width > 2 * margin, height > 2 * margin, cell >= 1 else {
                throw .cannotRender(
                    reason: "a \(width)x\(height) image with \(margin) pixel margins is too small for \(what) "
                        + "(\(Int(across.rounded(.up)))x\(Int(down.rounded(.up))) cells of at least 1 pixel)")
            }
            self.width = width
            self.height = height
            self.cell = cell
            self.pixels = [UInt8](repeating: 255, count: width * height)
            let gap = Int((gapCells * Double(cell)).rounded())
            let usedWidth = columns * tagCells * cell + (columns + 1) * gap
            let usedHeight = rows * tagCells * cell + (rows + 1) * gap
            self.origin = ((width - usedWidth) / 2, (height - usedHeight) / 2)
        }

        mutating func fill(x: Int, y: Int, side: Int, value: UInt8) {
            for row in max(0, y)..<min(height, y + side) {
                for column in max(0, x)..<min(width, x + side) { pixels[row * width + column] = value }
            }
        }

        mutating func draw(cells: [UInt8], side: Int, skip: Int, x: Int, y: Int) {
            for row in skip..<(side - skip) {
                for column in skip..<(side - skip) {
                    fill(x: x + (column - skip) * cell, y: y + (row - skip) * cell, side: cell, value: cells[row * side + column])
                }
            }
        }

        func image() throws(DetectionError) -> PixelBuffer {
            do {
                return try PixelBuffer(width: width, height: height, format: .gray8) { raw in
                    raw.copyBytes(from: pixels)
                }
            } catch {
                throw .internalError(reason: "cannot make a \(width)x\(height) image: \(error)")
            }
        }
    }

    /// Draws Kalibr's AprilGrid: tags with two-cell black borders, ids row by row from the
    /// bottom-left, a black square of the gap's size at every tag corner. Returns the image and
    /// where each board corner is in it.
    static func render(_ grid: AprilGrid, width: Int, height: Int, margin: Int) throws(DetectionError)
        -> (image: PixelBuffer, corners: [BoardCorner])
    {
        let sample = try AprilTagShim.cells(of: grid.family, id: grid.firstTag, borderCells: AprilGrid.borderCells)
        let tagCells = sample.side - 2  // without the white ring: the gaps are white
        var canvas = try Canvas(
            width: width, height: height, margin: margin, columns: grid.columns, rows: grid.rows, tagCells: tagCells,
            gapCells: grid.tagSpacing * Double(tagCells), what: "a \(grid.columns)x\(grid.rows) AprilGrid")
        let tag = tagCells * canvas.cell
        let gap = Int((grid.tagSpacing * Double(tag)).rounded())
        let pitch = tag + gap
        let left = canvas.origin.x + gap
        let bottom = canvas.origin.y + gap + (grid.rows - 1) * pitch  // top pixel row of the bottom tag row
        var corners: [BoardCorner] = []
        for id in grid.tagIDs {
            let (row, column) = (id - grid.firstTag).quotientAndRemainder(dividingBy: grid.columns)
            let x = left + column * pitch
            let y = bottom - row * pitch
            let cells = try AprilTagShim.cells(of: grid.family, id: id, borderCells: AprilGrid.borderCells)
            canvas.draw(cells: cells.cells, side: cells.side, skip: 1, x: x, y: y)
            for (dx, dy) in [(-gap, -gap), (tag, -gap), (tag, tag), (-gap, tag)] {
                canvas.fill(x: x + dx, y: y + dy, side: gap, value: 0)
            }
            // Pixel edges, in coordinates whose integers are pixel centres.
            for (right, top) in [(false, false), (true, false), (true, true), (false, true)] {
                let point = ImagePoint(x: Double(x + (right ? tag : 0)) - 0.5, y: Double(y + (top ? 0 : tag)) - 0.5)
                corners.append(BoardCorner(id: grid.cornerID(tag: id, right: right, top: top), point: point))
            }
        }
        return (try canvas.image(), corners.sorted { $0.id < $1.id })
    }

    /// Draws `columns` x `rows` loose tags of `family` with their white rings and two white cells
    /// between them, ids row by row from the top-left starting at `firstTag`.
    static func renderSheet(
        family: AprilTagFamily, columns: Int, rows: Int, firstTag: Int, width: Int, height: Int, margin: Int
    ) throws(DetectionError) -> PixelBuffer {
        // Compared as a difference: `firstTag + count` overflows for an id near `Int.max`.
        let (count, overflow) = columns.multipliedReportingOverflow(by: rows)
        guard columns >= 1, rows >= 1, firstTag >= 0, !overflow, count <= family.codeCount,
            firstTag <= family.codeCount - count
        else {
            throw .cannotRender(
                reason: "\(columns)x\(rows) tags from id \(firstTag) do not fit in \(family)'s ids 0...\(family.codeCount - 1)")
        }
        let sample = try AprilTagShim.cells(of: family, id: firstTag, borderCells: 1)
        var canvas = try Canvas(
            width: width, height: height, margin: margin, columns: columns, rows: rows, tagCells: sample.side, gapCells: 2,
            what: "\(columns)x\(rows) tags")
        let tag = sample.side * canvas.cell
        let gap = 2 * canvas.cell
        for index in 0..<(columns * rows) {
            let (row, column) = index.quotientAndRemainder(dividingBy: columns)
            let cells = try AprilTagShim.cells(of: family, id: firstTag + index, borderCells: 1)
            canvas.draw(
                cells: cells.cells, side: cells.side, skip: 0, x: canvas.origin.x + gap + column * (tag + gap),
                y: canvas.origin.y + gap + row * (tag + gap))
        }
        return try canvas.image()
    }
}
