import Testing
@testable import BrowserView

@Suite struct ConnectionTableTests {
    @Test func theLongestIdleMakesRoom() {
        var table = ConnectionTable<Int>(limits: ConnectionLimits(maximum: 3, perClient: 3))
        #expect(table.opened(1, client: "a") == [])
        #expect(table.opened(2, client: "b") == [])
        #expect(table.opened(3, client: "c") == [])
        table.requestBegan(1)
        table.requestEnded(1)  // 1 was active after 2 and 3
        #expect(table.opened(4, client: "d") == [2])
        #expect(table.opened(5, client: "d") == [3])
        #expect(table.opened(6, client: "d") == [1])
        #expect(table.count == 3)
    }

    @Test func busyConnectionsAreNeverClosedForRoom() {
        var table = ConnectionTable<Int>(limits: ConnectionLimits(maximum: 2, perClient: 2))
        _ = table.opened(1, client: "a")
        _ = table.opened(2, client: "b")
        table.requestBegan(1)
        table.requestBegan(2)
        #expect(table.opened(3, client: "c") == [3], "every one busy: the newcomer goes")
        table.requestEnded(2)
        #expect(table.opened(4, client: "c") == [2])
        #expect(table.isBusy(1))
        #expect(table.count == 2)
    }

    @Test func oneClientMakesRoomAmongItsOwn() {
        var table = ConnectionTable<Int>(limits: ConnectionLimits(maximum: 10, perClient: 2))
        _ = table.opened(1, client: "flood")
        _ = table.opened(2, client: "page")
        _ = table.opened(3, client: "flood")
        #expect(table.opened(4, client: "flood") == [1], "its own longest idle, not the page's")
        table.requestBegan(3)
        table.requestBegan(4)
        #expect(table.opened(5, client: "flood") == [5])
        #expect(table.count(from: "flood") == 2)
        #expect(table.count(from: "page") == 1)
    }

    @Test func closedConnectionsAreForgotten() {
        var table = ConnectionTable<Int>(limits: ConnectionLimits(maximum: 1, perClient: 1))
        _ = table.opened(1, client: "a")
        table.requestBegan(1)
        table.closed(1)
        table.requestEnded(1)  // an answer finishing after the close
        #expect(table.count == 0)
        #expect(table.opened(2, client: "a") == [])
    }

    /// Opens `ids` from `client` and begins a stream on each; returns what each stream closed.
    private static func streams(_ ids: [Int], from client: String, in table: inout ConnectionTable<Int>) -> [[Int]] {
        ids.map { id in
            #expect(table.opened(id, client: client) == [])
            table.requestBegan(id)
            return table.streamBegan(id)
        }
    }

    @Test func aClientOverItsStreamLimitEndsItsOwnOldest() {
        let limits = ConnectionLimits(maximum: 100, perClient: 40, streams: 20, streamsPerClient: 3)
        var table = ConnectionTable<Int>(limits: limits)
        #expect(Self.streams([1, 2], from: "page", in: &table) == [[], []])
        #expect(Self.streams([10, 11, 12], from: "flood", in: &table) == [[], [], []])
        #expect(Self.streams([13, 14], from: "flood", in: &table) == [[10], [11]], "its own oldest, never the page's")
        #expect(table.streamCount(to: "flood") == 3 && table.streamCount(to: "page") == 2)
        #expect(table.count == 5, "the connections of ended streams are closed")
        // A reloading page: its old streams end, whether or not they have ended yet.
        #expect(Self.streams([3, 4], from: "page", in: &table) == [[], [1]])
        table.streamEnded(2)
        table.requestEnded(2)
        #expect(Self.streams([5], from: "page", in: &table) == [[]], "an ended stream no longer counts")
        #expect(table.streamCount == 6 && table.count == 7)
        #expect(!table.isBusy(2))
    }

    @Test func overTheTotalTheClientHoldingMostLosesItsOldest() {
        let limits = ConnectionLimits(maximum: 100, perClient: 40, streams: 6, streamsPerClient: 4)
        var table = ConnectionTable<Int>(limits: limits)
        #expect(Self.streams([1], from: "a", in: &table) == [[]])
        #expect(Self.streams([10, 11, 12, 13], from: "flood", in: &table) == [[], [], [], []])
        #expect(Self.streams([20], from: "b", in: &table) == [[]])
        #expect(Self.streams([21], from: "b", in: &table) == [[10]], "not a's or b's: flood holds the most")
        #expect(Self.streams([30], from: "c", in: &table) == [[11]])
        #expect(Self.streams([14], from: "flood", in: &table) == [[12]], "flooding more only ends its own")
        #expect(table.streamCount == 6)
        #expect([table.streamCount(to: "a"), table.streamCount(to: "b"), table.streamCount(to: "c"), table.streamCount(to: "flood")] == [1, 2, 1, 2])
        // Every one holding as many: the oldest of them all goes.
        #expect(Self.streams([31], from: "c", in: &table) == [[13]], "flood's 13 began before b's 20 and c's 30")
    }

    @Test func aStreamOnAClosedConnectionClosesNothing() {
        var table = ConnectionTable<Int>(limits: ConnectionLimits(maximum: 4, perClient: 4, streams: 1, streamsPerClient: 1))
        _ = table.opened(1, client: "a")
        table.closed(1)
        #expect(table.streamBegan(1) == [])
        #expect(table.streamCount == 0 && table.count == 0)
    }

    @Test func streamLimitsStayWellBelowTheConnectionLimits() {
        #expect(ConnectionLimits(maximum: 128, perClient: 32) == ConnectionLimits(maximum: 128, perClient: 32, streams: 32, streamsPerClient: 16))
        let asked = ConnectionLimits(maximum: 10, perClient: 6, streams: 100, streamsPerClient: 100)
        #expect((asked.streams, asked.streamsPerClient) == (5, 3), "half of each connection limit at most")
        let one = ConnectionLimits(maximum: 1, perClient: 1, streams: 0, streamsPerClient: 0)
        #expect((one.streams, one.streamsPerClient) == (1, 1))
    }
}
