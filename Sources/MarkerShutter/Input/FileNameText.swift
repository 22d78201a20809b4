import SystemCalls

/// File names as they are shown to a person, and the length a name may have.
///
/// A name comes from a folder or a manifest, so it may hold anything a file system allows: an
/// escape sequence that would repaint the terminal, a newline that would forge a line of the
/// summary. Shown names have every control character escaped (`\n`, `\t`, `\u{1B}`).
package enum FileNameText {
    /// The longest file name, in bytes (`NAME_MAX` on Linux).
    package static let maximumNameBytes = 255

    /// `name` with its control characters (C0, DEL and C1) and backslashes escaped, safe to print.
    package static func escaped(_ name: String) -> String {
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

    /// A message for the terminal with every control character but its line breaks and tabs
    /// escaped (`\u{1B}`): the names in it may come from a folder or a list, and an escape sequence
    /// in one would repaint the terminal. Text already ``escaped(_:)`` passes unchanged.
    package static func terminalSafe(_ message: String) -> String {
        var result = ""
        for scalar in message.unicodeScalars {
            switch scalar {
            case "\n", "\t": result.unicodeScalars.append(scalar)
            case let s where s.value < 0x20 || (0x7F...0x9F).contains(s.value):
                result += "\\u{\(String(s.value, radix: 16, uppercase: true))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A name read from the file system as bytes, as text: UTF-8 as it is, and every byte that is
    /// not part of valid UTF-8 written `\xFF`.
    package static func text(ofBytes bytes: [UInt8]) -> String { SystemCall.text(ofNameBytes: bytes) }

    /// Why `name` cannot be a file name because of its length, or nil when it can.
    static func tooLong(_ name: String) -> String? {
        let bytes = name.utf8.count
        guard bytes > maximumNameBytes else { return nil }
        let start = escaped(String(name.prefix(24)))
        return "file name \"\(start)...\" is \(bytes) bytes long, more than the \(maximumNameBytes) a file name can have"
    }
}
