import Foundation

/// Reads the Python literals mrcal writes its `.cameramodel` files in (mrcal reads them with
/// `ast.literal_eval`): dicts, lists, tuples, strings (a `b'...'` bytes literal as a string),
/// numbers, `True`, `False`, `None`, and `#` comments.
struct PythonLiteral {
    /// Why a text is not such a literal.
    struct SyntaxError: Error, CustomStringConvertible {
        let message: String
        let offset: Int
        var description: String { "\(message) at byte \(offset)" }
    }

    private let bytes: [UInt8]
    private var index = 0
    private static let maximumDepth = 64

    /// Parses `text`: one value, then only blanks and comments.
    static func parse(_ text: String) throws(SyntaxError) -> DocumentValue {
        var parser = PythonLiteral(bytes: Array(text.utf8))
        let value = try parser.value(depth: 0)
        parser.skipBlanks()
        guard parser.index == parser.bytes.count else { throw parser.error("more after the literal") }
        return value
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private func error(_ message: String) -> SyntaxError { SyntaxError(message: message, offset: index) }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipBlanks() {
        while let byte = current {
            if byte == UInt8(ascii: "#") {
                while let next = current, next != UInt8(ascii: "\n") { index += 1 }
            } else if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x5C && next == 0x0A {
                index += byte == 0x5C ? 2 : 1
            } else {
                return
            }
        }
    }

    private var next: UInt8? { index + 1 < bytes.count ? bytes[index + 1] : nil }

    private mutating func value(depth: Int) throws(SyntaxError) -> DocumentValue {
        guard depth < Self.maximumDepth else { throw error("nested deeper than \(Self.maximumDepth) levels") }
        skipBlanks()
        guard let byte = current else { throw error("a value expected, found the end") }
        switch byte {
        case UInt8(ascii: "{"):
            index += 1
            var map: [String: DocumentValue] = [:]
            while true {
                skipBlanks()
                if current == UInt8(ascii: "}") {
                    index += 1
                    return .map(map)
                }
                guard case .string(let key) = try value(depth: depth + 1) else { throw error("a string key expected") }
                skipBlanks()
                guard current == UInt8(ascii: ":") else { throw error("':' expected") }
                index += 1
                map[key] = try value(depth: depth + 1)
                skipBlanks()
                if current == UInt8(ascii: ",") {
                    index += 1
                } else if current != UInt8(ascii: "}") {
                    throw error("',' or '}' expected")
                }
            }
        case UInt8(ascii: "["), UInt8(ascii: "("):
            let close = byte == UInt8(ascii: "[") ? UInt8(ascii: "]") : UInt8(ascii: ")")
            index += 1
            var items: [DocumentValue] = []
            while true {
                skipBlanks()
                if current == close {
                    index += 1
                    return .list(items)
                }
                items.append(try value(depth: depth + 1))
                skipBlanks()
                if current == UInt8(ascii: ",") {
                    index += 1
                } else if current != close {
                    throw error("',' or '\(Character(UnicodeScalar(close)))' expected")
                }
            }
        case UInt8(ascii: "'"), UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "b") where next == UInt8(ascii: "'") || next == UInt8(ascii: "\""):
            index += 1
            return .string(try string())
        default:
            return try word()
        }
    }

    private mutating func string() throws(SyntaxError) -> String {
        let quote = bytes[index]
        index += 1
        var out: [UInt8] = []
        while true {
            guard let byte = current else { throw error("a string is not closed") }
            index += 1
            if byte == quote { return String(decoding: out, as: UTF8.self) }
            if byte == UInt8(ascii: "\\") {
                guard let escaped = current else { throw error("a string is not closed") }
                index += 1
                switch escaped {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "r"): out.append(0x0D)
                case 0x0A: break
                default: out.append(escaped)
                }
            } else if byte == 0x0A {
                throw error("a line break inside a string")
            } else {
                out.append(byte)
            }
        }
    }

    private mutating func word() throws(SyntaxError) -> DocumentValue {
        let start = index
        while let byte = current, byte.isWordByte { index += 1 }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        switch text {
        case "True": return .number(1)
        case "False": return .number(0)
        case "None": return .null
        default:
            guard !text.isEmpty, let number = Double(text.replacingOccurrences(of: "_", with: "")), number.isFinite else {
                index = start
                throw error("a value expected, found '\(text.isEmpty ? String(UnicodeScalar(bytes[start])) : text)'")
            }
            return .number(number)
        }
    }
}

private extension UInt8 {
    /// A byte of a number or a name.
    var isWordByte: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self) || self == UInt8(ascii: ".") || self == UInt8(ascii: "-")
            || self == UInt8(ascii: "+") || self == UInt8(ascii: "_")
    }
}
