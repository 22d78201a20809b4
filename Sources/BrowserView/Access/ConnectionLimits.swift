/// How many connections the view keeps open, so that clients can never take the file descriptors
/// the camera, the recording and the pictures need.
///
/// When a new connection would pass either limit, the connection that has been idle longest (no
/// request under way: never sent one, half sent one, or waiting between requests) is closed to make
/// room: first among the same client's, then among all. Connections with a request under way, the
/// image and event streams included, are never closed for that; when every one counted is busy, the
/// newcomer is closed at once.
public struct ConnectionLimits: Sendable, Hashable, CustomStringConvertible {
    /// The most connections open at once.
    public var maximum: Int
    /// The most connections open at once from one client address.
    public var perClient: Int

    /// The most connections, whatever the descriptor limit.
    public static let largestMaximum = 128
    /// The most connections from one address (a browser opens up to about eight to one server).
    public static let defaultPerClient = 32

    /// Limits of `maximum` and `perClient` connections (at least 1 each).
    public init(maximum: Int, perClient: Int) {
        self.maximum = max(1, maximum)
        self.perClient = max(1, min(perClient, self.maximum))
    }

    /// The limits for a process that may open `openFiles` files: ``largestMaximum`` connections, or
    /// a quarter of `openFiles` when that is fewer (64 under `ulimit -n 256`), the rest being left
    /// for the camera, the recording, the pictures and the runtime; ``defaultPerClient`` from one
    /// address, or the maximum when that is fewer.
    public static func forOpenFileLimit(_ openFiles: Int) -> ConnectionLimits {
        ConnectionLimits(maximum: min(largestMaximum, max(openFiles, 0) / 4), perClient: defaultPerClient)
    }

    public var description: String { "at most \(maximum) connections, \(perClient) from one address" }
}
