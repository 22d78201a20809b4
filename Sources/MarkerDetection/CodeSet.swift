/// The codes a marker was read by while a target is identified: one of OpenCV's predefined
/// dictionaries (for the nested ones, `DICT_4X4_50` to `DICT_4X4_1000` and so on, the largest of
/// the nest), or an AprilTag family as libapriltag reads it, with its usual border or Kalibr's
/// border of two cells.
enum CodeSet: Sendable, Hashable, CustomStringConvertible {
    /// An OpenCV dictionary.
    case dictionary(PredefinedDictionary)
    /// A libapriltag family with a black border `borderCells` wide.
    case tags(AprilTagFamily, borderCells: Int)

    /// The number the shim gives it (`msd_coded_marker.code_set`): a dictionary's index in
    /// OpenCV's order, tags from `MSD_CODE_SET_EXTERNAL` (1000) on.
    var shimValue: Int32 {
        switch self {
        case .dictionary(let name): Int32(PredefinedDictionary.allCases.firstIndex(of: name) ?? 0)
        case .tags(let family, let border):
            Int32(Self.external + 2 * (AprilTagFamily.allCases.firstIndex(of: family) ?? 0) + (border == 2 ? 1 : 0))
        }
    }

    /// The code set the shim's number names, or `nil` for a number it never gives.
    init?(shimValue: Int32) {
        let value = Int(shimValue)
        if value >= 0, value < PredefinedDictionary.allCases.count {
            self = .dictionary(PredefinedDictionary.allCases[value])
        } else if value >= Self.external, (value - Self.external) / 2 < AprilTagFamily.allCases.count {
            self = .tags(AprilTagFamily.allCases[(value - Self.external) / 2], borderCells: (value - Self.external) % 2 + 1)
        } else {
            return nil
        }
    }

    private static let external = 1000

    /// The bits a side of its markers has, for the nested OpenCV dictionaries (4 to 7), else `nil`.
    var nestedBits: Int? {
        switch self {
        case .dictionary(.dict4x4_1000): 4
        case .dictionary(.dict5x5_1000): 5
        case .dictionary(.dict6x6_1000): 6
        case .dictionary(.dict7x7_1000): 7
        default: nil
        }
    }

    /// The smallest predefined dictionary of this set that holds ids up to `largestID`, or `nil`
    /// for tags and for ids beyond the set.
    func smallestDictionary(holding largestID: Int) -> PredefinedDictionary? {
        guard case .dictionary(let name) = self else { return nil }
        guard let bits = nestedBits else { return largestID < name.markerCount ? name : nil }
        let nest = PredefinedDictionary.allCases.filter { $0.nestedBits == bits }.sorted { $0.markerCount < $1.markerCount }
        return nest.first { largestID < $0.markerCount }
    }

    /// `DICT_6X6_1000`, or `tag36h11` (and `tag36h11, 2-cell border`).
    var description: String {
        switch self {
        case .dictionary(let name): name.rawValue
        case .tags(let family, let border): border == 1 ? family.rawValue : "\(family.rawValue) with a \(border)-cell border"
        }
    }
}

extension PredefinedDictionary {
    /// How many markers the dictionary holds: ids 0 to `markerCount - 1`.
    public var markerCount: Int {
        switch self {
        case .dict4x4_50, .dict5x5_50, .dict6x6_50, .dict7x7_50: 50
        case .dict4x4_100, .dict5x5_100, .dict6x6_100, .dict7x7_100: 100
        case .dict4x4_250, .dict5x5_250, .dict6x6_250, .dict7x7_250: 250
        case .dict4x4_1000, .dict5x5_1000, .dict6x6_1000, .dict7x7_1000: 1000
        case .arucoOriginal: 1024
        case .aprilTag16h5: 30
        case .aprilTag25h9: 35
        case .aprilTag36h10: 2320
        case .aprilTag36h11: 587
        }
    }

    /// The bits a side for the nested dictionaries (`DICT_4X4_*` ... `DICT_7X7_*`), else `nil`.
    var nestedBits: Int? {
        switch self {
        case .dict4x4_50, .dict4x4_100, .dict4x4_250, .dict4x4_1000: 4
        case .dict5x5_50, .dict5x5_100, .dict5x5_250, .dict5x5_1000: 5
        case .dict6x6_50, .dict6x6_100, .dict6x6_250, .dict6x6_1000: 6
        case .dict7x7_50, .dict7x7_100, .dict7x7_250, .dict7x7_1000: 7
        default: nil
        }
    }

    /// The OpenCV dictionary with the same codes as an AprilTag family, if there is one.
    init?(sameCodesAs family: AprilTagFamily) {
        switch family {
        case .tag16h5: self = .aprilTag16h5
        case .tag25h9: self = .aprilTag25h9
        case .tag36h10: self = .aprilTag36h10
        case .tag36h11: self = .aprilTag36h11
        default: return nil
        }
    }
}
