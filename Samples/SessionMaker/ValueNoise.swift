import Foundation
import MarkerDetectionTestSupport

/// Smooth random texture: values on a grid of whole coordinates, eased in between, summed over a
/// few octaves. The same seed gives the same texture.
struct ValueNoise: Sendable {
    let seed: UInt64

    /// Noise of about -1...1 at (`x`, `y`), with features about 1 unit across and `octaves`
    /// finer layers of half the size and half the strength each.
    func value(_ x: Double, _ y: Double, octaves: Int = 3) -> Double {
        var total = 0.0, strength = 1.0, frequency = 1.0, norm = 0.0
        for octave in 0..<octaves {
            total += strength * layer(x * frequency, y * frequency, octave: octave)
            norm += strength
            strength /= 2
            frequency *= 2
        }
        return total / norm
    }

    private func layer(_ x: Double, _ y: Double, octave: Int) -> Double {
        let cellX = floor(x), cellY = floor(y)
        let u = ease(x - cellX), v = ease(y - cellY)
        let ix = Int(cellX), iy = Int(cellY)
        let top = lattice(ix, iy, octave) * (1 - u) + lattice(ix + 1, iy, octave) * u
        let bottom = lattice(ix, iy + 1, octave) * (1 - u) + lattice(ix + 1, iy + 1, octave) * u
        return top * (1 - v) + bottom * v
    }

    private func lattice(_ x: Int, _ y: Int, _ octave: Int) -> Double {
        let key = UInt64(bitPattern: Int64(x)) &* 0x9E37_79B9_7F4A_7C15
            ^ UInt64(bitPattern: Int64(y)) &* 0xC2B2_AE3D_27D4_EB4F
            ^ UInt64(octave) &* 0x1656_67B1_9E37_79F9
        var generator = SplitMix64(seed: seed ^ key)
        return generator.nextUniform() * 2 - 1
    }

    private func ease(_ t: Double) -> Double { t * t * (3 - 2 * t) }
}
