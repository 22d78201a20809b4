import Hummingbird
import NIOCore

/// Refuses, with 401, every request that does not carry the token (when one is required).
struct TokenCheck: RouterMiddleware {
    typealias Context = BasicRequestContext

    let access: ViewAccess

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let queryToken = request.uri.queryParameters.get("token")
        guard access.permits(queryToken: queryToken, authorization: request.headers[.authorization]) else {
            return Response(
                status: .unauthorized,
                headers: [.contentType: "text/plain; charset=utf-8", .wwwAuthenticate: "Bearer"],
                body: .init(byteBuffer: ByteBuffer(string: "a token is required: open the page address that live --serve printed\n")))
        }
        return try await next(request, context)
    }
}
