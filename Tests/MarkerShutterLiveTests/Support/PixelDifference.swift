import Pixels

/// How far apart two images of the same size and format are.
enum PixelDifference {
    /// The mean absolute difference over every byte.
    static func mean(_ a: PixelBuffer, _ b: PixelBuffer) throws -> Double {
        guard a.width == b.width, a.height == b.height, a.format == b.format else {
            throw ScriptError("cannot compare \(a.width)x\(a.height) \(a.format) with \(b.width)x\(b.height) \(b.format)")
        }
        var total = 0
        for y in 0..<a.height {
            for (p, q) in zip(a.row(y), b.row(y)) { total += abs(Int(p) - Int(q)) }
        }
        return Double(total) / Double(a.width * a.height * a.format.bytesPerPixel)
    }
}
