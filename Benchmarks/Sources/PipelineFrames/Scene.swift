import Foundation
import Pixels

/// Draws one frame of the made-up session: a desk, the printed board where the path puts it, what
/// the frame's event adds, and camera noise.
enum Scene {
    /// Paper pixels; ink is dark gray, the paper slightly warm (BGR).
    static let ink = (b: 38.0, g: 36.0, r: 34.0)
    static let paper = (b: 226.0, g: 234.0, r: 241.0)

    static func frame(index: Int, event: Event, board: PixelBuffer, width: Int, height: Int) throws -> PixelBuffer {
        let seconds = Double(index) / 30
        let corners = BoardPose.along(seconds: seconds, outOfView: event == .outOfView)
            .project(paperWidth: board.width, paperHeight: board.height, imageWidth: width, imageHeight: height)
        let paperCorners = [(0.0, 0.0), (Double(board.width - 1), 0), (Double(board.width - 1), Double(board.height - 1)),
                            (0, Double(board.height - 1))]
        let toPaper = PerspectiveMap(from: corners, to: paperCorners)
        let left = max(0, Int(corners.map(\.0).min()!.rounded(.down)) - 1)
        let right = min(width - 1, Int(corners.map(\.0).max()!.rounded(.up)) + 1)
        let top = max(0, Int(corners.map(\.1).min()!.rounded(.down)) - 1)
        let bottom = min(height - 1, Int(corners.map(\.1).max()!.rounded(.up)) + 1)
        // Light falls off towards one side; where it comes from drifts slowly.
        let lightAngle = 0.6 * sin(seconds / 3)
        var noise = NoiseSource(seed: UInt64(index + 1) &* 0x9E37_79B9_7F4A_7C15)

        return try PixelBuffer(width: width, height: height, format: .bgr24) { pixels in
            board.withUnsafeBytes { printed in
                for y in 0..<height {
                    for x in 0..<width {
                        var color = desk(x: x, y: y, width: width, height: height)
                        if x >= left, x <= right, y >= top, y <= bottom {
                            // 2x2 samples per pixel, so that the board's edges are not jagged.
                            var covered = 0.0, level = 0.0
                            for (dx, dy) in [(-0.25, -0.25), (0.25, -0.25), (-0.25, 0.25), (0.25, 0.25)] {
                                let (u, v) = toPaper.apply(Double(x) + dx, Double(y) + dy)
                                if let value = sample(printed, board, u, v) {
                                    covered += 0.25
                                    level += 0.25 * value
                                }
                            }
                            if covered > 0 {
                                let shade = level / max(covered, 1e-9) / 255
                                let onPaper = (b: Self.ink.b + (paper.b - Self.ink.b) * shade,
                                               g: Self.ink.g + (paper.g - Self.ink.g) * shade,
                                               r: Self.ink.r + (paper.r - Self.ink.r) * shade)
                                color = (b: color.b * (1 - covered) + onPaper.b * covered,
                                         g: color.g * (1 - covered) + onPaper.g * covered,
                                         r: color.r * (1 - covered) + onPaper.r * covered)
                            }
                        }
                        let nx = Double(x) / Double(width) - 0.5, ny = Double(y) / Double(height) - 0.5
                        let light = 0.88 + 0.16 * (nx * cos(lightAngle) + ny * sin(lightAngle))
                        let offset = (y * width + x) * 3
                        pixels[offset] = clamp(color.b * light + noise.nextNoise())
                        pixels[offset + 1] = clamp(color.g * light + noise.nextNoise())
                        pixels[offset + 2] = clamp(color.r * light + noise.nextNoise())
                    }
                }
            }
            let centre = diagonalsCrossing(corners)
            let size = (Double(right - left), Double(bottom - top))
            switch event {
            case .hand: drawHand(pixels, width: width, height: height, centre: centre, boardSize: size)
            case .motionBlur: smear(pixels, width: width, rows: top...bottom, length: 41)
            case .clear, .outOfView: break
            }
        }
    }

    /// The desk behind the board: a wood-like brown with slow grain, and a few dark objects.
    static func desk(x: Int, y: Int, width: Int, height: Int) -> (b: Double, g: Double, r: Double) {
        let fx = Double(x), fy = Double(y)
        let grain = 14 * sin(fx * 0.011 + 3 * sin(fy * 0.004)) + 6 * sin(fy * 0.05 + fx * 0.002)
        var color = (b: 70 + grain * 0.6, g: 98 + grain * 0.8, r: 128 + grain)
        // A keyboard at the bottom left: dark keys with light gaps.
        if y > height * 4 / 5, x < width * 2 / 5 {
            let key = (x % 34 < 30) && (y % 30 < 26)
            color = key ? (b: 42, g: 40, r: 40) : (b: 90, g: 90, r: 92)
        }
        // A blue mug at the top right.
        let mx = fx - Double(width) * 0.86, my = fy - Double(height) * 0.16
        if mx * mx + my * my < Double(height * height) / 80 { color = (b: 160, g: 90, r: 40) }
        return color
    }

    /// Bilinear sample of the paper at (u, v), or nil outside it.
    static func sample(_ printed: UnsafeRawBufferPointer, _ board: PixelBuffer, _ u: Double, _ v: Double) -> Double? {
        guard u >= 0, v >= 0, u <= Double(board.width - 1), v <= Double(board.height - 1) else { return nil }
        let u0 = min(Int(u), board.width - 2), v0 = min(Int(v), board.height - 2)
        let fu = u - Double(u0), fv = v - Double(v0)
        let row = board.rowStride
        let top = Double(printed[v0 * row + u0]) * (1 - fu) + Double(printed[v0 * row + u0 + 1]) * fu
        let below = Double(printed[(v0 + 1) * row + u0]) * (1 - fu) + Double(printed[(v0 + 1) * row + u0 + 1]) * fu
        return top * (1 - fv) + below * fv
    }

    /// A hand holding the board, covering its middle: an oval palm and a forearm down to the
    /// bottom of the frame, skin-coloured with soft shading.
    static func drawHand(_ pixels: UnsafeMutableRawBufferPointer, width: Int, height: Int,
                         centre: (Double, Double), boardSize: (Double, Double)) {
        let (cx, cy) = centre
        let rx = 0.42 * boardSize.0, ry = 0.36 * boardSize.1
        for y in 0..<height {
            for x in 0..<width {
                let dx = (Double(x) - cx) / rx, dy = (Double(y) - cy) / ry
                let inPalm = dx * dx + dy * dy < 1
                let inArm = Double(y) > cy && abs(Double(x) - cx - 0.3 * (Double(y) - cy)) < 0.45 * rx
                guard inPalm || inArm else { continue }
                let shade = 0.8 + 0.2 * cos(min(1, sqrt(dx * dx + dy * dy)) * .pi / 2)
                let offset = (y * width + x) * 3
                pixels[offset] = clamp(118 * shade)
                pixels[offset + 1] = clamp(146 * shade)
                pixels[offset + 2] = clamp(196 * shade)
            }
        }
    }

    /// Horizontal motion blur: each pixel of `rows` becomes the mean of `length` pixels around it.
    static func smear(_ pixels: UnsafeMutableRawBufferPointer, width: Int, rows: ClosedRange<Int>, length: Int) {
        let half = length / 2
        var line = [Double](repeating: 0, count: width * 3)
        for y in rows {
            for channel in 0..<3 {
                var sum = 0.0
                func at(_ x: Int) -> Double { Double(pixels[(y * width + min(max(x, 0), width - 1)) * 3 + channel]) }
                for x in -half...half { sum += at(x) }
                for x in 0..<width {
                    line[x * 3 + channel] = sum / Double(length)
                    sum += at(x + half + 1) - at(x - half)
                }
            }
            for x in 0..<(width * 3) { pixels[y * width * 3 + x] = clamp(line[x]) }
        }
    }

    /// Where the diagonals of the quadrilateral `corners` cross: the board's centre in the image.
    static func diagonalsCrossing(_ corners: [(Double, Double)]) -> (Double, Double) {
        let (p, q, r, s) = (corners[0], corners[2], corners[1], corners[3])
        let d = (q.0 - p.0) * (s.1 - r.1) - (q.1 - p.1) * (s.0 - r.0)
        let t = ((r.0 - p.0) * (s.1 - r.1) - (r.1 - p.1) * (s.0 - r.0)) / d
        return (p.0 + t * (q.0 - p.0), p.1 + t * (q.1 - p.1))
    }

    static func clamp(_ value: Double) -> UInt8 { UInt8(min(max(value.rounded(), 0), 255)) }
}

/// Where the board is at a time along the session's path: a smooth sweep across the frame, nearer
/// and farther, turned and tilted both ways, as someone waving a board at a camera does.
struct BoardPose {
    /// Centre in the image, as fractions of its width and height.
    var centre: (x: Double, y: Double)
    /// The board's height in the image, as a fraction of the image's height (seen face on).
    var size: Double
    /// Turns in degrees: in the image plane, about the horizontal axis, about the vertical one.
    var roll: Double, pitch: Double, yaw: Double

    static func along(seconds t: Double, outOfView: Bool) -> BoardPose {
        func wave(_ period: Double, _ phase: Double) -> Double { sin(2 * .pi * t / period + phase) }
        return BoardPose(
            centre: (x: 0.5 + 0.26 * wave(7.3, 0) + (outOfView ? 1.2 : 0), y: 0.5 + 0.1 * wave(5.1, 1)),
            size: 0.56 + 0.14 * wave(9.7, 0.3),
            roll: 20 * wave(6.1, 0.7), pitch: 28 * wave(4.3, 0.5), yaw: 32 * wave(5.7, 2))
    }

    /// The image points of the paper's four corners (top left, top right, bottom right, bottom
    /// left), through a pinhole camera with a focal length of 0.8 image widths.
    func project(paperWidth: Int, paperHeight: Int, imageWidth: Int, imageHeight: Int) -> [(Double, Double)] {
        let focal = 0.8 * Double(imageWidth)
        let cx = Double(imageWidth - 1) / 2, cy = Double(imageHeight - 1) / 2
        let distance = focal / (size * Double(imageHeight))
        let shift = ((centre.x * Double(imageWidth) - cx) * distance / focal, (centre.y * Double(imageHeight) - cy) * distance / focal)
        let (a, b, c) = (pitch * .pi / 180, yaw * .pi / 180, roll * .pi / 180)
        let scale = 1 / Double(paperHeight)
        return [(0, 0), (paperWidth - 1, 0), (paperWidth - 1, paperHeight - 1), (0, paperHeight - 1)].map { u, v in
            // The paper is 1 unit high, centred on the axis; turned about x, then y, then z.
            let x0 = (Double(u) - Double(paperWidth - 1) / 2) * scale, y0 = (Double(v) - Double(paperHeight - 1) / 2) * scale
            let y1 = y0 * cos(a), z1 = y0 * sin(a)
            let x2 = x0 * cos(b) + z1 * sin(b), z2 = -x0 * sin(b) + z1 * cos(b)
            let x3 = x2 * cos(c) - y1 * sin(c), y3 = x2 * sin(c) + y1 * cos(c)
            let z = z2 + distance
            return (focal * (x3 + shift.0) / z + cx, focal * (y3 + shift.1) / z + cy)
        }
    }
}

/// The projective map that takes four points to four others (solved as an 8x8 linear system).
struct PerspectiveMap {
    private var h: [Double]

    init(from source: [(Double, Double)], to target: [(Double, Double)]) {
        // a x + b y + c - g x X - h y X = X and d x + e y + f - g x Y - h y Y = Y for each pair.
        var rows: [[Double]] = []
        for ((x, y), (tx, ty)) in zip(source, target) {
            rows.append([x, y, 1, 0, 0, 0, -x * tx, -y * tx, tx])
            rows.append([0, 0, 0, x, y, 1, -x * ty, -y * ty, ty])
        }
        for column in 0..<8 {
            let pivot = (column..<8).max { abs(rows[$0][column]) < abs(rows[$1][column]) }!
            rows.swapAt(column, pivot)
            for row in 0..<8 where row != column {
                let factor = rows[row][column] / rows[column][column]
                for k in column...8 { rows[row][k] -= factor * rows[column][k] }
            }
        }
        h = (0..<8).map { rows[$0][8] / rows[$0][$0] } + [1]
    }

    func apply(_ x: Double, _ y: Double) -> (Double, Double) {
        let w = h[6] * x + h[7] * y + h[8]
        return ((h[0] * x + h[1] * y + h[2]) / w, (h[3] * x + h[4] * y + h[5]) / w)
    }
}

/// Camera noise from xorshift64*, seeded per frame so that every run writes the same files.
struct NoiseSource {
    private var state: UInt64
    init(seed: UInt64) { state = seed | 1 }

    /// About 2.5 gray levels of noise: the sum of four uniform bytes, centred.
    mutating func nextNoise() -> Double {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        let bits = state &* 0x2545_F491_4F6C_DD1D
        let sum = Int(bits >> 32 & 0xFF) + Int(bits >> 40 & 0xFF) + Int(bits >> 48 & 0xFF) + Int(bits >> 56)
        return Double(sum - 510) / 59
    }
}
