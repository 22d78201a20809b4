/// The emulated camera's pattern, written down independently of the plugin from its documentation
/// (Tests/Support/EmulatedCamera/frames.c), and libv4lconvert's YUYV-to-BGR24 formula (rgbyuv.c,
/// v4lconvert_yuyv_to_bgr24): u1 = (129 (U-128)) >> 6, rg = (3 (U-128) + 6 (V-128)) >> 3,
/// v1 = (3 (V-128)) >> 1, then B = Y + u1, G = Y - rg, R = Y + v1, each clipped to 0...255.
enum PatternReference {
    static func phase(_ sequence: Int) -> Int { sequence % 16 }

    /// Y, U, V of pixel (x, y) of the YUYV pattern.
    static func yuv(x: Int, y: Int, sequence: Int) -> (y: Int, u: Int, v: Int) {
        let k = phase(sequence), p = x / 2
        return ((x + 2 * y + 16 * k) & 0xFF, (4 * p + y + 8 * k) & 0xFF, (255 - 2 * p - 3 * y + 8 * k) & 0xFF)
    }

    /// B, G, R that libv4lconvert makes of one YUYV pixel.
    static func libv4lconvertBGR(y: Int, u: Int, v: Int) -> (b: UInt8, g: UInt8, r: UInt8) {
        let u1 = (((u - 128) << 7) + (u - 128)) >> 6
        let rg = (((u - 128) << 1) + (u - 128) + ((v - 128) << 2) + ((v - 128) << 1)) >> 3
        let v1 = (((v - 128) << 1) + (v - 128)) >> 1
        func clip(_ value: Int) -> UInt8 { UInt8(max(0, min(255, value))) }
        return (clip(y + u1), clip(y - rg), clip(y + v1))
    }

    /// The BGR24 image libv4lconvert makes of the YUYV pattern, packed rows.
    static func bgrFromYUYV(width: Int, height: Int, sequence: Int) -> [UInt8] {
        var image = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let (luma, u, v) = yuv(x: x, y: y, sequence: sequence)
                let (b, g, r) = libv4lconvertBGR(y: luma, u: u, v: v)
                let offset = (y * width + x) * 3
                image[offset] = b
                image[offset + 1] = g
                image[offset + 2] = r
            }
        }
        return image
    }

    /// The luma plane of the YUYV pattern.
    static func luma(width: Int, height: Int, sequence: Int) -> [UInt8] {
        (0..<height).flatMap { y in (0..<width).map { x in UInt8(yuv(x: x, y: y, sequence: sequence).y) } }
    }

    /// The RGB picture the MJPEG pattern encodes, as BGR24.
    static func bgrOfMJPEGPattern(width: Int, height: Int, sequence: Int) -> [UInt8] {
        var image = [UInt8](repeating: 0, count: width * height * 3)
        let blue = UInt8(16 * phase(sequence) + 8)
        for y in 0..<height {
            for x in 0..<width {
                let offset = (y * width + x) * 3
                image[offset] = blue
                image[offset + 1] = UInt8(y * 255 / (height - 1))
                image[offset + 2] = UInt8(x * 255 / (width - 1))
            }
        }
        return image
    }
}

/// Per-byte absolute differences of two images of equal size.
struct ImageDifference {
    let mean: Double
    let maximum: Int
    let mismatches: Int

    init(_ a: [UInt8], _ b: [UInt8]) {
        precondition(a.count == b.count, "images of \(a.count) and \(b.count) bytes")
        var total = 0, maximum = 0, mismatches = 0
        for index in a.indices {
            let difference = abs(Int(a[index]) - Int(b[index]))
            total += difference
            maximum = max(maximum, difference)
            if difference != 0 { mismatches += 1 }
        }
        mean = a.isEmpty ? 0 : Double(total) / Double(a.count)
        self.maximum = maximum
        self.mismatches = mismatches
    }
}
