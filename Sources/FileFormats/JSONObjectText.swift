import Foundation

/// Builds one JSON object as text with its keys in the order they are added, so that the files the
/// formats write read the same way every time and tools like `jq` or a diff see stable text.
///
/// Numbers are written with at most a stated number of decimals and no trailing zeros (`0.033367`,
/// `12`, `-0` as `0`); a number that is not finite is `null`.
package struct JSONObjectText {
    private var fields: [String] = []

    /// An empty object.
    package init() {}

    /// Adds a field whose value is JSON text already.
    package mutating func add(_ key: String, raw value: String) {
        fields.append("\(Self.string(key)):\(value)")
    }

    /// Adds a string field (`null` when `nil`).
    package mutating func add(_ key: String, _ value: String?) { add(key, raw: value.map(Self.string) ?? "null") }
    /// Adds an integer field (`null` when `nil`).
    package mutating func add(_ key: String, _ value: Int?) { add(key, raw: value.map(String.init) ?? "null") }
    /// Adds an unsigned integer field (`null` when `nil`).
    package mutating func add(_ key: String, _ value: UInt64?) { add(key, raw: value.map(String.init) ?? "null") }
    /// Adds a truth field (`null` when `nil`).
    package mutating func add(_ key: String, _ value: Bool?) { add(key, raw: value.map { $0 ? "true" : "false" } ?? "null") }
    /// Adds a number field with at most `decimals` decimals (`null` when `nil` or not finite).
    package mutating func add(_ key: String, _ value: Double?, decimals: Int) {
        add(key, raw: value.map { Self.number($0, decimals: decimals) } ?? "null")
    }

    /// The object's text.
    package var text: String { openText + "}" }

    /// The object's text without its closing brace, for a caller that adds fields after these.
    package var openText: String { "{" + fields.joined(separator: ",") }

    /// A JSON string literal: `"`, `\` and control characters escaped, everything else as it is.
    package static func string(_ string: String) -> String {
        var result = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case let s where s.value < 0x20: result += String(format: "\\u%04x", s.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// A number with at most `decimals` decimals and no trailing zeros; non-finite numbers are null.
    package static func number(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "null" }
        var text = String(format: "%.\(decimals)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }

    /// Camera controls as an object of their values, keys in name order:
    /// `{"exposure_absolute":400,"gain":10}`.
    package static func controls(_ controls: [String: Int64]) -> String {
        "{" + controls.sorted { $0.key < $1.key }.map { "\(string($0.key)):\($0.value)" }.joined(separator: ",") + "}"
    }

    /// Camera controls read back: an object whose every value is a whole number, or `nil`.
    package static func controls(_ value: JSONValue?) -> [String: Int64]? {
        guard let fields = value?.object else { return nil }
        var controls: [String: Int64] = [:]
        for (name, value) in fields {
            guard case .number(_, let exact?) = value else { return nil }
            controls[name] = exact
        }
        return controls
    }
}
