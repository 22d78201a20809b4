// Three ways to debounce one stream: the values below are sent back to back, then the program waits
// a little longer than the 2 s delay and prints what each debouncer delivered.
//
//   swift run debounce-examples

import Debounce
import Synchronization

let values: [String?] = ["First", nil, "Second", "Second", nil, nil, nil, "Third", "Third", "Third", "Fourth"]
let delay = Duration.seconds(2)

/// Remembers the value sent before the current one, for predicates that compare with it.
final class PreviousValue: Sendable {
    private let last = Mutex<String??>(.none)

    /// Whether `value` equals the value seen before it; records `value` for the next call.
    func repeats(_ value: String?) -> Bool {
        last.withLock { last in
            defer { last = .some(value) }
            guard case .some(let previous) = last else { return false }
            return previous == value
        }
    }
}

/// What one debouncer delivered, in order.
final class DeliveryLog: Sendable {
    private let values = Mutex<[String?]>([])

    func append(_ value: String?) { values.withLock { $0.append(value) } }
    var contents: [String?] { values.withLock { $0 } }
}

struct Example: Sendable {
    let title: String
    let shouldDebounce: @Sendable (String?) -> Bool
}

let previous = (equal: PreviousValue(), nilOrEqual: PreviousValue())
let examples = [
    Example(title: "debounce when nil") { $0 == nil },
    Example(title: "debounce when equal to the previous value") { previous.equal.repeats($0) },
    Example(title: "debounce when nil or equal to the previous value") { value in
        let repeated = previous.nilOrEqual.repeats(value)  // always record, even for nil
        return value == nil || repeated
    },
]

func describe(_ value: String?) -> String { value ?? "nil" }

print("sent back to back: \(values.map(describe).joined(separator: ", "))")
print("delay: \(delay); waiting for the debounced values...")

let delivered = examples.map { _ in DeliveryLog() }
var senders: [@Sendable (String?) -> Void] = []
for (example, log) in zip(examples, delivered) {
    senders.append(conditionalDebounce(
        delay: delay,
        action: { log.append($0) },
        shouldDebounce: example.shouldDebounce
    ))
}
for value in values {
    for send in senders { send(value) }
}
try await ContinuousClock().sleep(for: delay + .milliseconds(200))

let width = examples.map(\.title.count).max() ?? 0
for (example, log) in zip(examples, delivered) {
    let title = example.title + String(repeating: " ", count: width - example.title.count)
    print("\(title)  ->  \(log.contents.map(describe).joined(separator: ", "))")
}
