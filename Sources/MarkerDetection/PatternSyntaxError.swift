/// A pattern string that does not follow ``Pattern/grammar``.
public struct PatternSyntaxError: Error, Hashable, CustomStringConvertible {
    /// The whole string that was parsed.
    public let text: String
    /// What the parser expected where the string went wrong, and what it found instead.
    public let expected: String

    /// Makes an error for `text`.
    public init(text: String, expected: String) {
        self.text = text
        self.expected = expected
    }

    /// `invalid pattern 'TEXT': expected WHAT`.
    public var description: String { "invalid pattern '\(text)': expected \(expected)" }
}
