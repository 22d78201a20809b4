import Hummingbird

/// Marks a connection busy from the start of a request until its answer has been sent (the whole
/// stream, for the image and event streams), so that ``ConnectionRegistry`` never closes it to make
/// room.
struct ConnectionActivity: RouterMiddleware {
    typealias Context = ViewContext

    let registry: ConnectionRegistry

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let connection = context.connection
        registry.requestBegan(connection)
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            registry.requestEnded(connection)
            throw error
        }
        let body = response.body
        response.body = ResponseBody(contentLength: body.contentLength) { [registry] writer in
            defer { registry.requestEnded(connection) }
            try await body.write(writer)
        }
        return response
    }
}
