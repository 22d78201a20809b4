/// A random number generator that gives the same numbers for the same seed on every machine
/// (SplitMix64), so that the views a calibration leaves out or splits are the same on every run.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    /// A generator started from `seed`.
    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `0..<count` in an order drawn from `seed`: the same order for the same seed and count.
    static func shuffled(_ count: Int, seed: UInt64) -> [Int] {
        var generator = SeededGenerator(seed: seed)
        var order = Array(0..<count)
        // Fisher-Yates with the generator's own numbers, so that the order does not depend on the
        // standard library's shuffle.
        if count > 1 {
            for index in stride(from: count - 1, to: 0, by: -1) {
                let other = Int(generator.next() % UInt64(index + 1))
                order.swapAt(index, other)
            }
        }
        return order
    }
}
