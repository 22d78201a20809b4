package import MarkerShutter

extension BagIndex {
    /// The time between a topic's frames: the median of the differences of its stamps (1/30 s for a
    /// topic of one frame).
    public func frameInterval(of topic: Int) -> Duration {
        let stamps = entries[topic].map(\.stamp)
        let differences = zip(stamps, stamps.dropFirst()).map { $1 - $0 }.sorted()
        guard !differences.isEmpty else { return .seconds(1) / 30 }
        return .nanoseconds(max(1, differences[differences.count / 2]))
    }
}

extension RigRecording {
    /// A rig of a bag's topics, one camera each: every frame in the order of the header stamps (a
    /// topic given earlier first at equal stamps), its time its stamp, read from the bag when it is read.
    ///
    /// - Parameters:
    ///   - index: The bag's messages, two topics or more.
    ///   - names: The cameras' names, one a topic (``BagCameraNames``).
    /// - Throws: ``RigCameraNameError`` for a name that cannot name a camera.
    package init(_ index: BagIndex, names: [String]) throws(RigCameraNameError) {
        precondition(names.count == index.topics.count, "\(names.count) names for \(index.topics.count) topics")
        var cameras: [RigCamera] = []
        for (topic, name) in names.enumerated() {
            cameras.append(try RigCamera(name: name, frameInterval: index.frameInterval(of: topic)))
        }
        let merged = index.entries.joined().sorted { ($0.stamp, $0.topic) < ($1.stamp, $1.topic) }
        let frames = merged.map { entry in
            Frame(camera: entry.topic, path: index.displayPath(of: entry), time: FrameTime(.nanoseconds(entry.stamp)),
                  content: index.content(of: entry))
        }
        self.init(folder: index.bag.path, cameras: cameras, frames: frames, timing: index.timing)
    }
}
