/// Who may use the view: everyone who reaches the address, or only requests carrying the token.
///
/// The token travels in the page's address (`/?token=…`), which the page passes on to the stream,
/// the events and the commands; scripts may send `Authorization: Bearer …` instead.
public struct ViewAccess: Sendable, Hashable {
    /// The token requests must carry; `nil` lets every request through.
    public let token: String?

    /// Characters a token may hold: they need no escaping in a URL.
    public static let tokenCharacters = "A-Z a-z 0-9 - . _ ~"

    /// Every request passes (no token).
    public static let open = ViewAccess(checked: nil)

    private init(checked token: String?) { self.token = token }

    /// Access for `token`.
    ///
    /// - Throws: ``ViewAccessError`` when the token is empty or holds characters outside
    ///   ``tokenCharacters``.
    public init(token: String?) throws(ViewAccessError) {
        if let token {
            guard !token.isEmpty else { throw .emptyToken }
            if let bad = token.unicodeScalars.first(where: { !Self.isTokenCharacter($0) }) {
                throw .badCharacter(token, Character(bad))
            }
        }
        self.token = token
    }

    /// Whether a request may pass, given the token in its query and its `Authorization` header.
    public func permits(queryToken: String?, authorization: String?) -> Bool {
        guard let token else { return true }
        let bearer = authorization.flatMap { value in
            value.hasPrefix("Bearer ") ? String(value.dropFirst("Bearer ".count)) : nil
        }
        return [queryToken, bearer].contains { $0.map { Self.constantTimeEqual($0, token) } ?? false }
    }

    private static func isTokenCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "A"..."Z", "a"..."z", "0"..."9", "-", ".", "_", "~": true
        default: false
        }
    }

    /// Compares without stopping at the first difference, so timing does not reveal the token.
    private static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        var difference = UInt8(truncatingIfNeeded: x.count ^ y.count)
        for i in 0..<max(x.count, y.count) {
            difference |= (i < x.count ? x[i] : 0) ^ (i < y.count ? y[i] : 0)
        }
        return difference == 0
    }
}

/// Why a `--token` was refused.
public enum ViewAccessError: Error, Equatable, CustomStringConvertible {
    /// The token is empty.
    case emptyToken
    /// The token holds a character that would need escaping in a URL.
    case badCharacter(String, Character)

    public var description: String {
        switch self {
        case .emptyToken: "invalid token: it is empty; use letters, digits and - . _ ~"
        case .badCharacter(_, let character):
            "invalid token: '\(character)' is not allowed; use letters, digits and - . _ ~"
        }
    }
}
