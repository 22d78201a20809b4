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
}
