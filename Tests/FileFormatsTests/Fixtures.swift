import Foundation

/// Files the `marker-shutter` of the commit before the formats had their own target wrote
/// (Tests/Fixtures/formats-before, see its README.md), and the bundled recording.
enum Fixtures {
    /// The package's root folder.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    /// The folder of files written before.
    static let before = packageRoot + "/Tests/Fixtures/formats-before"

    /// A file's bytes.
    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    /// A file's lines, each without its line break (the file ends in one).
    static func lines(_ path: String) throws -> [Substring] {
        let text = String(decoding: try bytes(path), as: UTF8.self)
        return text.split(separator: "\n", omittingEmptySubsequences: true)
    }

    /// The names in a folder that end in `suffix`, sorted.
    static func names(in folder: String, endingIn suffix: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(suffix) }.sorted()
    }
}
