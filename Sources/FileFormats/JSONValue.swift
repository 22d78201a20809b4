public import Foundation

/// A JSON value as read from a file that may have been written by anyone: decoded by Foundation's
/// `JSONDecoder`, then checked field by field by the format that reads it, so that a refusal can
/// name the field that is missing, of the wrong type or out of its range.
///
/// A number keeps both readings: its `Double` and, when the text is a whole number a 64-bit
/// integer holds, that integer exactly.
public enum JSONValue: Sendable, Equatable, Decodable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number: its value, and the integer it is when it is one a 64-bit integer holds exactly.
    case number(Double, exact: Int64?)
    /// A string.
    case string(String)
    /// A list.
    case array([JSONValue])
    /// An object (a key given twice keeps its last value).
    case object([String: JSONValue])

    /// Decodes any JSON value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let double = try? container.decode(Double.self) {
            self = .number(double, exact: try? container.decode(Int64.self))
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let list = try? container.decode([JSONValue].self) {
            self = .array(list)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Parses a whole document.
    ///
    /// - Throws: Foundation's `DecodingError` when `data` is not JSON.
    public init(parsing data: Data) throws {
        self = try JSONDecoder().decode(JSONValue.self, from: data)
    }

    /// The string, or `nil` for any other value.
    public var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The list, or `nil` for any other value.
    public var array: [JSONValue]? {
        if case .array(let list) = self { return list }
        return nil
    }

    /// The object's fields, or `nil` for any other value.
    public var object: [String: JSONValue]? {
        if case .object(let fields) = self { return fields }
        return nil
    }

    /// The truth value, or `nil` for any other value.
    public var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// A number as a `Double`, or `nil` (`true`, text, a list).
    public var real: Double? {
        if case .number(let value, _) = self { return value }
        return nil
    }

    /// A number that is a whole number a 64-bit integer holds exactly, or `nil` (`true`, `1.5`,
    /// `1e300`, text). A whole number written with a fraction or an exponent (`2.0`, `1e3`) counts
    /// when it is at most 2^53 in size, where a `Double` is exact.
    public var integer: Int? {
        guard case .number(let value, let exact) = self else { return nil }
        if let exact { return Int(exact) }
        guard value.isFinite, value.rounded() == value, abs(value) <= 9_007_199_254_740_992 else { return nil }
        return Int(value)
    }
}
