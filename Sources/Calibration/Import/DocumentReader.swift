import Foundation
import Yams

/// Reads another tool's file into a ``DocumentValue`` with the parser that tool's files need:
/// OpenCV's own FileStorage (through the calibration shim) for documents that begin with `%YAML`
/// or `<?xml`, JSON, mrcal's Python literals for `.cameramodel` files, and YAML (libyaml, through
/// Yams) for the rest, as ROS and Kalibr write it.
enum DocumentReader {
    /// The largest file read: far above any calibration file.
    static let maximumBytes = 16 << 20
    /// The most values a YAML document may expand to (aliases included).
    static let maximumValues = 1_000_000

    /// What a file was read as, for messages.
    enum Syntax: String {
        case openCV = "OpenCV FileStorage"
        case json = "JSON"
        case python = "mrcal's Python literal"
        case yaml = "YAML"
    }

    /// Reads `path`, a regular file of at most ``maximumBytes``.
    ///
    /// - Throws: ``ComparisonError/unreadable(path:reason:)`` for a missing file, a device, FIFO or
    ///   folder, a file too large, or one no parser reads.
    static func read(_ path: String) throws(ComparisonError) -> (value: DocumentValue, syntax: Syntax) {
        let bytes = try contents(of: path)
        let text = String(decoding: bytes, as: UTF8.self)
        let head = text.drop { $0.isWhitespace }
        do {
            if head.hasPrefix("%YAML") || head.hasPrefix("<?xml") {
                if let reason = head.hasPrefix("<?xml") ? NestingGuard.xml(bytes) : NestingGuard.yaml(bytes) {
                    throw ComparisonError.unreadable(path: path, reason: reason)
                }
                let json = try CalibrationShim.storageJSON(bytes)
                return (try value(ofJSON: Data(json.utf8)), .openCV)
            }
            if path.lowercased().hasSuffix(".cameramodel") {
                return (try PythonLiteral.parse(text), .python)
            }
            if head.hasPrefix("{") || head.hasPrefix("["), NestingGuard.json(bytes) == nil, let value = try? value(ofJSON: Data(bytes)) {
                return (value, .json)
            }
            if head.hasPrefix("{") || head.hasPrefix("#"), let value = try? PythonLiteral.parse(text) {
                return (value, .python)
            }
            if let reason = NestingGuard.yaml(bytes) { throw ComparisonError.unreadable(path: path, reason: reason) }
            guard let node = try Yams.compose(yaml: text) else { throw ComparisonError.unreadable(path: path, reason: "it is empty") }
            var budget = maximumValues
            return (try value(of: node, budget: &budget, depth: 0), .yaml)
        } catch let error as ComparisonError {
            throw error
        } catch {
            throw .unreadable(path: path, reason: "not a calibration file that OpenCV, ROS, Kalibr or mrcal writes (\(error))")
        }
    }

    /// The bytes of a regular file of at most ``maximumBytes``.
    static func contents(of path: String) throws(ComparisonError) -> [UInt8] {
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: path)
        } catch {
            throw .unreadable(path: path, reason: "no such file or folder")
        }
        guard attributes[.type] as? FileAttributeType == .typeRegular else {
            throw .unreadable(path: path, reason: "not a regular file (a device, FIFO or other special file is never read)")
        }
        if let size = attributes[.size] as? Int, size > maximumBytes {
            throw .unreadable(path: path, reason: "\(size) bytes: a calibration file is at most \(maximumBytes) bytes")
        }
        guard let handle = FileHandle(forReadingAtPath: path), let data = try? handle.read(upToCount: maximumBytes + 1) else {
            throw .unreadable(path: path, reason: "the file cannot be read")
        }
        try? handle.close()
        guard data.count <= maximumBytes else {
            throw .unreadable(path: path, reason: "a calibration file is at most \(maximumBytes) bytes")
        }
        return Array(data)
    }

    private struct Unreadable: Error, CustomStringConvertible {
        let description: String
    }

    private static func value(ofJSON data: Data) throws -> DocumentValue {
        try value(ofJSONObject: try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]), depth: 0)
    }

    private static func value(ofJSONObject object: Any, depth: Int) throws -> DocumentValue {
        guard depth < 64 else { throw Unreadable(description: "nested deeper than 64 levels") }
        switch object {
        case let map as [String: Any]:
            var values: [String: DocumentValue] = [:]
            for (key, item) in map { values[key] = try value(ofJSONObject: item, depth: depth + 1) }
            return .map(values)
        case let list as [Any]:
            return .list(try list.map { try value(ofJSONObject: $0, depth: depth + 1) })
        case let string as String:
            return .string(string)
        case let number as NSNumber:
            return .number(number.doubleValue)
        default:
            return .null
        }
    }

    /// YAML's names for the floats that are not finite: read as numbers, so that a camera holding
    /// one is refused for it rather than read as a camera without that field.
    private static let specialFloats: [String: Double] = [
        ".nan": .nan, ".NaN": .nan, ".NAN": .nan, ".inf": .infinity, ".Inf": .infinity, ".INF": .infinity,
        "+.inf": .infinity, "+.Inf": .infinity, "+.INF": .infinity, "-.inf": -.infinity, "-.Inf": -.infinity, "-.INF": -.infinity,
    ]

    private static func value(of node: Node, budget: inout Int, depth: Int) throws -> DocumentValue {
        budget -= 1
        guard budget >= 0 else { throw Unreadable(description: "it expands to more than \(maximumValues) values") }
        guard depth < 64 else { throw Unreadable(description: "nested deeper than 64 levels") }
        switch node {
        case .scalar(let scalar):
            if scalar.style == .plain, let number = Double(scalar.string) ?? specialFloats[scalar.string] { return .number(number) }
            if scalar.style == .plain, ["~", "null", "Null", "NULL", ""].contains(scalar.string) { return .null }
            return .string(scalar.string)
        case .mapping(let mapping):
            var values: [String: DocumentValue] = [:]
            for (key, item) in mapping {
                guard case .scalar(let name) = key else { throw Unreadable(description: "a key that is not a scalar") }
                values[name.string] = try value(of: item, budget: &budget, depth: depth + 1)
            }
            return .map(values)
        case .sequence(let sequence):
            var items: [DocumentValue] = []
            for item in sequence { items.append(try value(of: item, budget: &budget, depth: depth + 1)) }
            return .list(items)
        }
    }
}
