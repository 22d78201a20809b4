/// What ``PatternIdentifier`` made of a few frames: the target they show, or why it is not sure,
/// with the candidates it weighed.
///
/// ``description`` says it in one line, for example `found charuco:8x8:DICT_4X4_50:square=1,marker=0.75,legacy
/// in 5 of 5 frames`, or `not sure which target this is (the board's last row was not seen whole):
/// charuco:8x?:DICT_4X4_50:square=1,marker=0.75,legacy (at least 6 rows) in 3 of 5 frames`.
public struct PatternIdentification: Sendable, Hashable, CustomStringConvertible {
    /// One target the frames might show.
    public struct Candidate: Sendable, Hashable, CustomStringConvertible {
        /// The pattern string, or a description where part of it is not known (`?` for a size not
        /// seen, with what is known in brackets).
        public var text: String
        /// Frames that show it.
        public var frames: Int

        /// Makes a candidate.
        public init(text: String, frames: Int) {
            self.text = text
            self.frames = frames
        }

        /// `TEXT in N of M frames` needs the total: this is `TEXT (N frames)`.
        public var description: String { "\(text) (\(frames) frame\(frames == 1 ? "" : "s"))" }
    }

    /// The target, when the frames leave no doubt; `nil` when they do.
    public var pattern: Pattern?
    /// Frames looked at.
    public var frames: Int
    /// Frames in which ``pattern`` is found (by the detector it makes), or that show the best
    /// candidate when there is no pattern.
    public var framesShowing: Int
    /// Why there is no pattern: what is missing or in doubt; `nil` with a pattern.
    public var doubt: String?
    /// The targets the frames might show, the likeliest first (the pattern's own when there is one).
    public var candidates: [Candidate]

    /// Makes an identification.
    public init(pattern: Pattern?, frames: Int, framesShowing: Int, doubt: String?, candidates: [Candidate]) {
        self.pattern = pattern
        self.frames = frames
        self.framesShowing = framesShowing
        self.doubt = doubt
        self.candidates = candidates
    }

    /// Whether a pattern was found without doubt.
    public var isSure: Bool { pattern != nil }

    /// One line: what was found in how many frames, or the doubt and the candidates.
    public var description: String {
        if let pattern { return "found \(pattern) in \(framesShowing) of \(frames) frame\(frames == 1 ? "" : "s")" }
        if candidates.isEmpty { return "no target found in \(frames) frame\(frames == 1 ? "" : "s")" }
        let listed = candidates.map { "\($0.text) in \($0.frames) of \(frames) frame\(frames == 1 ? "" : "s")" }
        return "not sure which target this is (\(doubt ?? "the frames disagree")): " + listed.joined(separator: "; ")
    }
}
