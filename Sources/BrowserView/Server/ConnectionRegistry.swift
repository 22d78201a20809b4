import NIOCore
import Synchronization

/// The server's open connections, held to ``ConnectionLimits``: the storage around a
/// ``ConnectionTable``, which decides; the connections it picks are closed after the lock is left.
final class ConnectionRegistry: Sendable {
    private struct State {
        var table: ConnectionTable<ObjectIdentifier>
        var channels: [ObjectIdentifier: any Channel] = [:]
    }

    private let state: Mutex<State>

    init(limits: ConnectionLimits) {
        state = Mutex(State(table: ConnectionTable(limits: limits)))
    }

    /// How many connections are open.
    var count: Int { state.withLock { $0.table.count } }

    /// Counts a new connection, and closes what the limits say (the new one, possibly).
    func opened(_ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        let client = channel.remoteAddress?.ipAddress ?? "unknown"
        let closing = state.withLock { state -> [any Channel] in
            state.channels[id] = channel
            return state.table.opened(id, client: client).compactMap { state.channels.removeValue(forKey: $0) }
        }
        for channel in closing {
            channel.eventLoop.execute { channel.close(promise: nil) }
        }
    }

    /// Forgets a connection that has closed.
    func closed(_ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        state.withLock { state in
            state.table.closed(id)
            state.channels[id] = nil
        }
    }

    /// A request on `connection` has begun.
    func requestBegan(_ connection: ObjectIdentifier) { state.withLock { $0.table.requestBegan(connection) } }

    /// The answer to a request on `connection` has been sent.
    func requestEnded(_ connection: ObjectIdentifier) { state.withLock { $0.table.requestEnded(connection) } }
}
