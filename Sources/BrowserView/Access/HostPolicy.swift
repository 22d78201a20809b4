#if canImport(Glibc)
import Glibc
#endif

/// Which `Host` headers the view answers, so that a page on another site cannot reach it under a
/// name of its own that it points at this machine (DNS rebinding).
///
/// A request's `Host` must name, whatever its port (so that a tunnel or forwarded port works):
/// - the address the request's connection arrived on, written as an address (`127.0.0.1`,
///   `[::1]`, `192.168.1.5`; after binding `0.0.0.0` or `::`, any of the machine's addresses);
/// - `localhost`, when that address is a loopback one;
/// - the address or name given to `--serve`;
/// - this machine's host name, when serving on other than loopback;
/// - a name given with `--allow-host`.
///
/// Anything else, a missing `Host` and a repeated one are refused.
public struct HostPolicy: Sendable, Hashable {
    /// Names accepted besides the connection's own address, in lower case.
    public let names: Set<String>
    /// The same, for names that are addresses: their bytes, so `[0::1]` matches `::1`.
    private let addresses: Set<[UInt8]>

    /// The policy for a server at `address`.
    ///
    /// - Parameters:
    ///   - address: Where the server listens.
    ///   - extra: Further names or addresses to accept (`--allow-host`).
    ///   - machineName: This machine's host name, accepted unless `address` is loopback.
    /// - Throws: ``HostPolicyError`` for an extra name that is no host name or address (a port included).
    public init(address: ServeAddress, allowing extra: [String] = [], machineName: String? = nil) throws(HostPolicyError) {
        var names: Set<String> = []
        for text in extra {
            guard let host = HostHeader(text), host.port == nil else { throw .badName(text) }
            names.insert(host.name)
        }
        if let bound = HostHeader(address.host.contains(":") ? "[\(address.host)]" : address.host),
           !Self.isWildcard(bound.name) {
            names.insert(bound.name)
        }
        if !address.isLoopback, let machine = machineName.flatMap(HostHeader.init), machine.port == nil {
            names.insert(machine.name)
        }
        self.names = names
        addresses = Set(names.compactMap(Self.addressBytes))
    }

    /// Whether a request for `host`, arriving on the local address `localAddress`, is answered.
    public func permits(_ host: HostHeader, localAddress: String?) -> Bool {
        if names.contains(host.name) { return true }
        let local = localAddress.flatMap(Self.addressBytes)
        if let bytes = Self.addressBytes(host.name) {
            return addresses.contains(bytes) || bytes == local
        }
        return host.name == "localhost" && local.map(Self.isLoopback) == true
    }

    /// This machine's host name (`gethostname`), or `nil`.
    public static func machineName() -> String? {
        #if canImport(Glibc)
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? nil : name
        #else
        return nil
        #endif
    }

    /// An IPv4 or IPv6 address's bytes (an IPv4-mapped IPv6 address as its IPv4 bytes), or `nil`
    /// for a name.
    static func addressBytes(_ text: String) -> [UInt8]? {
        #if canImport(Glibc)
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        return bytes.prefix(12) == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF] ? Array(bytes.suffix(4)) : bytes
        #else
        return nil
        #endif
    }

    private static func isLoopback(_ bytes: [UInt8]) -> Bool {
        bytes.count == 4 ? bytes[0] == 127 : bytes == [UInt8](repeating: 0, count: 15) + [1]
    }

    private static func isWildcard(_ name: String) -> Bool {
        addressBytes(name).map { $0.allSatisfy { $0 == 0 } } ?? false
    }
}

/// Why an `--allow-host` name was refused.
public enum HostPolicyError: Error, Equatable, CustomStringConvertible {
    /// The text is no host name or address, or has a port.
    case badName(String)

    public var description: String {
        switch self {
        case .badName(let text):
            "invalid host name '\(text)': give a name or an address without a port, for example camera-pc or 192.168.1.5"
        }
    }
}
