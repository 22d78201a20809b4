/// File names as they are shown to a person, and the length a name may have.
///
/// A name comes from a folder or a manifest, so it may hold anything a file system allows: an
/// escape sequence that would repaint the terminal, a newline that would forge a line of the
/// summary. Shown names have every control character escaped (`\n`, `\t`, `\u{1B}`).
public enum FileNameText {
    /// The longest file name, in bytes (`NAME_MAX` on Linux).
    public static let maximumNameBytes = 255

    /// `name` with its control characters (C0, DEL and C1) and backslashes escaped, safe to print.
    public static func escaped(_ name: String) -> String {
        var result = ""
        for scalar in name.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case let s where s.value < 0x20 || (0x7F...0x9F).contains(s.value):
                result += "\\u{\(String(s.value, radix: 16, uppercase: true))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A name read from the file system as bytes, as text: UTF-8 as it is, and every byte that is
    /// not part of valid UTF-8 written `\xFF`.
    public static func text(ofBytes bytes: [UInt8]) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var result = ""
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            let length = lead < 0x80 ? 1 : lead >> 5 == 0b110 ? 2 : lead >> 4 == 0b1110 ? 3 : lead >> 3 == 0b11110 ? 4 : 0
            if length > 0, index + length <= bytes.count,
               let character = String(validating: bytes[index..<index + length], as: UTF8.self) {
                result += character
                index += length
            } else {
                result += "\\x" + String(lead, radix: 16, uppercase: true).leftPadded(to: 2)
                index += 1
            }
        }
        return result
    }

    /// Why `name` cannot be a file name because of its length, or nil when it can.
    public static func tooLong(_ name: String) -> String? {
        let bytes = name.utf8.count
        guard bytes > maximumNameBytes else { return nil }
        let start = escaped(String(name.prefix(24)))
        return "file name \"\(start)...\" is \(bytes) bytes long, more than the \(maximumNameBytes) a file name can have"
    }
}

private extension String {
    func leftPadded(to length: Int) -> String { String(repeating: "0", count: max(0, length - count)) + self }
}
