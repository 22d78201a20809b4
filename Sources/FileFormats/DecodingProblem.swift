package import Foundation

/// Foundation's `DecodingError` in one plain sentence that names the field, for messages about a
/// file a user gave: `field camera_matrix is missing`, `field camera_matrix[4] is not a number`,
/// instead of the error's description with its coding path and context dumped.
package enum DecodingProblem {
    /// What is wrong, as one sentence without a capital or a full stop; `it is not JSON` for an
    /// error that names no field.
    ///
    /// - Parameters:
    ///   - error: What the decoder threw.
    ///   - data: The document, when at hand: JSON that the decoder refused as a whole (it does so
    ///     for a fraction where a whole number belongs, or a number beyond the type's range) is then
    ///     told apart from text that is no JSON at all.
    package static func sentence(_ error: any Error, in data: Data? = nil) -> String {
        guard let error = error as? DecodingError else { return "it is not JSON" }
        switch error {
        case .keyNotFound(let key, let context):
            return "field \(path(context.codingPath + [key])) is missing"
        case .typeMismatch(let type, let context):
            return context.codingPath.isEmpty ? "it is not \(noun(type))" : "field \(path(context.codingPath)) is not \(noun(type))"
        case .valueNotFound(let type, let context):
            return "field \(path(context.codingPath)) is null, not \(noun(type))"
        case .dataCorrupted(let context):
            guard context.codingPath.isEmpty else { return "field \(path(context.codingPath)) is not a value that can be read" }
            if let data, (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil {
                return "a number in it is not one its field can hold (a fraction where a whole number belongs, or too large)"
            }
            return "it is not JSON"
        @unknown default:
            return "it is not JSON"
        }
    }

    /// `projection_uncertainty.grid.px[3]`: keys joined by dots, list positions in brackets.
    static func path(_ keys: [any CodingKey]) -> String {
        var text = ""
        for key in keys {
            if let index = key.intValue, key.stringValue.hasPrefix("Index ") || key.stringValue == "\(index)" {
                text += "[\(index)]"
            } else {
                text += (text.isEmpty ? "" : ".") + key.stringValue
            }
        }
        return text.isEmpty ? "(the whole document)" : text
    }

    /// The kind of value a type is read from, in words.
    static func noun(_ type: Any.Type) -> String {
        switch type {
        case is Double.Type, is Float.Type: return "a number"
        case is Int.Type, is Int64.Type, is Int32.Type, is UInt.Type: return "a whole number"
        case is String.Type: return "text"
        case is Bool.Type: return "true or false"
        default:
            let name = String(describing: type)
            if name.hasPrefix("Array") { return "a list" }
            if name.hasPrefix("Dictionary") { return "an object of fields" }
            return "a value of the right kind"
        }
    }
}
