extension PrintableTarget {
    /// Words that name no target ``PrintableTarget/Target`` can draw.
    public enum TargetSyntaxError: Error, Hashable, CustomStringConvertible {
        /// No words at all.
        case empty
        /// A sheet of AprilTags asked for in a form it cannot take; the message says which.
        case tagSheet(String)
        /// A pattern string outside ``Pattern/grammar``.
        case pattern(PatternSyntaxError)
        /// A pattern of loose markers or tags, which has no board to print; the message says what to give.
        case noBoard(String)

        /// What is wrong, in one line.
        public var description: String {
            switch self {
            case .empty: "name the target, e.g. charuco 5x7 DICT_6X6_250"
            case .tagSheet(let message), .noBoard(let message): message
            case .pattern(let error): "\(error)"
            }
        }
    }
}
