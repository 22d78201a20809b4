/// The values a number given by the user (an option, a manifest field) may take, with the message
/// that names the value and the range when it falls outside.
///
/// Every number that later becomes a `Duration`, a thread count or an image size is checked against
/// one of these first, so that no conversion can overflow: `--hold 1e10` is an error that says
/// what is allowed, never a crash.
package struct AllowedRange<Value: Comparable & Sendable>: Sendable, CustomStringConvertible {
    /// The smallest value allowed.
    package let lower: Value
    /// The largest value allowed.
    let upper: Value
    /// The unit named in messages (`"seconds"`), or empty.
    package let unit: String

    /// Creates a range.
    ///
    /// - Parameters:
    ///   - range: The values allowed, bounds included.
    ///   - unit: The unit named in messages, or empty.
    package init(_ range: ClosedRange<Value>, unit: String = "") {
        lower = range.lowerBound
        upper = range.upperBound
        self.unit = unit
    }

    /// Whether `value` is allowed (never for NaN).
    package func contains(_ value: Value) -> Bool { lower <= value && value <= upper }

    /// Returns `value` when it is allowed.
    ///
    /// - Parameters:
    ///   - value: The value to check.
    ///   - name: What the value is, for the message (`"--hold"`).
    /// - Throws: ``OutOfRangeError`` naming `name`, the value and the range.
    @discardableResult
    package func check(_ value: Value, name: String) throws(OutOfRangeError) -> Value {
        guard contains(value) else {
            throw OutOfRangeError(name: name, value: Self.text(value), allowed: description)
        }
        return value
    }

    /// The range as a message states it: `0 to 3600 seconds`.
    package var description: String {
        "\(Self.text(lower)) to \(Self.text(upper))" + (unit.isEmpty ? "" : " \(unit)")
    }

    /// A value as a person writes it: `3600`, not `3600.0`.
    static func text(_ value: Value) -> String {
        let text = "\(value)"
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }
}

/// A number outside the values allowed.
package struct OutOfRangeError: Error, Equatable, CustomStringConvertible {
    /// What the number is (`"--hold"`, `"t"`).
    package let name: String
    /// The number as given.
    package let value: String
    /// The values allowed, as text.
    package let allowed: String

    /// Creates an error.
    package init(name: String, value: String, allowed: String) {
        self.name = name
        self.value = value
        self.allowed = allowed
    }

    package var description: String { "\(name) must be \(allowed), got \(value)" }
}
