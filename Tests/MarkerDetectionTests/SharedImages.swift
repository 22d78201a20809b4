import Foundation

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
}
