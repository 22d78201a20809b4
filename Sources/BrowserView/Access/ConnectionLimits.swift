/// How many connections the view keeps open, so that clients can never take the file descriptors
/// the camera, the recording and the pictures need, nor the room other clients need.
///
/// When a new connection would pass either connection limit, the connection that has been idle
/// longest (no request under way: never sent one, half sent one, or waiting between requests) is
/// closed to make room: first among the same client's, then among all. Connections with a request
/// under way are never closed for that; when every one counted is busy, the newcomer is closed at
/// once.
///
/// The long-lived responses (the image stream and the event stream) have limits of their own, well
/// below the connection limits, so that the page, the state and the commands always find room: a
/// client that opens a stream over its ``streamsPerClient`` ends its own oldest stream (a browser
/// that reloads keeps working), and a stream over ``streams`` in all ends the oldest stream of the
/// address holding the most, so that one address can never take the others' place.
public struct ConnectionLimits: Sendable, Hashable, CustomStringConvertible {
    /// The most connections open at once.
    public var maximum: Int
    /// The most connections open at once from one client address.
    public var perClient: Int
    /// The most image and event streams at once (at most half of ``maximum``).
    public var streams: Int
    /// The most image and event streams at once from one client address (at most half of
    /// ``perClient``, and at most ``streams``).
    public var streamsPerClient: Int

    /// The most connections, whatever the descriptor limit.
    public static let largestMaximum = 128
    /// The most connections from one address (a browser opens up to about eight to one server).
    public static let defaultPerClient = 32
    /// The most streams from one address: a page watches two (the image and the events), and a
    /// browser keeps at most six connections to one server, so this leaves room for a few
    /// browsers behind one address while keeping half the address's connections for requests.
    public static let defaultStreamsPerClient = 16

    /// Limits of `maximum` and `perClient` connections (at least 1 each), and of `streams` and
    /// `streamsPerClient` streams (by default a quarter of `maximum`, and
    /// ``defaultStreamsPerClient``), each stream limit held to half the connection limit it is part
    /// of.
    public init(maximum: Int, perClient: Int, streams: Int? = nil, streamsPerClient: Int? = nil) {
        self.maximum = max(1, maximum)
        self.perClient = max(1, min(perClient, self.maximum))
        self.streams = max(1, min(streams ?? self.maximum / 4, self.maximum / 2))
        self.streamsPerClient = max(1, min(streamsPerClient ?? Self.defaultStreamsPerClient, self.perClient / 2, self.streams))
    }

    /// The limits for a process that may open `openFiles` files: ``largestMaximum`` connections, or
    /// a quarter of `openFiles` when that is fewer (64 under `ulimit -n 256`), the rest being left
    /// for the camera, the recording, the pictures and the runtime; ``defaultPerClient`` from one
    /// address, or the maximum when that is fewer; a quarter of the maximum as streams (32, or 16
    /// under `ulimit -n 256`), ``defaultStreamsPerClient`` (or that quarter) from one address.
    public static func forOpenFileLimit(_ openFiles: Int) -> ConnectionLimits {
        ConnectionLimits(maximum: min(largestMaximum, max(openFiles, 0) / 4), perClient: defaultPerClient)
    }

    public var description: String {
        "at most \(maximum) connections, \(perClient) from one address; \(streams) streams, \(streamsPerClient) from one address"
    }
}
