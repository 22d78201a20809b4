import Foundation
import MarkerDetection
import Pixels
import Testing

/// ChArUco corners in a blurred view tilted nearly 70 degrees, where a corner's refinement window
/// holds a marker's corner (`Tests/Fixtures/charuco-corners`, rendered with known truth): each
/// corner must land near its true place or be dropped, never on the marker.
@Suite struct CharucoCornerOutlierTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/charuco-corners/tilted-blurred.png").path

    /// The true places of the board corners inside the picture (pixel centres at whole numbers).
    static let truth: [Int: (x: Double, y: Double)] = [
        6: (13.606, 167.733), 7: (106.985, 138.850), 8: (206.586, 108.042), 9: (313.053, 75.110),
        17: (48.446, 223.082), 18: (148.457, 194.404), 19: (255.534, 163.699), 29: (195.063, 256.835),
    ]

    @Test(arguments: DetectionMode.allCases)
    func cornersLandNearTheTruthOrAreDropped(mode: DetectionMode) throws {
        let image = try ImageFile.read(Self.fixture, channels: .gray)
        let pattern = try Pattern(parsing: "charuco:11x8:DICT_5X5_100:square=0.03,marker=0.021")
        let detection = try MarkerDetector(pattern: pattern, mode: mode).detect(image)
        // Before the check, corner 18 was found 12.6 px off (on a marker's corner); OpenCV 5.0's
        // worst corner on such views is 1.6 to 2.5 px off.
        for corner in detection.boardCorners {
            let truth = try #require(Self.truth[corner.id], "corner \(corner.id) is not in the picture")
            let error = hypot(corner.point.x - truth.x, corner.point.y - truth.y)
            #expect(error <= 2.5, "corner \(corner.id) is \(error) px from its true place")
        }
        // The corners whose refinement holds (7 and 8, within 1.9 px) are kept.
        #expect(Set(detection.boardCorners.map(\.id)).isSuperset(of: [7, 8]))
    }
}
