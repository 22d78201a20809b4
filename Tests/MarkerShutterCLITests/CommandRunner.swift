import Foundation
import Testing

/// Runs the built `marker-shutter` and collects what it printed.
struct CommandResult {
    let status: Int32
    let standardOutput: String
    let standardError: String

    /// Standard output with every run of white space made one space, as help reads once its
    /// wrapped lines are joined.
    var flowingOutput: String {
        standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Standard output's lines parsed as JSON objects.
    var jsonLines: [[String: Any]] {
        standardOutput.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }
}

enum MarkerShutterBinary {
    /// The package's root folder.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    /// Keeps `data` as `.build/test-artifacts/NAME` (a page's or a window's picture, for a person to
    /// look at after the run).
    static func keepArtifact(_ data: Data, as name: String) throws {
        let artifacts = packageRoot + "/.build/test-artifacts"
        try FileManager.default.createDirectory(atPath: artifacts, withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: artifacts + "/" + name))
    }

    /// The shared photos (`../shared/images`).
    static let sharedImages = (packageRoot as NSString).appendingPathComponent("../shared/images")

    /// The executable, built next to the test bundle.
    static var path: String {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        return folder.appendingPathComponent("marker-shutter").path
    }

    /// Runs marker-shutter with `arguments`; with a `launcher`, runs `launcher marker-shutter arguments...`.
    /// `input`, when given, is its standard input (the null device otherwise).
    static func run(_ arguments: [String], in directory: String? = nil, launcher: String? = nil,
                    environment: [String: String]? = nil, input: String? = nil) throws -> CommandResult {
        let scratch = try temporaryFolder("run")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        return try start(arguments, in: directory, launcher: launcher, scratch: scratch, environment: environment,
                         input: input).wait()
    }

    static func temporaryFolder(_ name: String = #function) throws -> String {
        let safe = name.filter { $0.isLetter || $0.isNumber }
        let path = NSTemporaryDirectory() + "marker-shutter-cli-\(safe)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

extension MarkerShutterBinary {
    /// A `marker-shutter` started in the background, its standard output and error going to files.
    struct Started {
        let process: Process
        let standardOutputPath: String
        let standardErrorPath: String

        /// The browser view's address once `live --serve` printed it (`browser view: http://...`),
        /// polled for up to a minute; `nil`, with the issue recorded, when the program ended or the
        /// minute passed first.
        func browserViewAddress(sourceLocation: SourceLocation = #_sourceLocation) async throws -> String? {
            let deadline = ContinuousClock.now + .seconds(60)
            while true {
                let text = try String(contentsOfFile: standardErrorPath, encoding: .utf8)
                if let url = text.firstMatch(of: /browser view: (http:\/\/127\.0\.0\.1:[0-9]+\/)/).map({ String($0.1) }) { return url }
                #expect(process.isRunning, "live ended before serving: \(text)", sourceLocation: sourceLocation)
                guard process.isRunning else { return nil }
                guard ContinuousClock.now < deadline else {
                    Issue.record("no browser view address within a minute: \(text)", sourceLocation: sourceLocation)
                    return nil
                }
                try await Task.sleep(for: .milliseconds(50))
            }
        }

        /// Waits until the program has ended and returns what it printed.
        func wait() throws -> CommandResult {
            process.waitUntilExit()
            return CommandResult(status: process.terminationStatus,
                                 standardOutput: try String(contentsOfFile: standardOutputPath, encoding: .utf8),
                                 standardError: try String(contentsOfFile: standardErrorPath, encoding: .utf8))
        }
    }

    /// Starts marker-shutter with `arguments` (through `launcher`, if given), printing into files
    /// in `scratch`.
    /// `environment` replaces the test's own environment when given; `input`, when given, is the
    /// program's standard input (the null device otherwise).
    static func start(_ arguments: [String], in directory: String? = nil, launcher: String? = nil, scratch: String,
                      environment: [String: String]? = nil, input: String? = nil) throws -> Started
    {
        let outputPath = scratch + "/stdout", errorPath = scratch + "/stderr"
        guard FileManager.default.createFile(atPath: outputPath, contents: nil),
              FileManager.default.createFile(atPath: errorPath, contents: nil) else {
            throw CocoaError(.fileWriteUnknown)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: launcher ?? path)
        process.arguments = launcher == nil ? arguments : [path] + arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        process.standardOutput = FileHandle(forWritingAtPath: outputPath)
        process.standardError = FileHandle(forWritingAtPath: errorPath)
        if let input {
            let inputPath = scratch + "/stdin"
            guard FileManager.default.createFile(atPath: inputPath, contents: Data(input.utf8)),
                  let handle = FileHandle(forReadingAtPath: inputPath) else { throw CocoaError(.fileWriteUnknown) }
            process.standardInput = handle
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        if let environment { process.environment = environment }
        try process.run()
        return Started(process: process, standardOutputPath: outputPath, standardErrorPath: errorPath)
    }
}

extension MarkerShutterBinary {
    /// Runs marker-shutter with `arguments` in a new empty folder and expects a usage error (exit
    /// 64) saying `message`, before anything is written there.
    static func expectUsageError(_ arguments: [String], message: String,
                                 sourceLocation: SourceLocation = #_sourceLocation) throws {
        let scratch = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let result = try run(arguments, in: scratch)
        #expect(result.status == 64, sourceLocation: sourceLocation)
        #expect(result.standardError.contains(message), "\(result.standardError)", sourceLocation: sourceLocation)
        #expect(CalibrateCommandTests.contents(scratch).isEmpty, sourceLocation: sourceLocation)
    }
}
