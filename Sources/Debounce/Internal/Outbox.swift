/// A first-in first-out queue that reuses its storage: once it has grown to the largest backlog it
/// sees, appending and popping allocate nothing.
@usableFromInline
struct Outbox<Element> {
    @usableFromInline var storage: ContiguousArray<Element> = []
    @usableFromInline var head = 0

    @inlinable init() {}

    @inlinable var isEmpty: Bool { head == storage.count }

    @inlinable mutating func append(_ element: Element) {
        storage.append(element)
    }

    @inlinable mutating func popFirst() -> Element? {
        guard head < storage.count else { return nil }
        let element = storage[head]
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        }
        return element
    }

    /// Removes everything, keeping the storage, and returns what was removed in order.
    mutating func removeAll() -> ArraySlice<Element> {
        let removed = storage[head...]
        storage.removeAll(keepingCapacity: true)
        head = 0
        return removed
    }
}

extension Outbox: Sendable where Element: Sendable {}
