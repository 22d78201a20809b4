import Foundation

/// A page drawn in millimetres from its top-left corner, black on white: filled rectangles,
/// lines and text in Helvetica, written as PDF or SVG at the page's real size.
struct SheetDrawing {
    struct Rectangle {
        var x, y, width, height: Double
    }

    struct Line {
        var x0, y0, x1, y1, width: Double
    }

    struct Text {
        var x, y, size: Double
        var text: String
    }

    /// The page's width and height in millimetres.
    var width: Double
    var height: Double
    var rectangles: [Rectangle] = []
    var lines: [Line] = []
    var texts: [Text] = []

    /// Points per millimetre (PDF's unit is 1/72 inch).
    static let points = 72 / 25.4

    /// `text` with every character outside printable ASCII as `?` (Helvetica's standard encoding).
    static func ascii(_ text: String) -> String {
        String(text.unicodeScalars.map { (0x20...0x7E).contains($0.value) ? Character($0) : "?" })
    }

    /// A PDF 1.4 document of one page of this size: the rectangles filled, the lines stroked, the
    /// text in the standard Helvetica font (no font embedded), nothing compressed.
    func pdf() -> [UInt8] {
        let k = Self.points
        func n(_ value: Double) -> String { String(format: "%.4f", value) }
        var content = "0 g 0 G\n"
        for r in rectangles {
            content += "\(n(r.x * k)) \(n((height - r.y - r.height) * k)) \(n(r.width * k)) \(n(r.height * k)) re f\n"
        }
        for l in lines {
            content += "\(n(l.width * k)) w \(n(l.x0 * k)) \(n((height - l.y0) * k)) m \(n(l.x1 * k)) \(n((height - l.y1) * k)) l S\n"
        }
        for t in texts {
            let escaped = Self.ascii(t.text).replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "(", with: "\\(")
                .replacingOccurrences(of: ")", with: "\\)")
            content += "BT /F1 \(n(t.size * k)) Tf \(n(t.x * k)) \(n((height - t.y) * k)) Td (\(escaped)) Tj ET\n"
        }
        let objects = [
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 \(n(width * k)) \(n(height * k))] /Contents 4 0 R "
                + "/Resources << /Font << /F1 5 0 R >> >> >>",
            "<< /Length \(content.utf8.count) >>\nstream\n\(content)endstream",
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        ]
        var output = "%PDF-1.4\n%\u{E2}\u{E3}\u{CF}\u{D3}\n"
        var bytes = Array(output.utf8)
        var offsets: [Int] = []
        for (index, object) in objects.enumerated() {
            offsets.append(bytes.count)
            bytes += Array("\(index + 1) 0 obj\n\(object)\nendobj\n".utf8)
        }
        let xref = bytes.count
        output = "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for offset in offsets { output += String(format: "%010d 00000 n \n", offset) }
        output += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
        return bytes + Array(output.utf8)
    }

    /// An SVG document whose width and height are the page's in millimetres (`width="210mm"`),
    /// its user unit a millimetre.
    func svg() -> [UInt8] {
        func n(_ value: Double) -> String { String(format: "%.4f", value) }
        func escaped(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;")
        }
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        text += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(n(width))mm\" height=\"\(n(height))mm\" "
            + "viewBox=\"0 0 \(n(width)) \(n(height))\">\n"
        text += "<rect x=\"0\" y=\"0\" width=\"\(n(width))\" height=\"\(n(height))\" fill=\"white\"/>\n"
        var path = ""
        for r in rectangles { path += "M\(n(r.x)) \(n(r.y))h\(n(r.width))v\(n(r.height))h\(n(-r.width))z" }
        text += "<path fill=\"black\" shape-rendering=\"crispEdges\" d=\"\(path)\"/>\n"
        for l in lines {
            text += "<line x1=\"\(n(l.x0))\" y1=\"\(n(l.y0))\" x2=\"\(n(l.x1))\" y2=\"\(n(l.y1))\" stroke=\"black\" "
                + "stroke-width=\"\(n(l.width))\"/>\n"
        }
        for t in texts {
            text += "<text x=\"\(n(t.x))\" y=\"\(n(t.y))\" font-family=\"Helvetica, Arial, sans-serif\" "
                + "font-size=\"\(n(t.size))\">\(escaped(Self.ascii(t.text)))</text>\n"
        }
        text += "</svg>\n"
        return Array(text.utf8)
    }
}
