/// An RGB image being composed: one value per channel, 0 for black to 1 for white, row by row.
struct ColorCanvas: Sendable {
    typealias Color = SIMD3<Float>

    let width: Int
    let height: Int
    var pixels: [Color]

    /// A canvas of one colour.
    init(width: Int, height: Int, color: Color = .zero) {
        self.width = width
        self.height = height
        pixels = Array(repeating: color, count: width * height)
    }

    /// A canvas whose pixel at (`x`, `y`) is `color(x, y)`.
    init(width: Int, height: Int, color: (Int, Int) -> Color) {
        self.width = width
        self.height = height
        pixels = []
        pixels.reserveCapacity(width * height)
        for y in 0..<height {
            for x in 0..<width { pixels.append(color(x, y)) }
        }
    }

    /// Lays `color` over the pixel at (`x`, `y`), covering the fraction `alpha` of it.
    mutating func blend(_ color: Color, x: Int, y: Int, alpha: Float) {
        let index = y * width + x
        pixels[index] += (color - pixels[index]) * alpha
    }

    /// Darkens the pixel at (`x`, `y`) by the fraction `amount`.
    mutating func darken(x: Int, y: Int, by amount: Float) {
        pixels[y * width + x] *= 1 - amount
    }

    /// Adds `other`'s pixels to these, for averaging several views.
    mutating func add(_ other: ColorCanvas) {
        precondition(other.width == width && other.height == height, "adding a \(other.width)x\(other.height) canvas to a \(width)x\(height) one")
        for index in pixels.indices { pixels[index] += other.pixels[index] }
    }
}
