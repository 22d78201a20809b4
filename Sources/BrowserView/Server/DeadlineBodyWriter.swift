import Hummingbird
import NIOCore

/// A response body writer whose every write must be done within a ``WriteDeadline``; `expired`
/// (which closes the connection) is called for one that is not.
struct DeadlineBodyWriter: ResponseBodyWriter {
    var base: any ResponseBodyWriter
    let deadline: WriteDeadline
    let expired: @Sendable () -> Void

    mutating func write(_ buffer: ByteBuffer) async throws {
        let timer = deadline.start(expired)
        defer { timer.cancel() }
        try await base.write(buffer)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {
        let timer = deadline.start(expired)
        defer { timer.cancel() }
        try await base.finish(trailingHeaders)
    }
}
