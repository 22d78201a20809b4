/// Where the browser view listens: `[ADDRESS:]PORT`, as `live --serve` takes it.
///
/// The address defaults to `127.0.0.1`, so that only this machine can watch. Any other address
/// lets everyone who reaches it watch the camera and take pictures: ``exposureWarning`` says so,
/// and ``ViewAccess`` then requires the token when one is given.
public struct ServeAddress: Sendable, Hashable, CustomStringConvertible {
    /// The address to bind: an IPv4 address, an IPv6 address (without brackets) or a host name.
    public var host: String
    /// The TCP port; 0 lets the system choose one.
    public var port: Int

    /// The address used when only a port is given.
    public static let defaultHost = "127.0.0.1"

    /// An address and a port.
    public init(host: String = ServeAddress.defaultHost, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `PORT`, `ADDRESS:PORT` or `[IPV6]:PORT`.
    ///
    /// - Throws: ``ServeAddressError`` naming the text and what is allowed.
    public init(parsing text: String) throws(ServeAddressError) {
        let host: String
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                throw .malformed(text)
            }
            host = String(text[text.index(after: text.startIndex)..<close])
            portText = text[text.index(close, offsetBy: 2)...]
        } else if let colon = text.lastIndex(of: ":") {
            host = String(text[..<colon])
            portText = text[text.index(after: colon)...]
            guard !host.contains(":") else { throw .malformed(text) }
        } else {
            host = Self.defaultHost
            portText = Substring(text)
        }
        guard !host.isEmpty, !host.contains(where: { $0 == " " || $0 == "/" }) else { throw .malformed(text) }
        guard let port = Int(portText), (0...65_535).contains(port) else { throw .badPort(text, String(portText)) }
        self.init(host: host, port: port)
    }

    /// Whether only this machine can connect (`127.0.0.0/8`, `::1`, `localhost`).
    public var isLoopback: Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.") && host.split(separator: ".").count == 4
    }

    /// The warning to print before serving on an address others can reach; `nil` on loopback.
    ///
    /// - Parameter token: The token requests must carry, when one was given.
    public func exposureWarning(token: String?) -> String? {
        guard !isLoopback else { return nil }
        let base = "warning: serving on \(self): anyone on the network who reaches it can watch the camera and take pictures"
        return token == nil
            ? base + "; give --token to require a token in the page address"
            : base + " with the token in the page address"
    }

    /// The page's address, with the token when one is required.
    public func pageURL(token: String?) -> String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "http://\(shownHost):\(port)/" + (token.map { "?token=\($0)" } ?? "")
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// Why a `--serve` address was refused.
public enum ServeAddressError: Error, Equatable, CustomStringConvertible {
    /// The text is not `[ADDRESS:]PORT`.
    case malformed(String)
    /// The port is not a number in 0...65535.
    case badPort(String, String)

    public var description: String {
        switch self {
        case .malformed(let text):
            "invalid address '\(text)': expected PORT, ADDRESS:PORT or [IPV6]:PORT, for example 8080 or 0.0.0.0:8080"
        case .badPort(let text, let port):
            "invalid address '\(text)': the port must be a number from 0 to 65535, found '\(port)'"
        }
    }
}
