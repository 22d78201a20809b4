import NIOCore

/// Closes a connection whole once a request on it has failed, instead of half.
///
/// When the HTTP parser refuses a request (headers over the size limit, bytes that are no HTTP),
/// the server answers 400, closes its sending half and waits for the client to close the other.
/// A client still sending cannot: nothing reads its bytes after the error, so its close stays
/// queued behind them, and the connection, with its file descriptor and buffers, stays open for as
/// long as the server runs. A few hundred such requests exhaust the process's descriptors (which
/// the camera, the pictures and the recording need). After an error this handler turns the
/// server's half close into a full one; the 400 is already flushed by then.
final class FailedConnectionCloser: ChannelDuplexHandler, RemovableChannelHandler {
    // Everything passes through untouched; the types are never unwrapped.
    typealias InboundIn = Any
    typealias OutboundIn = Any

    private var failed = false

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        failed = true
        context.fireErrorCaught(error)
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        context.close(mode: failed && mode == .output ? .all : mode, promise: promise)
    }
}
