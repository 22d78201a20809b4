import Foundation

/// A JSON file written whole from an `Encodable` value, as `calibration.json` and `rig.json` are:
/// keys sorted, two spaces of indent (`JSONEncoder`'s pretty printing), a final newline.
package protocol SortedJSONFile: Encodable {}

extension SortedJSONFile {
    /// The file's text: keys sorted, two spaces of indent (`JSONEncoder`'s pretty printing), a
    /// final newline.
    package var text: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        if let data = try? encoder.encode(self) {
            return String(decoding: data, as: UTF8.self) + "\n"
        }
        // Not reached (every number is finite or null); kept so that the file is never empty
        // whatever a future field holds.
        return "{\"error\": \"the report could not be encoded\"}\n"
    }
}
