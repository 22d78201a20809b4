import Foundation
import MarkerDetection

/// Builds one JSON object as text with its keys in a fixed order, so that output lines read the
/// same way every time and tools like `jq` or a diff see stable text.
struct JSONObject {
    private var fields: [String] = []

    mutating func add(_ key: String, raw value: String) {
        fields.append("\(JSONObject.string(key)):\(value)")
    }

    mutating func add(_ key: String, _ value: String?) { add(key, raw: value.map(JSONObject.string) ?? "null") }
    mutating func add(_ key: String, _ value: Int?) { add(key, raw: value.map(String.init) ?? "null") }
    mutating func add(_ key: String, _ value: UInt64?) { add(key, raw: value.map(String.init) ?? "null") }
    mutating func add(_ key: String, _ value: Bool) { add(key, raw: value ? "true" : "false") }
    mutating func add(_ key: String, _ value: Double?, decimals: Int) {
        add(key, raw: value.map { JSONObject.number($0, decimals: decimals) } ?? "null")
    }

    var text: String { openText + "}" }

    /// The object's text without its closing brace, for a caller that adds fields after these.
    var openText: String { "{" + fields.joined(separator: ",") }

    /// A JSON string literal.
    static func string(_ text: String) -> String { FrameManifest.jsonString(text) }

    /// A number with at most `decimals` decimals and no trailing zeros; non-finite numbers are null.
    static func number(_ value: Double, decimals: Int) -> String {
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
    static func controls(_ controls: [String: Int64]) -> String { FrameManifest.controlsText(controls) }

    static func point(_ point: ImagePoint) -> String {
        "[\(number(point.x, decimals: 3)),\(number(point.y, decimals: 3))]"
    }
}

extension Detection {
    /// `[{"id": Int, "corners": [[x,y],[x,y],[x,y],[x,y]]}, ...]`
    var markersJSON: String {
        "[" + markers.map { marker in
            "{\"id\":\(marker.id),\"corners\":[" + marker.corners.map(JSONObject.point).joined(separator: ",") + "]}"
        }.joined(separator: ",") + "]"
    }

    /// `[{"id": Int, "xy": [x,y]}, ...]`
    var boardCornersJSON: String {
        "[" + boardCorners.map { "{\"id\":\($0.id),\"xy\":\(JSONObject.point($0.point))}" }.joined(separator: ",") + "]"
    }

    /// Milliseconds the detection took.
    var milliseconds: Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1e3 + Double(attoseconds) / 1e15
    }
}
