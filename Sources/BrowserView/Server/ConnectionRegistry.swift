import Glibc
import NIOCore
import Synchronization

/// The server's open connections, held to ``ConnectionLimits``: the storage around a
/// ``ConnectionTable``, which decides; the connections it picks are closed after the lock is left.
final class ConnectionRegistry: Sendable {
    private struct State {
        var table: ConnectionTable<ObjectIdentifier>
        var channels: [ObjectIdentifier: any Channel] = [:]
        var seen = 0
    }

    private let state: Mutex<State>

    init(limits: ConnectionLimits) {
        state = Mutex(State(table: ConnectionTable(limits: limits)))
    }

    /// How many connections are open.
    var count: Int { state.withLock { $0.table.count } }

    /// How many connections have been opened since the start, those closed included.
    var seen: Int { state.withLock { $0.seen } }

    /// Counts a new connection, and closes what the limits say (the new one, possibly).
    func opened(_ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        let client = channel.remoteAddress?.ipAddress ?? "unknown"
        let closing = state.withLock { state -> [any Channel] in
            state.channels[id] = channel
            state.seen += 1
            return state.table.opened(id, client: client).compactMap { state.channels.removeValue(forKey: $0) }
        }
        Self.close(closing, abort: false)
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

    /// How many streams are being sent.
    var streamCount: Int { state.withLock { $0.table.streamCount } }

    /// `connection` begins sending a stream; aborts the connections of the streams the limits end.
    func streamBegan(_ connection: ObjectIdentifier) {
        Self.close(state.withLock { state in
            state.table.streamBegan(connection).compactMap { state.channels.removeValue(forKey: $0) }
        }, abort: true)
    }

    /// The stream on `connection` has ended.
    func streamEnded(_ connection: ObjectIdentifier) { state.withLock { $0.table.streamEnded(connection) } }

    /// Aborts `connection` now, whatever it is doing: for a client that does not read what it is sent.
    func abort(_ connection: ObjectIdentifier) {
        Self.close(state.withLock { state in
            state.table.closed(connection)
            return state.channels.removeValue(forKey: connection).map { [$0] } ?? []
        }, abort: true)
    }

    /// Closes `channels`; with `abort`, at once with a reset, dropping what was sent but not yet
    /// taken (a client that does not read would otherwise hold it in the system's buffers, and
    /// never learn of the close, until the system gives up on it minutes later).
    private static func close(_ channels: [any Channel], abort: Bool) {
        for channel in channels {
            channel.eventLoop.execute {
                if abort, let socket = channel as? any SocketOptionProvider {
                    socket.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in channel.close(promise: nil) }
                } else {
                    channel.close(promise: nil)
                }
            }
        }
    }
}
