import MarkerShutter

/// Camera names for the topics of a rig in a bag: what tells the topics apart, the path parts they
/// share in front and behind taken off (`/stereo/left/image_raw` and `/stereo/right/image_raw` are
/// `left` and `right`; `/cam0/image_raw` and `/cam1/image_raw` are `cam0` and `cam1`), the rest
/// joined with `_`, any other character than a letter, a digit, `-` and `_` made `_`, cut to 32. A
/// topic may also be given as `NAME=TOPIC` to name its camera.
public enum BagCameraNames {
    /// Splits `NAME=TOPIC` (a camera named by the user) from a plain topic.
    /// (A ROS topic's name has no `=`.)
    public static func split(_ text: String) -> (name: String?, topic: String) {
        guard let equals = text.firstIndex(of: "="), equals > text.startIndex, !text[..<equals].contains("/") else { return (nil, text) }
        return (String(text[..<equals]), String(text[text.index(after: equals)...]))
    }

    /// A name for each topic, unique, valid as a camera's name (``RigCamera/nameProblem(_:)``).
    public static func names(for topics: [String]) -> [String] {
        let parts = topics.map { $0.split(separator: "/").map(String.init) }
        var front = 0
        while let first = parts.first, parts.allSatisfy({ $0.count > front + 1 && $0[front] == first[front] }) { front += 1 }
        var back = 0
        while let first = parts.first,
              parts.allSatisfy({ $0.count > front + back + 1 && $0[$0.count - 1 - back] == first[first.count - 1 - back] }) {
            back += 1
        }
        var names: [String] = []
        for (index, topic) in parts.enumerated() {
            let middle = topic.count > front + back ? Array(topic[front..<(topic.count - back)]) : topic
            var name = String(middle.joined(separator: "_").map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") ? $0 : "_" })
            name = String(name.prefix(32))
            if name.isEmpty || RigCamera.nameProblem(name) != nil || names.contains(name) { name = "camera\(index)" }
            names.append(name)
        }
        return names
    }
}
