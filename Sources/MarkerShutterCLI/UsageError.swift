import Foundation

/// A usage mistake found only once a command runs (a pattern whose board its dictionary cannot
/// hold, a target larger than the image): printed as `Error: <message>`, exit status 64, without
/// the usage text that ArgumentParser would print for the root command.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }

    /// The exit status of a usage error (`EX_USAGE`).
    static let status: Int32 = 64
}
