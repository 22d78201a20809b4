extension PrintableTarget {
    /// A sheet of loose AprilTags to print, as `board` names it: `apriltag COLSxROWS FAMILY[:first=ID]`,
    /// ids row by row from the top-left starting at `first` (0 by default). Detect the tags with the
    /// pattern `apriltag:FAMILY`.
    public struct TagSheet: Sendable, Hashable, CustomStringConvertible {
        /// Tags across, 1 to 100.
        public let columns: Int
        /// Tags down, 1 to 100.
        public let rows: Int
        /// The family the tags come from.
        public let family: AprilTagFamily
        /// The id of the top-left tag.
        public let firstTag: Int

        /// The sheet `words` ask for: `apriltag`, the size, the family and optionally `first=ID`,
        /// each a word of its own (`["apriltag", "4x3", "tag36h11"]`).
        ///
        /// - Returns: `nil` when the words name another target (a first word other than `apriltag`,
        ///   or fewer than three words: `apriltag:FAMILY` is the pattern of loose tags).
        /// - Throws: ``TargetSyntaxError/tagSheet(_:)`` for a malformed size or `first=`, an unknown
        ///   family, or more tags than the family has ids from the first one on.
        public init?(words: [String]) throws(TargetSyntaxError) {
            guard words.first?.lowercased() == "apriltag", words.count > 2 else { return nil }
            let usage = "a sheet of tags is apriltag COLSxROWS FAMILY[:first=ID], e.g. apriltag 4x3 tag36h11"
            let size = words[1].lowercased().split(separator: "x").compactMap { Int($0) }
            guard words.count == 3 || words.count == 4, size.count == 2, (1...100).contains(size[0]), (1...100).contains(size[1])
            else { throw .tagSheet("\(usage); found \(words.joined(separator: ":"))") }
            guard let family = AprilTagFamily(name: words[2]) else {
                let names = AprilTagFamily.allCases.map(\.rawValue).joined(separator: ", ")
                throw .tagSheet("unknown AprilTag family '\(words[2])': expected \(names)")
            }
            var first = 0
            if words.count == 4 {
                guard words[3].lowercased().hasPrefix("first="), let value = Int(words[3].dropFirst(6)), value >= 0 else {
                    throw .tagSheet("\(usage); found '\(words[3])'")
                }
                first = value
            }
            // Compared as a difference: `first + count` overflows for an id near `Int.max`.
            guard first <= family.codeCount - size[0] * size[1] else {
                throw .tagSheet("\(size[0] * size[1]) tags from id \(first) do not fit in \(family)'s ids 0...\(family.codeCount - 1)")
            }
            (columns, rows, self.family, firstTag) = (size[0], size[1], family, first)
        }

        /// `4x3 tag36h11 tags from id 0`.
        public var description: String { "\(columns)x\(rows) \(family) tags from id \(firstTag)" }
    }
}
