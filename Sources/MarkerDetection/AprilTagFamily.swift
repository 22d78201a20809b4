/// An AprilTag family of libapriltag 3.3, named as libapriltag names it: all nine it provides.
public enum AprilTagFamily: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// 36 data bits, minimum Hamming distance 11: the usual choice, and Kalibr's AprilGrid default.
    case tag36h11
    /// 25 data bits, distance 9.
    case tag25h9
    /// 16 data bits, distance 5 (few ids, more false detections).
    case tag16h5
    /// The AprilTag 3 standard family: 41 bits, data outside the black border.
    case tagStandard41h12
    /// 52 bits, distance 13 (48714 ids).
    case tagStandard52h13
    /// Round tags: 21 bits, distance 7.
    case tagCircle21h7
    /// 48 bits with a hole in the middle, distance 12.
    case tagCustom48h12
    /// 36 data bits, distance 10 (2320 ids), an older family that 36h11 replaced.
    case tag36h10
    /// Round tags: 49 bits, distance 12 (65535 ids).
    case tagCircle49h12

    /// Parses a family name, ignoring case (`tag36h11`, `TAG36H11`).
    public init?(name: String) {
        guard let family = Self.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else {
            return nil
        }
        self = family
    }

    /// How many codes the family has: ids run from 0 to `codeCount - 1`.
    public var codeCount: Int {
        switch self {
        case .tag36h11: 587
        case .tag25h9: 35
        case .tag16h5: 30
        case .tagStandard41h12: 2115
        case .tagStandard52h13: 48714
        case .tagCircle21h7: 38
        case .tagCustom48h12: 42211
        case .tag36h10: 2320
        case .tagCircle49h12: 65535
        }
    }

    /// Whether the black border is the tag's outermost black ring (36h11, 25h9, 16h5, 36h10), the
    /// only kind of tag Kalibr's AprilGrid prints (with a border two cells wide).
    public var hasPlainBorder: Bool {
        switch self {
        case .tag36h11, .tag25h9, .tag16h5, .tag36h10: true
        default: false
        }
    }

    /// The family's name.
    public var description: String { rawValue }
}
