/// Orders file names the way people count: `frame2` before `frame10`.
///
/// Names are compared piece by piece; a run of digits compares by its value (leading zeros only
/// break ties), anything else compares by Unicode scalars.
package enum NaturalOrder {
    /// Whether `lhs` comes before `rhs`.
    package static func areInIncreasingOrder(_ lhs: String, _ rhs: String) -> Bool {
        let left = pieces(lhs), right = pieces(rhs)
        for (a, b) in zip(left, right) where a != b {
            return a < b
        }
        if left.count != right.count { return left.count < right.count }
        return lhs.unicodeScalars.lexicographicallyPrecedes(rhs.unicodeScalars)
    }

    /// `names` sorted in natural order.
    static func sorted(_ names: some Sequence<String>) -> [String] {
        names.sorted(by: areInIncreasingOrder)
    }

    private enum Piece: Comparable {
        /// Digits: compared by value (digits without leading zeros, so by length then text), then by
        /// how many leading zeros.
        case number(significant: String, zeros: Int)
        case text(String)

        static func < (lhs: Piece, rhs: Piece) -> Bool {
            switch (lhs, rhs) {
            case (.number(let a, let za), .number(let b, let zb)):
                if a.count != b.count { return a.count < b.count }
                if a != b { return a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars) }
                return za < zb
            case (.number, .text): return true
            case (.text, .number): return false
            case (.text(let a), .text(let b)): return a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars)
            }
        }
    }

    private static func pieces(_ name: String) -> [Piece] {
        var result: [Piece] = []
        var current = ""
        var inDigits = false
        func close() {
            guard !current.isEmpty else { return }
            if inDigits {
                let significant = current.drop { $0 == "0" }
                result.append(.number(significant: String(significant), zeros: current.count - significant.count))
            } else {
                result.append(.text(current))
            }
            current = ""
        }
        for character in name {
            let isDigit = character.isASCII && character.isNumber
            if isDigit != inDigits { close(); inDigits = isDigit }
            current.append(character)
        }
        close()
        return result
    }
}
