import Foundation

/// Folders the tests read and write.
enum TestPaths {
    /// The package's root folder.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    /// The shared photos with published ground truth (`../shared/images` from the package root).
    static let sharedImages = (packageRoot as NSString).appendingPathComponent("../shared/images")

    /// A new empty temporary folder.
    static func temporaryFolder(_ name: String = #function) throws -> String {
        let safe = name.filter { $0.isLetter || $0.isNumber }
        let path = NSTemporaryDirectory() + "marker-shutter-\(safe)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
