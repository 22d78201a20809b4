/// What the view checks on every request before answering it, in order: the `Host` (else 421),
/// that a request changing something comes from the view's own page (else 403), the token
/// (else 401). See ``HostPolicy``, ``SameOrigin`` and ``ViewAccess``.
public struct ViewRequestPolicy: Sendable, Hashable {
    /// The headers and facts of a request that the checks read.
    public struct Request: Sendable, Hashable {
        /// The method, `GET`, `POST`…
        public var method: String
        /// Every `Host` header the request has (one, normally).
        public var hostValues: [String]
        /// The `Origin` header.
        public var origin: String?
        /// The `Sec-Fetch-Site` header.
        public var fetchSite: String?
        /// The `token` query parameter.
        public var queryToken: String?
        /// The `Authorization` header.
        public var authorization: String?
        /// The address, as text, that the connection arrived on.
        public var localAddress: String?

        /// A request's facts.
        public init(method: String, hostValues: [String], origin: String? = nil, fetchSite: String? = nil,
                    queryToken: String? = nil, authorization: String? = nil, localAddress: String? = nil) {
            self.method = method
            self.hostValues = hostValues
            self.origin = origin
            self.fetchSite = fetchSite
            self.queryToken = queryToken
            self.authorization = authorization
            self.localAddress = localAddress
        }
    }

    /// What becomes of a request.
    public enum Verdict: Sendable, Hashable {
        /// Answered.
        case allowed
        /// `421 Misdirected Request`: the `Host` is not this server's.
        case misdirected
        /// `403 Forbidden`: a request that changes something from another site's page.
        case crossSite
        /// `401 Unauthorized`: the token is missing or wrong.
        case unauthorized

        /// The HTTP status of a refusal; 200 when allowed.
        public var status: Int {
            switch self {
            case .allowed: 200
            case .misdirected: 421
            case .crossSite: 403
            case .unauthorized: 401
            }
        }
    }

    /// The names the server answers to.
    public let hosts: HostPolicy
    /// The token, if one is required.
    public let access: ViewAccess

    /// Checks with these hosts and this token.
    public init(hosts: HostPolicy, access: ViewAccess = .open) {
        self.hosts = hosts
        self.access = access
    }

    /// The verdict on `request`.
    public func verdict(_ request: Request) -> Verdict {
        guard request.hostValues.count == 1, let host = HostHeader(request.hostValues[0]),
              hosts.permits(host, localAddress: request.localAddress) else { return .misdirected }
        if SameOrigin.changesState(request.method),
           !SameOrigin.permits(origin: request.origin, fetchSite: request.fetchSite, host: host) {
            return .crossSite
        }
        guard access.permits(queryToken: request.queryToken, authorization: request.authorization) else { return .unauthorized }
        return .allowed
    }
}
