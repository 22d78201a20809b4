/// How deep a JSON document nests, counted before a parser that recurses once per level
/// (Foundation's) meets it: a hostile file of a few megabytes of `[` would otherwise overflow the
/// stack. No file this project reads nests more than a few levels.
package enum JSONNesting {
    /// The deepest nesting a document may have.
    package static let maximumDepth = 64

    /// `nil` when `bytes` nest at most ``maximumDepth`` deep, else why not. Strings are skipped with
    /// JSON's own escapes, so the count is exact.
    package static func problem<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String? {
        var depth = 0, inString = false, escaped = false
        for byte in bytes {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > maximumDepth { return "it is nested deeper than \(maximumDepth) levels" }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth = max(0, depth - 1)
            default: break
            }
        }
        return nil
    }
}
