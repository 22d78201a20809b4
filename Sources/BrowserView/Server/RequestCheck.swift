import Hummingbird
import NIOCore

/// Answers a request only when ``ViewRequestPolicy`` allows it: 421 for a `Host` that is not the
/// server's, 403 for a request that changes something from another site's page, 401 without the
/// token. A refused request reaches no handler, so it changes nothing.
struct RequestCheck: RouterMiddleware {
    typealias Context = ViewContext

    let policy: ViewRequestPolicy

    private static let fetchSite = HTTPFields.Element.Name("Sec-Fetch-Site")!
    private static let host = HTTPFields.Element.Name("Host")!

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let facts = ViewRequestPolicy.Request(
            method: request.method.rawValue,
            hostValues: (request.head.authority.map { [$0] } ?? []) + request.headers[values: Self.host],
            origin: Self.single(request.headers[values: .origin]),
            fetchSite: Self.single(request.headers[values: Self.fetchSite]),
            queryToken: request.uri.queryParameters.get("token"),
            authorization: request.headers[.authorization],
            localAddress: context.localAddress)
        switch policy.verdict(facts) {
        case .allowed:
            return try await next(request, context)
        case .misdirected:
            let name = facts.hostValues.first.map { "'\($0.prefix(HostHeader.maximumLength))'" } ?? "(no Host header)"
            return Self.refusal(.misdirectedRequest, "this server does not answer to the name \(name): open the address "
                + "live --serve printed, or allow the name with --allow-host")
        case .crossSite:
            return Self.refusal(.forbidden, "refused: only the view's own page may take pictures or stop the session")
        case .unauthorized:
            var response = Self.refusal(.unauthorized, "a token is required: open the page address that live --serve printed")
            response.headers[.wwwAuthenticate] = "Bearer"
            return response
        }
    }

    /// The one value of a header sent once; a header sent twice reads as `null`, which no check passes.
    private static func single(_ values: [String]) -> String? {
        values.count > 1 ? "null" : values.first
    }

    private static func refusal(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(status: status, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
                 body: .init(byteBuffer: ByteBuffer(string: text + "\n")))
    }
}
