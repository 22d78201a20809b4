import Hummingbird
import NIOCore

/// A request's context: Hummingbird's, with the connection it came on and the address it arrived at.
struct ViewContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The connection, as ``ConnectionRegistry`` knows it.
    let connection: ObjectIdentifier
    /// The server's address the connection arrived at, as text (`127.0.0.1`, `::1`).
    let localAddress: String?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        connection = ObjectIdentifier(source.channel)
        localAddress = source.channel.localAddress?.ipAddress
    }
}
