/// A number as the project's JSON files write it through `JSONEncoder`: itself when finite, `null`
/// otherwise (JSON has no NaN or infinity, and one would make the whole encoding fail).
public struct FiniteNumber: Sendable, Equatable, Encodable {
    /// The number.
    public var value: Double

    /// Wraps a number.
    public init(_ value: Double) { self.value = value }

    /// Encodes the number, or `null` when it is not finite.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if value.isFinite { try container.encode(value) } else { try container.encodeNil() }
    }

    /// Each of `values` wrapped.
    public static func list(_ values: [Double]) -> [FiniteNumber] { values.map(FiniteNumber.init) }
}
