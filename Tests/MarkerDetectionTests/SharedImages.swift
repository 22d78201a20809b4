import Foundation
import MarkerDetection

/// The real photos in `../shared/images` (next to the package root), read in place.
enum SharedImages {
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }  // MarkerDetectionTests, Tests, package root
        return url.deletingLastPathComponent().appendingPathComponent("shared/images").path
    }()

    static let available = FileManager.default.fileExists(atPath: root + "/MANIFEST.md")
    static let missing = "the shared photos are not next to the package (../shared/images)"

    static func path(_ relative: String) -> String { root + "/" + relative }

    /// `apriltag/cubes.truth.txt`: one tag a line, its id and four corners as libapriltag reports
    /// them (counter-clockwise from the tag's bottom-left, pixel centres at +0.5).
    static func cubesTruth() throws -> [(id: Int, corners: [ImagePoint])] {
        try String(contentsOfFile: path("apriltag/cubes.truth.txt"), encoding: .utf8)
            .split(separator: "\n").map { line -> (id: Int, corners: [ImagePoint]) in
                let numbers = line.split(whereSeparator: { " ,()".contains($0) }).compactMap { Double($0) }
                let corners = stride(from: 1, to: 9, by: 2).map { ImagePoint(x: numbers[$0], y: numbers[$0 + 1]) }
                return (Int(numbers[0]), corners)
            }
    }
}
