/// Whether a request that changes something comes from the view's own page.
///
/// Browsers say where a request comes from: `Sec-Fetch-Site` (`same-origin`, `same-site`,
/// `cross-site`, or `none` for an address the user typed) and `Origin` (`scheme://host[:port]`,
/// or `null`). A request passes when `Sec-Fetch-Site`, if sent, is `same-origin` or `none`, and
/// `Origin`, if sent, names the same host and port as its `Host`. A request with neither comes from
/// no browser (curl, a script) and passes: the token, when required, still guards it.
public enum SameOrigin {
    /// Whether `method` may change something: all but `GET` and `HEAD`.
    public static func changesState(_ method: String) -> Bool {
        method != "GET" && method != "HEAD"
    }

    /// Whether a request with these headers comes from a page served under `host`.
    ///
    /// - Parameters:
    ///   - origin: The `Origin` header, if any.
    ///   - fetchSite: The `Sec-Fetch-Site` header, if any.
    ///   - host: The request's `Host`.
    public static func permits(origin: String?, fetchSite: String?, host: HostHeader) -> Bool {
        if let fetchSite {
            let site = fetchSite.trimmingSpaces.lowercased()
            guard site == "same-origin" || site == "none" else { return false }
        }
        guard let origin else { return true }
        let value = origin.trimmingSpaces.lowercased()
        let defaultPort: Int
        let authority: Substring
        if value.hasPrefix("http://") {
            defaultPort = 80
            authority = value.dropFirst("http://".count)
        } else if value.hasPrefix("https://") {
            defaultPort = 443
            authority = value.dropFirst("https://".count)
        } else {
            return false  // `null` (a sandboxed frame, a file, a redirect from elsewhere) and other schemes
        }
        guard let from = HostHeader(String(authority)) else { return false }
        return from.name == host.name && (from.port ?? defaultPort) == (host.port ?? defaultPort)
    }
}

extension String {
    /// Without the spaces and tabs HTTP allows around a header's value.
    var trimmingSpaces: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return self[first...last]
    }
}
