public import Pixels

/// Image operations for synthetic ground truth: perspective warps, blur and noise on GRAY8 images.
public enum SyntheticImage {
    /// Renders `source` as seen through `homography` (source pixel coordinates to target ones) into a
    /// `width` x `height` image, averaging `samples` x `samples` bilinear samples per pixel so that
    /// shrunken parts are not aliased. Pixels that see no part of the source get `background`.
    public static func warp(
        _ source: PixelBuffer, by homography: Homography, width: Int, height: Int, background: UInt8 = 128,
        samples: Int = 3
    ) throws -> PixelBuffer {
        precondition(source.format == .gray8, "warp reads GRAY8 images")
        let inverse = homography.inverse.matrix
        return try source.withUnsafeBytes { pixels in
            try PixelBuffer(width: width, height: height, format: .gray8) { target in
                let stride = source.rowStride
                func sample(_ x: Double, _ y: Double) -> Double {
                    guard x >= 0, y >= 0, x <= Double(source.width - 1), y <= Double(source.height - 1) else {
                        return Double(background)
                    }
                    let x0 = min(Int(x), source.width - 2), y0 = min(Int(y), source.height - 2)
                    let fx = x - Double(x0), fy = y - Double(y0)
                    let a = Double(pixels[y0 * stride + x0]), b = Double(pixels[y0 * stride + x0 + 1])
                    let c = Double(pixels[(y0 + 1) * stride + x0]), d = Double(pixels[(y0 + 1) * stride + x0 + 1])
                    return (a * (1 - fx) + b * fx) * (1 - fy) + (c * (1 - fx) + d * fx) * fy
                }
                let step = 1 / Double(samples)
                for v in 0..<height {
                    for u in 0..<width {
                        var sum = 0.0
                        for j in 0..<samples {
                            let y = Double(v) - 0.5 + (Double(j) + 0.5) * step
                            for i in 0..<samples {
                                let x = Double(u) - 0.5 + (Double(i) + 0.5) * step
                                let w = inverse[6] * x + inverse[7] * y + inverse[8]
                                sum += sample(
                                    (inverse[0] * x + inverse[1] * y + inverse[2]) / w,
                                    (inverse[3] * x + inverse[4] * y + inverse[5]) / w)
                            }
                        }
                        target[v * width + u] = UInt8((sum / Double(samples * samples)).rounded())
                    }
                }
            }
        }
    }

    /// A Gaussian blur with standard deviation `sigma` pixels (separable, edges clamped).
    public static func blur(_ image: PixelBuffer, sigma: Double) throws -> PixelBuffer {
        precondition(image.format == .gray8, "blur reads GRAY8 images")
        let radius = max(1, Int((3 * sigma).rounded(.up)))
        var kernel = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = kernel.reduce(0, +)
        kernel = kernel.map { $0 / total }
        let width = image.width, height = image.height
        var rows = [Double](repeating: 0, count: width * height)
        image.withUnsafeBytes { pixels in
            for y in 0..<height {
                for x in 0..<width {
                    var sum = 0.0
                    for k in -radius...radius {
                        sum += kernel[k + radius] * Double(pixels[y * image.rowStride + min(max(x + k, 0), width - 1)])
                    }
                    rows[y * width + x] = sum
                }
            }
        }
        return try PixelBuffer(width: width, height: height, format: .gray8) { target in
            for y in 0..<height {
                for x in 0..<width {
                    var sum = 0.0
                    for k in -radius...radius { sum += kernel[k + radius] * rows[min(max(y + k, 0), height - 1) * width + x] }
                    target[y * width + x] = UInt8(min(max(sum.rounded(), 0), 255))
                }
            }
        }
    }

    /// Adds Gaussian noise with standard deviation `sigma` grey levels, the same for the same `seed`.
    public static func addNoise(_ image: PixelBuffer, sigma: Double, seed: UInt64) throws -> PixelBuffer {
        precondition(image.format == .gray8, "addNoise reads GRAY8 images")
        var generator = SplitMix64(seed: seed)
        return try image.withUnsafeBytes { pixels in
            try PixelBuffer(width: image.width, height: image.height, format: .gray8) { target in
                for y in 0..<image.height {
                    for x in 0..<image.width {
                        let value = Double(pixels[y * image.rowStride + x]) + sigma * generator.nextGaussian()
                        target[y * image.width + x] = UInt8(min(max(value.rounded(), 0), 255))
                    }
                }
            }
        }
    }

    /// Converts a GRAY8 image to another pixel format (gray in every channel, neutral chroma).
    public static func convert(_ image: PixelBuffer, to format: PixelFormat, rowPadding: Int = 0) throws -> PixelBuffer {
        precondition(image.format == .gray8, "convert reads GRAY8 images")
        let rowStride = image.width * format.bytesPerPixel + rowPadding
        return try image.withUnsafeBytes { pixels in
            try PixelBuffer(width: image.width, height: image.height, format: format, rowStride: rowStride) { target in
                for y in 0..<image.height {
                    for x in 0..<image.width {
                        let value = pixels[y * image.rowStride + x]
                        let base = y * rowStride + x * format.bytesPerPixel
                        switch format {
                        case .gray8: target[base] = value
                        case .bgr24, .rgb24: for c in 0..<3 { target[base + c] = value }
                        case .yuyv:
                            target[base] = value
                            target[base + 1] = 128
                        }
                    }
                }
            }
        }
    }
}

/// A small, seedable random number generator (SplitMix64), so synthetic images repeat exactly.
public struct SplitMix64: Sendable {
    private var state: UInt64

    /// A generator whose numbers follow from `seed` alone.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A sample spread evenly over `0 ..< 1`.
    public mutating func nextUniform() -> Double {
        Double(next() >> 11) / Double(1 << 53)
    }

    /// A standard normal sample (Box-Muller).
    public mutating func nextGaussian() -> Double {
        let u1 = (Double(next() >> 11) + 1) / Double(1 << 53)
        let u2 = Double(next() >> 11) / Double(1 << 53)
        return (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
