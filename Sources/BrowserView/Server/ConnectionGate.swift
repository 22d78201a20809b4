import NIOCore

/// Tells the ``ConnectionRegistry`` when a connection opens and closes; everything else passes
/// through untouched.
final class ConnectionGate: ChannelInboundHandler, RemovableChannelHandler {
    // The types are never unwrapped.
    typealias InboundIn = Any

    private let registry: ConnectionRegistry
    private var counted = false

    init(registry: ConnectionRegistry) { self.registry = registry }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { count(context.channel) }
    }

    func channelActive(context: ChannelHandlerContext) {
        count(context.channel)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        registry.closed(context.channel)
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        registry.closed(context.channel)
    }

    private func count(_ channel: any Channel) {
        guard !counted else { return }
        counted = true
        registry.opened(channel)
    }
}
