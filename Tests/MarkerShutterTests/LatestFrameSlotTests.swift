@testable import MarkerShutter
import Testing

@Suite struct LatestFrameSlotTests {
    @Test func aSlowConsumerGetsTheNewestValueAndTheRestAreCounted() {
        let slot = LatestFrameSlot<Int>()
        #expect(slot.put(1) == false)
        #expect(slot.put(2) == true)
        #expect(slot.put(3) == true)
        #expect(slot.take() == 3)
        #expect(slot.replacedCount == 2)
        slot.put(4)
        slot.close()
        #expect(slot.take() == 4, "a value waiting at close is still delivered")
        #expect(slot.take() == nil)
        #expect(slot.put(5) == false)
        #expect(slot.take() == nil, "nothing is accepted after close")
    }

    @Test func valuesNeverComeOutOfOrderAcrossThreads() async {
        let slot = LatestFrameSlot<Int>()
        let consumer = Task.detached { () -> [Int] in
            var seen: [Int] = []
            while let value = slot.take() { seen.append(value) }
            return seen
        }
        for value in 0..<20_000 { slot.put(value) }
        slot.close()
        let seen = await consumer.value
        #expect(seen == seen.sorted())
        #expect(Set(seen).count == seen.count)
        #expect(seen.last == 19_999)
        #expect(seen.count + slot.replacedCount == 20_000)
    }
}
