/// A number as the project's JSON files write it through `JSONEncoder`: itself when finite, `null`
/// otherwise (JSON has no NaN or infinity, and one would make the whole encoding fail); read back
/// the same way, `null` as NaN.
public struct FiniteNumber: Sendable, Equatable, Codable {
    /// The number.
    public var value: Double

    /// Wraps a number.
    public init(_ value: Double) { self.value = value }

    /// Encodes the number, or `null` when it is not finite.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if value.isFinite { try container.encode(value) } else { try container.encodeNil() }
    }

    /// Decodes a number, or NaN for `null`.
    ///
    /// - Throws: `DecodingError` for anything else, a number too large for a `Double` included.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            value = .nan
            return
        }
        do {
            value = try container.decode(Double.self)
        } catch let error as DecodingError {
            throw error
        } catch {
            // Foundation's own error for a number a Double cannot hold names no field.
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "a number too large for a Double")
        }
        guard value.isFinite else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(value) is not a finite number")
        }
    }

    /// Each of `values` wrapped.
    public static func list(_ values: [Double]) -> [FiniteNumber] { values.map(FiniteNumber.init) }
}
