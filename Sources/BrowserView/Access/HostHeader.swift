/// A `Host` header (or the authority of an `Origin`) taken apart: `NAME`, `NAME:PORT`, `[IPV6]`,
/// `[IPV6]:PORT`. The name is kept in lower case without a final dot, so `LocalHost.:8080` and
/// `localhost:8080` are the same host.
public struct HostHeader: Sendable, Hashable, CustomStringConvertible {
    /// The host name or address, lower case, IPv6 without brackets.
    public let name: String
    /// The port, when the header gives one.
    public let port: Int?

    /// A host as it is: `name` already in lower case, without brackets.
    init(name: String, port: Int?) {
        self.name = name
        self.port = port
    }

    /// The longest header read; a longer one is refused unread (no name is that long).
    public static let maximumLength = 300

    /// Parses a header's value; `nil` when it is not a host with an optional port.
    ///
    /// A name may hold letters, digits, `-`, `_` and `.`; an address in brackets only hex digits,
    /// `:` and `.`; a port is 1 to 5 digits up to 65535.
    public init?(_ text: String) {
        let utf8 = Array(text.utf8)
        guard utf8.count <= Self.maximumLength else { return nil }
        var start = 0, end = utf8.count
        while start < end, utf8[start] == 0x20 || utf8[start] == 0x09 { start += 1 }
        while end > start, utf8[end - 1] == 0x20 || utf8[end - 1] == 0x09 { end -= 1 }
        let value = Array(utf8[start..<end])
        let nameBytes: ArraySlice<UInt8>
        let rest: ArraySlice<UInt8>
        if value.first == UInt8(ascii: "[") {
            guard let close = value.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            nameBytes = value[1..<close]
            rest = value[(close + 1)...]
            guard nameBytes.contains(UInt8(ascii: ":")), nameBytes.allSatisfy(Self.isAddressByte) else { return nil }
        } else {
            let colon = value.firstIndex(of: UInt8(ascii: ":")) ?? value.count
            nameBytes = value[..<colon]
            rest = value[colon...]
            guard nameBytes.allSatisfy(Self.isNameByte) else { return nil }
        }
        var name = String(decoding: nameBytes, as: UTF8.self).lowercased()
        guard !name.isEmpty, !name.hasPrefix("."), !name.contains("..") else { return nil }
        if name.hasSuffix("."), !nameBytes.contains(UInt8(ascii: ":")) { name.removeLast() }  // the root's dot
        if rest.isEmpty {
            port = nil
        } else {
            let digits = rest.dropFirst()
            guard rest.first == UInt8(ascii: ":"), (1...5).contains(digits.count),
                  digits.allSatisfy({ (0x30...0x39).contains($0) }),
                  let number = Int(String(decoding: digits, as: UTF8.self)), number <= 65_535 else { return nil }
            port = number
        }
        self.name = name
    }

    /// The header as it would be written: brackets around an IPv6 address, the port when known.
    public var description: String {
        let shown = name.contains(":") ? "[\(name)]" : name
        return port.map { "\(shown):\($0)" } ?? shown
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."): true
        default: false
        }
    }

    private static func isAddressByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: ":"), UInt8(ascii: "."): true
        default: false
        }
    }
}
