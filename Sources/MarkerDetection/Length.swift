/// A length as a pattern states it: a positive number with a unit (`25mm`, `2.5cm`, `0.025m`,
/// `1in`), or without one (`0.025`: board units, where only the ratios between a pattern's lengths
/// matter).
///
/// Every pattern kind reads its lengths through this one type, so the grammar of a size is the
/// same for a square, a marker, a gap or a tag.
public struct Length: Sendable, Hashable, CustomStringConvertible {
    /// The number as written.
    public var value: Double
    /// Its unit, or `nil` for board units.
    public var unit: LengthUnit?

    /// A length of `value` in `unit`.
    public init(_ value: Double, _ unit: LengthUnit? = nil) {
        self.value = value
        self.unit = unit
    }

    /// Reads a length: a finite positive number followed by a unit (`mm`, `cm`, `m`, `in`, any case)
    /// or by nothing.
    ///
    /// - Returns: `nil` when `text` is not one.
    public init?(parsing text: some StringProtocol) {
        let letters = text.reversed().prefix { $0.isLetter }.count
        let number = text.dropLast(letters)
        let symbol = text.suffix(letters)
        var unit: LengthUnit?
        if !symbol.isEmpty {
            guard let parsed = LengthUnit(symbol: symbol) else { return nil }
            unit = parsed
        }
        // Double("inf") and Double("nan") are letters only, so they never reach here as a number.
        guard let value = Double(String(number)), value.isFinite, value > 0 else { return nil }
        self.init(value, unit)
    }

    /// The length in metres, or `nil` in board units.
    public var metres: Double? { unit.map { $0.metres(value) } }

    /// The length as a pattern writes it: with its unit and no trailing `.0` (`25mm`), or, in board
    /// units, as Swift prints the number (`0.025`, `1.0`).
    public var description: String {
        guard let unit else { return "\(value)" }
        return Self.number(value) + unit.rawValue
    }

    /// `value` without a trailing `.0` when it is whole.
    public static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return "\(value)"
    }
}
