/// A unit of physical length a pattern's sizes may carry (`square=25mm`).
public enum LengthUnit: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Millimetres, written `mm`.
    case millimetre = "mm"
    /// Centimetres, written `cm`.
    case centimetre = "cm"
    /// Metres, written `m`.
    case metre = "m"
    /// Inches (25.4 mm), written `in`.
    case inch = "in"

    /// Reads a unit as a pattern writes it, in any case (`mm`, `CM`, `m`, `in`).
    public init?(symbol: some StringProtocol) {
        guard let unit = LengthUnit(rawValue: symbol.lowercased()) else { return nil }
        self = unit
    }

    /// `value` of this unit in metres (a division by the units in a metre, exact for mm, cm and m).
    public func metres(_ value: Double) -> Double {
        switch self {
        case .millimetre: value / 1000
        case .centimetre: value / 100
        case .metre: value
        case .inch: value * 0.0254
        }
    }

    /// `metres` expressed in this unit.
    public func value(ofMetres metres: Double) -> Double {
        switch self {
        case .millimetre: metres * 1000
        case .centimetre: metres * 100
        case .metre: metres
        case .inch: metres / 0.0254
        }
    }

    /// The unit's name in the plural, for sentences: `millimetres`.
    public var name: String {
        switch self {
        case .millimetre: "millimetres"
        case .centimetre: "centimetres"
        case .metre: "metres"
        case .inch: "inches"
        }
    }

    /// The unit as a pattern writes it: `mm`, `cm`, `m`, `in`.
    public var description: String { rawValue }
}
