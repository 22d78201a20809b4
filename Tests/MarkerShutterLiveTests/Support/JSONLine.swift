import Foundation

/// One line of JSON Lines output, parsed.
struct JSONLine: CustomStringConvertible {
    let fields: [String: Any]
    let description: String

    init(_ line: String) throws {
        guard let fields = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw ScriptError("not a JSON object: \(line)")
        }
        self.fields = fields
        description = line
    }

    /// Reads a JSON sidecar or any file holding one object.
    init(contentsOf path: String) throws {
        try self.init(String(contentsOfFile: path, encoding: .utf8))
    }

    func string(_ key: String) -> String? { fields[key] as? String }
    func int(_ key: String) -> Int? { (fields[key] as? NSNumber)?.intValue }
    func double(_ key: String) -> Double? { (fields[key] as? NSNumber)?.doubleValue }
    func bool(_ key: String) -> Bool? { (fields[key] as? NSNumber)?.boolValue }
}
