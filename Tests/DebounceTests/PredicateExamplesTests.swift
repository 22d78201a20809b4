import Debounce
import DebounceTesting

import Testing

/// The three classic predicates over one stream, sent back to back with a 2 s delay.
@Suite struct PredicateExamplesTests {
    static let values: [String?] = ["First", nil, "Second", "Second", nil, nil, nil, "Third", "Third", "Third", "Fourth"]

    /// Remembers the previously sent value.
    final class Previous: Sendable {
        private let last = Locked<String??>(.none)
        func repeats(_ value: String?) -> Bool {
            last.withLock { last in
                defer { last = .some(value) }
                guard case .some(let previous) = last else { return false }
                return previous == value
            }
        }
    }

    /// Sends every value at t = 0 through `conditionalDebounce`, advances past 2 s, and returns
    /// what was delivered and when.
    func run(_ shouldDebounce: @escaping @Sendable (String?) -> Bool) async -> [Recorder<String?>.Delivery] {
        let clock = ManualClock()
        let recorder = Recorder<String?>(clock: clock)
        let send = conditionalDebounce(
            delay: .seconds(2), clock: clock, action: { recorder.record($0) }, shouldDebounce: shouldDebounce
        )
        for value in Self.values { send(value) }
        clock.advance(by: .seconds(2) + .milliseconds(1))
        // A final `.now` value flushes the order: everything released before it arrives first.
        send("end")
        var delivered: [Recorder<String?>.Delivery] = []
        while delivered.last?.value != "end" { delivered += await recorder.next() }
        return Array(delivered.dropLast())
    }

    @Test func debounceWhenNil() async {
        let delivered = await run { $0 == nil }
        #expect(delivered.map(\.value) == ["First", "Second", "Second", "Third", "Third", "Third", "Fourth"])
    }

    @Test func debounceWhenEqualToThePreviousValue() async {
        let previous = Previous()
        let delivered = await run { previous.repeats($0) }
        #expect(delivered.map(\.value) == ["First", nil, "Second", nil, "Third", "Fourth"])
    }

    @Test func debounceWhenNilOrEqualToThePreviousValue() async {
        let previous = Previous()
        let delivered = await run { value in
            let repeated = previous.repeats(value)
            return value == nil || repeated
        }
        #expect(delivered.map(\.value) == ["First", "Second", "Third", "Fourth"])
    }
}
