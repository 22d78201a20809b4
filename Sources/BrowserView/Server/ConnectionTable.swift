/// The open connections, the streams among them, and which of them to close when too many are
/// open, as ``ConnectionLimits`` states it. A plain state machine: no I/O, no clock (idleness and
/// the age of streams are ordered by a count of events).
struct ConnectionTable<ID: Hashable & Sendable>: Sendable {
    private struct Entry: Sendable {
        let client: String
        var requests = 0
        var lastActive: Int
        /// When the connection began sending a stream (the event count), if it sends one.
        var streamSince: Int?
    }

    let limits: ConnectionLimits
    private var entries: [ID: Entry] = [:]
    private var events = 0

    init(limits: ConnectionLimits) { self.limits = limits }

    /// How many connections are counted.
    var count: Int { entries.count }

    /// How many connections from `client` are counted.
    func count(from client: String) -> Int { entries.values.count(where: { $0.client == client }) }

    /// Counts a new connection from `client`; returns those to close, the new one possibly among
    /// them. Closed connections are no longer counted.
    mutating func opened(_ id: ID, client: String) -> [ID] {
        events += 1
        entries[id] = Entry(client: client, lastActive: events)
        var closing: [ID] = []
        if count(from: client) > limits.perClient {
            closing.append(longestIdle(except: id) { $0.client == client } ?? id)
            entries[closing[0]] = nil
            if closing[0] == id { return closing }
        }
        if entries.count > limits.maximum {
            let victim = longestIdle(except: id) { _ in true } ?? id
            closing.append(victim)
            entries[victim] = nil
        }
        return closing
    }

    /// A request on `id` has begun; the connection is busy until it is answered.
    mutating func requestBegan(_ id: ID) {
        events += 1
        entries[id]?.requests += 1
        entries[id]?.lastActive = events
    }

    /// The answer to a request on `id` has been sent (or the request given up).
    mutating func requestEnded(_ id: ID) {
        events += 1
        guard var entry = entries[id] else { return }
        entry.requests = max(0, entry.requests - 1)
        entry.lastActive = events
        entries[id] = entry
    }

    /// How many streams are being sent.
    var streamCount: Int { entries.values.count(where: { $0.streamSince != nil }) }

    /// How many streams are being sent to `client`.
    func streamCount(to client: String) -> Int {
        entries.values.count(where: { $0.client == client && $0.streamSince != nil })
    }

    /// `id` has begun sending a stream; returns the connections to close (never `id`), whose
    /// streams end: the client's oldest stream when it holds more than
    /// ``ConnectionLimits/streamsPerClient``, then, when more than ``ConnectionLimits/streams`` are
    /// sent in all, the oldest stream of the client holding the most (of those holding as many,
    /// the one whose oldest stream is oldest). Closed connections are no longer counted.
    mutating func streamBegan(_ id: ID) -> [ID] {
        events += 1
        guard let client = entries[id]?.client else { return [] }  // closed meanwhile
        entries[id]?.streamSince = events
        var closing: [ID] = []
        if streamCount(to: client) > limits.streamsPerClient, let oldest = oldestStream(except: id, where: { $0.client == client }) {
            closing.append(oldest)
            entries[oldest] = nil
        }
        if streamCount > limits.streams {
            let holding = Dictionary(grouping: entries.filter { $0.value.streamSince != nil }, by: \.value.client)
            let most = holding.values.map(\.count).max() ?? 0
            let victim = holding.values.filter { $0.count == most }
                .compactMap { streams in streams.filter { $0.key != id }.min { $0.value.streamSince! < $1.value.streamSince! } }
                .min { $0.value.streamSince! < $1.value.streamSince! }?.key
            if let victim {
                closing.append(victim)
                entries[victim] = nil
            }
        }
        return closing
    }

    /// The stream on `id` has ended (the connection may stay open for further requests).
    mutating func streamEnded(_ id: ID) {
        entries[id]?.streamSince = nil
    }

    /// `id` has closed.
    mutating func closed(_ id: ID) {
        entries[id] = nil
    }

    /// Whether `id` is counted and has a request under way.
    func isBusy(_ id: ID) -> Bool { (entries[id]?.requests ?? 0) > 0 }

    private func oldestStream(except id: ID, where matches: (Entry) -> Bool) -> ID? {
        entries.filter { $0.key != id && $0.value.streamSince != nil && matches($0.value) }
            .min { $0.value.streamSince! < $1.value.streamSince! }?.key
    }

    private func longestIdle(except id: ID, where matches: (Entry) -> Bool) -> ID? {
        entries.filter { $0.key != id && $0.value.requests == 0 && matches($0.value) }
            .min { $0.value.lastActive < $1.value.lastActive }?.key
    }
}
