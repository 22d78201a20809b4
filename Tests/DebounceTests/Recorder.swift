import Debounce
import DebounceTesting


/// An output closure for the code under test that records each delivered value with the manual
/// clock's time, and lets the test await deliveries instead of sleeping.
final class Recorder<Value: Sendable & Equatable>: Sendable {
    struct Delivery: Equatable, CustomStringConvertible {
        let value: Value
        let at: Duration
        var description: String { "\(value)@\(at)" }
    }

    private struct Waiter {
        let count: Int
        let continuation: UnsafeContinuation<[Delivery], Never>
    }

    private struct State {
        var received: [Delivery] = []
        var taken = 0
        var waiter: Waiter?

        mutating func takeIfReady(_ count: Int) -> [Delivery]? {
            guard received.count - taken >= count else { return nil }
            defer { taken += count }
            return Array(received[taken..<taken + count])
        }
    }

    private let clock: ManualClock
    private let state = Locked(State())

    init(clock: ManualClock) { self.clock = clock }

    /// Pass this as the output closure.
    var output: @Sendable (Value) async -> Void {
        { [self] value in record(value) }
    }

    func record(_ value: Value) {
        let delivery = Delivery(value: value, at: clock.now.offset)
        let resume = state.withLock { s -> (UnsafeContinuation<[Delivery], Never>, [Delivery])? in
            s.received.append(delivery)
            guard let waiter = s.waiter, let ready = s.takeIfReady(waiter.count) else { return nil }
            s.waiter = nil
            return (waiter.continuation, ready)
        }
        if let (continuation, ready) = resume { continuation.resume(returning: ready) }
    }

    /// Waits for the next `count` deliveries not yet taken and returns them.
    func next(_ count: Int = 1) async -> [Delivery] {
        await withUnsafeContinuation { continuation in
            let ready = state.withLock { s -> [Delivery]? in
                if let ready = s.takeIfReady(count) { return ready }
                precondition(s.waiter == nil, "one waiter at a time")
                s.waiter = Waiter(count: count, continuation: continuation)
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Everything delivered so far.
    var all: [Delivery] { state.withLock { $0.received } }

    /// The values delivered so far.
    var values: [Value] { all.map(\.value) }
}

extension ManualClock.Instant {
    static func at(_ offset: Duration) -> Self { Self(offset: offset) }
}

/// A delivered value and when it was delivered, for the machine tests.
struct TimedValue: Equatable, CustomStringConvertible {
    let value: Int
    let at: Duration
    init(_ value: Int, _ at: Duration) { self.value = value; self.at = at }
    init(_ value: Int, ms: Int) { self.init(value, .milliseconds(ms)) }
    var description: String { "\(value)@\(at)" }
}

/// A pure rate-limiting machine that takes values one at a time: `DebounceMachine` and
/// `ThrottleMachine` have this shape.
protocol ValueMachine {
    var deadline: ManualClock.Instant? { get }
    mutating func send(_ value: Int, at now: ManualClock.Instant) -> Int?
    mutating func advance(to now: ManualClock.Instant) -> Int?
}

extension DebounceMachine: ValueMachine where Value == Int, Instant == ManualClock.Instant {}
extension ThrottleMachine: ValueMachine where Value == Int, Instant == ManualClock.Instant {}

/// Feeds `(value, arrival in ms)` pairs to a machine the way the live driver does (what falls due
/// is delivered at its deadline, before the next value arrives) and returns every delivery with its
/// time, running the clock on to `end` ms.
func replay(_ inputs: [(Int, Int)], through machine: some ValueMachine, until end: Int) -> [TimedValue] {
    var machine = machine
    var out: [TimedValue] = []
    func drain(upTo now: ManualClock.Instant) {
        while let deadline = machine.deadline, deadline <= now, let value = machine.advance(to: deadline) {
            out.append(TimedValue(value, deadline.offset))
        }
    }
    for (value, time) in inputs {
        let now = ManualClock.Instant.at(.milliseconds(time))
        drain(upTo: now)
        if let delivered = machine.send(value, at: now) { out.append(TimedValue(delivered, ms: time)) }
    }
    drain(upTo: .at(.milliseconds(end)))
    return out
}
