import Hummingbird

/// Marks a connection busy from the start of a request until its answer has been sent (the whole
/// stream, for the image and event streams), so that ``ConnectionRegistry`` never closes it to make
/// room; and aborts the connection when a part of the answer (its head, a write of its body) is
/// not taken by the client within the ``WriteDeadline``.
struct ConnectionActivity: RouterMiddleware {
    typealias Context = ViewContext

    let registry: ConnectionRegistry
    let deadline: WriteDeadline

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let connection = context.connection
        registry.requestBegan(connection)
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            // Answered here, rather than by the server, so that its writes have the deadline too.
            do {
                response = try error.response(from: request, context: context)
            } catch {
                registry.requestEnded(connection)
                throw error
            }
        } catch {
            registry.requestEnded(connection)
            throw error
        }
        let expired: @Sendable () -> Void = { [registry] in registry.abort(connection) }
        let head = deadline.start(expired)  // the head goes out before the body is written
        let body = response.body
        response.body = ResponseBody(contentLength: body.contentLength) { [registry, deadline] writer in
            head.cancel()
            defer { registry.requestEnded(connection) }
            try await body.write(DeadlineBodyWriter(base: writer, deadline: deadline, expired: expired))
        }
        return response
    }
}
