/// One of OpenCV's predefined marker dictionaries, spelled as OpenCV spells it (`DICT_6X6_250`).
///
/// The raw value is the name used in pattern strings. The cases are in OpenCV's own order
/// (`cv::aruco::PREDEFINED_DICTIONARY_NAME`).
public enum PredefinedDictionary: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// 4x4 bits, 50 markers.
    case dict4x4_50 = "DICT_4X4_50"
    /// 4x4 bits, 100 markers.
    case dict4x4_100 = "DICT_4X4_100"
    /// 4x4 bits, 250 markers.
    case dict4x4_250 = "DICT_4X4_250"
    /// 4x4 bits, 1000 markers.
    case dict4x4_1000 = "DICT_4X4_1000"
    /// 5x5 bits, 50 markers.
    case dict5x5_50 = "DICT_5X5_50"
    /// 5x5 bits, 100 markers.
    case dict5x5_100 = "DICT_5X5_100"
    /// 5x5 bits, 250 markers.
    case dict5x5_250 = "DICT_5X5_250"
    /// 5x5 bits, 1000 markers.
    case dict5x5_1000 = "DICT_5X5_1000"
    /// 6x6 bits, 50 markers.
    case dict6x6_50 = "DICT_6X6_50"
    /// 6x6 bits, 100 markers.
    case dict6x6_100 = "DICT_6X6_100"
    /// 6x6 bits, 250 markers.
    case dict6x6_250 = "DICT_6X6_250"
    /// 6x6 bits, 1000 markers.
    case dict6x6_1000 = "DICT_6X6_1000"
    /// 7x7 bits, 50 markers.
    case dict7x7_50 = "DICT_7X7_50"
    /// 7x7 bits, 100 markers.
    case dict7x7_100 = "DICT_7X7_100"
    /// 7x7 bits, 250 markers.
    case dict7x7_250 = "DICT_7X7_250"
    /// 7x7 bits, 1000 markers.
    case dict7x7_1000 = "DICT_7X7_1000"
    /// The original ArUco library's markers: 5x5 bits, 1024 markers.
    case arucoOriginal = "DICT_ARUCO_ORIGINAL"
    /// AprilTag family 16h5: 4x4 bits, 30 markers.
    case aprilTag16h5 = "DICT_APRILTAG_16h5"
    /// AprilTag family 25h9: 5x5 bits, 35 markers.
    case aprilTag25h9 = "DICT_APRILTAG_25h9"
    /// AprilTag family 36h10: 6x6 bits, 2320 markers.
    case aprilTag36h10 = "DICT_APRILTAG_36h10"
    /// AprilTag family 36h11: 6x6 bits, 587 markers.
    case aprilTag36h11 = "DICT_APRILTAG_36h11"

    /// Finds a dictionary by its OpenCV name, ignoring case (`dict_6x6_250` finds `DICT_6X6_250`).
    public init?(name: String) {
        let wanted = name.uppercased()
        guard let match = Self.allCases.first(where: { $0.rawValue.uppercased() == wanted }) else { return nil }
        self = match
    }

    /// The OpenCV name, as written in pattern strings.
    public var description: String { rawValue }
}
