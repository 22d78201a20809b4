import Foundation

/// Debian's /usr/bin/python3 with its OpenCV bindings, for reading results back independently.
enum Python {
    static let path = "/usr/bin/python3"

    /// Whether /usr/bin/python3 exists and imports cv2.
    static let hasOpenCV: Bool = (try? run("import cv2")) != nil

    static let missing = "/usr/bin/python3 with cv2 (Debian's python3-opencv) is not installed"

    /// Whether /usr/bin/python3 imports yaml (PyYAML).
    static let hasYAML: Bool = (try? run("import yaml")) != nil

    static let missingYAML = "/usr/bin/python3 with yaml (Debian's python3-yaml) is not installed"

    /// Runs `script` with `arguments`; returns standard output, or throws with standard error.
    static func run(_ script: String, _ arguments: [String] = []) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["-c", script] + arguments
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw PythonError(message: String(decoding: errorData, as: UTF8.self))
        }
        return String(decoding: outputData, as: UTF8.self)
    }

    struct PythonError: Error {
        let message: String
    }
}

/// A fresh folder under the system's temporary folder.
func temporaryFolder(_ name: String = #function) throws -> String {
    let safe = name.filter { $0.isLetter || $0.isNumber }
    let path = NSTemporaryDirectory() + "calibration-tests-\(safe)-\(UUID().uuidString.prefix(8))"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}
