/// A message of an image topic, as a walk over a recording gives it: the topic, the header's stamp
/// and the receive time, and the message, whose pixels are decoded on demand (on any thread).
public struct BagFrame: Sendable {
    /// The topic's name.
    public let topic: String
    /// The message's place among its topic's messages in the walk, from 0.
    public let number: Int
    /// The header's stamp, nanoseconds since the Unix epoch: the frame's time.
    public var stamp: Int64 { message.stamp }
    /// When the recorder received it, nanoseconds since the Unix epoch.
    public let receiveTime: UInt64
    /// The message.
    public let message: ImageMessage
}

/// A walk over a recording's image messages of some topics in the order they are stored, one
/// chunk in memory at a time: what a source of frames (`live --replay`) wraps.
///
/// ```swift
/// let frames = try bag.frames(of: bag.imageTopics(named: ["/left", "/right"]))
/// while let frame = try frames.next() { ... }
/// ```
public final class BagFrameIterator {
    private let bag: ImageBag
    private let topics: [BagTopic]
    private let walker: any MessageWalker
    private var counts: [Int]

    init(bag: ImageBag, topics: [BagTopic]) throws(BagError) {
        self.bag = bag
        self.topics = topics
        self.walker = try bag.storage.walk(topics: Set(topics.flatMap(\.ids)), complete: true)
        self.counts = Array(repeating: 0, count: topics.count)
    }

    /// The next frame, or `nil` at the end of the recording.
    ///
    /// - Throws: ``BagError`` naming the file (a truncated recording, a corrupt chunk) or the topic
    ///   and message that cannot be deserialized; the walk cannot go on after it.
    public func next() throws(BagError) -> BagFrame? {
        guard let raw = try walker.next() else { return nil }
        guard let index = bag.topic(of: raw.topic, in: topics) else {
            throw BagError(.malformed, path: bag.path, "a message of a topic not asked for")
        }
        let number = counts[index]
        counts[index] += 1
        let message = try bag.message(raw.bytes, length: raw.length, of: topics[index], label: "message \(number + 1)")
        return BagFrame(topic: topics[index].name, number: number, receiveTime: raw.logTime, message: message)
    }
}
