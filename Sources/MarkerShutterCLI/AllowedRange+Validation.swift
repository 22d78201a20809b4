import ArgumentParser
import MarkerShutter

extension AllowedRange {
    /// Checks an option's value, as a usage error naming the option, the value and the range.
    func validate(_ value: Value?, option: String) throws {
        guard let value else { return }
        do {
            try check(value, name: option)
        } catch {
            throw ValidationError(error.description)
        }
    }
}

extension AllowedRange where Value: FixedWidthInteger {
    /// Reads an option's whole number: one too large for the type is refused with the range, as one
    /// outside it is, instead of argument-parser's bare "invalid".
    ///
    /// - Parameter option: The option's name, for the message (`"--jobs"`).
    func parse(option: String) -> @Sendable (String) throws -> Value {
        let range = self
        return { text in
            if let value = Value(text) { return value }
            let digits = text.drop { $0 == "-" || $0 == "+" }
            if text.count - digits.count <= 1, !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit) {
                throw OutOfRangeError(name: option, value: text, allowed: range.description)
            }
            throw ValidationError("\(option) must be a whole number, \(range.description), got \(text)")
        }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
