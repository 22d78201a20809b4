import Hummingbird

/// Adds to every answer, refusals and errors included, the headers that keep browsers from reading
/// it as another type (`X-Content-Type-Options: nosniff`), from showing it inside another site's
/// page (`Content-Security-Policy: frame-ancestors 'none'`, `X-Frame-Options: DENY`), and from
/// sending the page's address, token included, elsewhere (`Referrer-Policy: no-referrer`).
struct SecurityHeaders: RouterMiddleware {
    typealias Context = ViewContext

    private static let frameOptions = HTTPFields.Element.Name("X-Frame-Options")!
    private static let referrerPolicy = HTTPFields.Element.Name("Referrer-Policy")!

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.contentSecurityPolicy] = "frame-ancestors 'none'"
        response.headers[Self.frameOptions] = "DENY"
        response.headers[Self.referrerPolicy] = "no-referrer"
        return response
    }
}
