/// The image messages of some topics of a recording, listed in one walk: each message's stamp,
/// receive time and place, each topic's in the order of its stamps. A message is then read again
/// by its place (``message(_:)``), from any thread, a few decompressed chunks kept for the threads
/// that read the same chunk: what `process` and `calibrate` read a recording through.
///
/// The walk reads each message's first bytes only where the container allows (an uncompressed
/// chunk, a `.db3` row), and one chunk at a time otherwise; the list holds some 100 bytes a message.
public struct BagIndex: Sendable {
    /// One message.
    public struct Entry: Sendable, Hashable {
        /// Its topic, an index into ``BagIndex/topics``.
        public let topic: Int
        /// Its header's stamp, nanoseconds since the Unix epoch.
        public let stamp: Int64
        /// When the recorder received it, nanoseconds since the Unix epoch.
        public let receiveTime: UInt64
        /// The extension of the image file it is best kept as (`jpg`, `png`).
        public let fileExtension: String
        /// Where it is.
        let location: MessageLocation

        /// A file name for it: its stamp in nanoseconds and its extension (`1700000000033333333.png`,
        /// as Kalibr's bag extractor names images).
        public var fileName: String { "\(stamp).\(fileExtension)" }
    }

    /// The recording.
    public let bag: ImageBag
    /// The topics listed, in the order asked for.
    public let topics: [BagTopic]
    /// Each topic's messages, in the order of their stamps.
    public let entries: [[Entry]]

    /// Walks the recording once and lists the messages of `topics`.
    ///
    /// - Parameters:
    ///   - bag: The recording.
    ///   - topics: Image topics of it (``ImageBag/imageTopics(named:)``).
    ///   - progress: Told the number of messages listed so far, every 64 messages and at the end.
    /// - Throws: ``BagError`` naming the file (truncated, corrupt) or the topic: a message that
    ///   cannot be deserialized, a topic without messages, two messages of a topic with the same stamp.
    public init(bag: ImageBag, topics: [BagTopic], progress: (Int) -> Void = { _ in }) throws(BagError) {
        self.bag = bag
        self.topics = topics
        let walker = try bag.storage.walk(topics: Set(topics.flatMap(\.ids)), complete: false)
        var entries: [[Entry]] = topics.map { _ in [] }
        var listed = 0
        while let raw = try walker.next() {
            guard let topic = bag.topic(of: raw.topic, in: topics) else { continue }
            let number = entries[topic].count + 1
            var message = try bag.message(raw.bytes, length: raw.length, of: topics[topic], label: "message \(number)")
            if !raw.isComplete, message.data.lowerBound + 4 > raw.bytes.count {
                // The fields before the data ran past the bytes read: read the whole message.
                message = try bag.message(try bag.storage.read(raw.location), length: raw.length, of: topics[topic], label: "message \(number)")
            }
            entries[topic].append(Entry(topic: topic, stamp: message.stamp, receiveTime: raw.logTime,
                                        fileExtension: message.fileExtension, location: raw.location))
            listed += 1
            if listed % 64 == 0 { progress(listed) }
        }
        progress(listed)
        for (topic, list) in entries.enumerated() {
            guard !list.isEmpty else {
                throw BagError(.missingTopic, path: bag.path, "topic \(topics[topic].name) has no messages")
            }
            if let count = topics[topic].count, count != list.count {
                throw BagError(.truncated, path: bag.path, "topic \(topics[topic].name) holds \(list.count) messages, "
                    + "but the recording's index counts \(count): messages are missing (a file cut off or damaged)")
            }
            // In the order of the stamps (as recorded where they agree); two frames of one camera
            // at one instant cannot be told apart.
            let sorted = list.enumerated().sorted { ($0.element.stamp, $0.offset) < ($1.element.stamp, $1.offset) }
            for (previous, next) in zip(sorted, sorted.dropFirst()) where previous.element.stamp == next.element.stamp {
                let stamp = next.element.stamp
                throw BagError(.malformed, path: bag.path,
                               "topic \(topics[topic].name): messages \(previous.offset + 1) and \(next.offset + 1) have the same header stamp "
                                   + "(\(Self.secondsText(stamp)) s)" + (stamp == 0 ? ": its camera driver left the stamps at zero" : ""))
            }
            entries[topic] = sorted.map(\.element)
        }
        self.entries = entries
    }

    /// A stamp in seconds, with its nine decimals.
    public static func secondsText(_ stamp: Int64) -> String {
        let seconds = stamp / 1_000_000_000
        let fraction = String(stamp % 1_000_000_000)
        return "\(seconds)." + String(repeating: "0", count: 9 - fraction.count) + fraction
    }

    /// Reads a message again, whole, by its place.
    ///
    /// - Throws: ``BagError`` naming the file or the topic.
    public func message(_ entry: Entry) throws(BagError) -> ImageMessage {
        let bytes = try bag.storage.read(entry.location)
        return try bag.message(bytes, length: bytes.count, of: topics[entry.topic], label: "the message stamped \(Self.secondsText(entry.stamp)) s")
    }

    /// How a frame is named in messages: the recording, the topic and the frame's file name.
    public func displayPath(of entry: Entry) -> String {
        "\(bag.path):\(topics[entry.topic].name)/\(entry.fileName)"
    }
}
