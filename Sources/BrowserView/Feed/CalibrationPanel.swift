import Calibration
import MarkerDetection
public import Pixels

/// A band under a picture that holds the newest calibration, for the preview window: lines of
/// text on the left (the headline, the verdict in the terminal's words, fx fy cx cy with their 95%
/// intervals, the first advice) and the projection-uncertainty map, small, in its right corner.
///
/// ```
/// +------------------------------------------------+
/// |                  the frame                     |
/// +------------------------------------------------+
/// | calibration: 8 views, RMS 0.214 px   +-------+ |
/// | verdict: not good: the corners ...   |  map  | |
/// | fx 601.3 +/- 2.5   fy 600.8 +/- 2.4  +-------+ |
/// +------------------------------------------------+
/// ```
public enum CalibrationPanel {
    /// A line and how it is coloured.
    public struct Line: Sendable, Hashable {
        /// What the line says (drawn in ASCII: `±` becomes `+/-`, other characters `?`).
        public var text: String
        /// Its colour.
        public var tone: Tone

        /// Makes a line.
        public init(_ text: String, tone: Tone = .plain) {
            self.text = text
            self.tone = tone
        }
    }

    /// A line's colour.
    public enum Tone: Sendable, Hashable {
        /// Light gray: the figures.
        case plain
        /// Green: a good verdict.
        case good
        /// Amber: a verdict that cannot be judged, and advice.
        case weak
        /// Red: a verdict that is not good, a failed solve.
        case bad
    }

    /// The panel's background (BGR 40, 40, 40).
    static let background = Canvas.Color(red: 40, green: 40, blue: 40)
    /// The height of a line of text, in pixels.
    static let lineHeight = 18
    /// The width a character takes at the panel's text size, to wrap lines by.
    static let characterWidth = 9
    /// The height of the map in the panel.
    public static let mapHeight = 120
    /// Lines a verdict or an advice wraps into, at most.
    static let wrappedLines = 3

    /// The lines for `calibration`: the headline, the verdict (wrapped), fx fy, cx cy, the first
    /// advice (wrapped), and, when the newest solve failed, why; `width` is the text's width in pixels.
    public static func lines(for calibration: ViewCalibration?, failure: String? = nil, width: Int) -> [Line] {
        let columns = max(20, width / characterWidth)
        var lines: [Line] = []
        if let calibration {
            let tone: Tone = switch calibration.kind {
            case "good": .good
            case "not-good": .bad
            default: .weak
            }
            lines.append(Line(calibration.headline))
            lines += wrap("verdict: " + calibration.verdict, columns: columns).map { Line($0, tone: tone) }
            let parameters = calibration.parameters.map { ViewCalibration.text($0, plusMinus: "+/-") }
            for pair in stride(from: 0, to: parameters.count, by: 2) {
                lines.append(Line(parameters[pair..<min(pair + 2, parameters.count)].joined(separator: "   ")))
            }
            if let advice = calibration.advice.first {
                lines += wrap("advice: " + advice, columns: columns).map { Line($0, tone: .weak) }
            }
        }
        if let failure { lines += wrap("calibration: " + failure, columns: columns).map { Line($0, tone: .bad) } }
        return lines
    }

    /// `text` in lines of at most `columns` characters, broken between words, at most
    /// ``wrappedLines`` of them (the last ending in `...` when cut).
    static func wrap(_ text: String, columns: Int) -> [String] {
        var lines: [String] = [], line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > columns {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        guard lines.count > wrappedLines else { return lines }
        var kept = Array(lines.prefix(wrappedLines))
        kept[wrappedLines - 1] = String(kept[wrappedLines - 1].prefix(columns - 3)) + "..."
        return kept
    }

    /// `picture` (BGR24 or GRAY8) with the panel under it, in BGR24: `lines` on the left and `map`
    /// (scaled to ``mapHeight``) in the right corner. The panel is as wide as the picture.
    ///
    /// - Throws: ``ViewFrameError`` when the text cannot be drawn.
    public static func compose(_ picture: PixelBuffer, lines: [Line], map: PixelBuffer?) throws(ViewFrameError) -> PixelBuffer {
        let mapSize = map.map { scaled($0, height: min(mapHeight, $0.height), maximumWidth: picture.width / 3) }
        let height = max(lines.count * lineHeight + 10, (mapSize?.height ?? 0) + 8)
        var canvas = Canvas(width: picture.width, height: height, background: background)
        for (index, line) in lines.enumerated() {
            canvas.add(.text(ascii(line.text), at: ImagePoint(x: 8, y: Double(lineHeight * (index + 1))), scale: 0.42,
                             color: color(line.tone), thickness: 1))
        }
        let panel: PixelBuffer
        do {
            panel = try canvas.render()
        } catch {
            throw ViewFrameError(reason: "\(error)")
        }
        do {
            return try PixelBuffer(width: picture.width, height: picture.height + height, format: .bgr24) { target in
                let rowBytes = picture.width * 3
                copy(picture, into: target, rowBytes: rowBytes, top: 0, left: 0, size: ImageSize(width: picture.width, height: picture.height))
                copy(panel, into: target, rowBytes: rowBytes, top: picture.height, left: 0, size: ImageSize(width: panel.width, height: panel.height))
                if let map, let mapSize {
                    copy(map, into: target, rowBytes: rowBytes, top: picture.height + 4, left: picture.width - mapSize.width - 4, size: mapSize)
                }
            }
        } catch {
            throw ViewFrameError(reason: "\(error)")
        }
    }

    /// The size `image` takes at `height` (or narrower, to fit `maximumWidth`), keeping its aspect.
    static func scaled(_ image: PixelBuffer, height: Int, maximumWidth: Int) -> ImageSize {
        let aspect = Double(image.width) / Double(image.height)
        let width = min(max(1, maximumWidth), max(1, Int((Double(height) * aspect).rounded())))
        return ImageSize(width: width, height: max(1, Int((Double(width) / aspect).rounded())))
    }

    /// Copies `image` scaled to `size` (nearest pixel) into BGR24 rows of `rowBytes` at `top`, `left`.
    private static func copy(_ image: PixelBuffer, into target: UnsafeMutableRawBufferPointer, rowBytes: Int, top: Int, left: Int,
                             size: ImageSize) {
        let channels = image.format.bytesPerPixel
        guard channels == 1 || channels == 3, left >= 0 else { return }
        let columns = (0..<size.width).map { min(image.width - 1, $0 * image.width / size.width) * channels }
        image.withUnsafeBytes { bytes in
            for y in 0..<size.height where (top + y) * rowBytes < target.count {
                let from = min(image.height - 1, y * image.height / size.height) * image.rowStride
                var to = (top + y) * rowBytes + left * 3
                for column in columns {
                    for c in 0..<3 { target[to + c] = bytes[from + column + (channels == 3 ? c : 0)] }
                    to += 3
                }
            }
        }
    }

    private static func color(_ tone: Tone) -> Canvas.Color {
        switch tone {
        case .plain: Canvas.Color(red: 235, green: 235, blue: 235)
        case .good: Canvas.Color(red: 90, green: 220, blue: 110)
        case .weak: Canvas.Color(red: 250, green: 200, blue: 80)
        case .bad: Canvas.Color(red: 255, green: 110, blue: 100)
        }
    }

    /// `text` in the ASCII OpenCV's fonts draw: `±` as `+/-`, other characters outside it as `?`.
    static func ascii(_ text: String) -> String {
        String(text.replacingOccurrences(of: "±", with: "+/-").unicodeScalars.map { $0.isASCII ? Character($0) : "?" })
    }
}
