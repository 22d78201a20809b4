import Foundation

/// Runs programs against emulated cameras: makes device files with their configuration in a
/// temporary folder, and starts programs under `Scripts/with-emulated-camera`, which shows them
/// the plugin inside a private mount namespace (a multi-threaded process cannot enter one itself,
/// so the program under test is always a child).
///
/// ```swift
/// let harness = try EmulatedCameraHarness()
/// let camera = try harness.addCamera(EmulatedCameraConfiguration(formats: [.mjpeg], framesFolder: folder,
///                                                                faults: [.gap(at: 30, count: 2)]))
/// let run = try harness.start(harness.productsDirectory + "/marker-shutter", ["live", "--device", camera.path])
/// try await run.waitForOutput(containing: "\"frame\"", timeout: .seconds(10))
/// run.send(SIGINT)
/// let result = try await run.wait(timeout: .seconds(10))
/// print(camera.log())   // open, s_fmt, reqbufs, streamon, ..., streamoff, reqbufs count=0, close
/// ```
public final class EmulatedCameraHarness: Sendable {
    /// The temporary folder holding device files, configurations and logs; removed on deinit.
    public let directory: String
    /// The package's root folder.
    public let packageRoot: String
    /// The folder of built products: the probe, `marker-shutter`.
    public let productsDirectory: String

    /// Makes a fresh temporary folder.
    ///
    /// - Parameters:
    ///   - productsDirectory: Where the built products are; by default the folder of the running
    ///     executable (the test bundle under `swift test`).
    public init(productsDirectory: String? = nil) throws {
        let template = NSTemporaryDirectory() + "emulated-camera-XXXXXX"
        var bytes = Array(template.utf8CString)
        guard mkdtemp(&bytes) != nil else { throw HarnessError("mkdtemp failed with errno \(errno)") }
        directory = String(decoding: bytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // This file is Tests/Support/EmulatedCameraHarness/EmulatedCameraHarness.swift, perhaps reached
        // through the Benchmarks package's link to its folder: the package is the one holding the file.
        guard let file = realpath(#filePath, nil) else { throw HarnessError("cannot resolve \(#filePath)") }
        defer { free(file) }
        packageRoot = URL(fileURLWithPath: String(cString: file)).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().path
        self.productsDirectory = productsDirectory
            ?? URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().path
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// `Scripts/with-emulated-camera`.
    public var script: String { packageRoot + "/Scripts/with-emulated-camera" }
    /// `Scripts/build-emulated-camera`, which builds the plugin and prints its path.
    public var pluginBuildScript: String { packageRoot + "/Scripts/build-emulated-camera" }
    /// The built probe (`FrameCaptureProbe`, an executable target, is named after itself).
    public var probe: String { productsDirectory + "/FrameCaptureProbe" }

    /// Builds the plugin when it is missing or older than its sources and returns its path; throws
    /// with the compiler's messages when that fails. Callers take turns inside the script, so any
    /// number of tests and processes may ask at once; the waiting holds no thread.
    @discardableResult
    public func buildPlugin(timeout: Duration = .seconds(600)) async throws -> String {
        let result = try await HarnessProcess(executable: pluginBuildScript, arguments: [], environment: [:])
            .wait(timeout: timeout)
        let path = result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        guard result.status == 0, !path.isEmpty else {
            throw HarnessError("\(pluginBuildScript) exited with \(result.status):\n\(result.standardError)")
        }
        return path
    }

    /// Builds the plugin, and throws when that fails or the probe has not been built (a build
    /// problem, not a reason to skip). Call it before ``unavailableReason()``, which would report a
    /// failed build as a reason to skip.
    public func checkProducts() async throws {
        try await buildPlugin()
        guard FileManager.default.isExecutableFile(atPath: probe) else {
            throw HarnessError("FrameCaptureProbe was not built at \(probe); build the package first")
        }
    }

    /// Why programs cannot be run against the emulated camera here (the script's reason when the
    /// mount namespace or its mounts are refused), or `nil` when they can.
    public func unavailableReason() async -> String? {
        guard let result = try? await run("/bin/true", [], timeout: .seconds(20)) else { return "cannot start \(script)" }
        if result.status == 0 { return nil }
        let reason = result.standardError.trimmingCharacters(in: .whitespacesAndNewlines)
        return reason.isEmpty ? "\(script) exited with \(result.status)" : reason
    }

    /// Makes device file `name` with its `name.conf` and a log file; returns where they are.
    public func addCamera(_ configuration: EmulatedCameraConfiguration, named name: String = "video0") throws -> EmulatedCamera {
        let camera = EmulatedCamera(path: directory + "/" + name, logPath: directory + "/" + name + ".log")
        guard FileManager.default.createFile(atPath: camera.path, contents: nil) else {
            throw HarnessError("cannot make \(camera.path)")
        }
        try configuration.text(logPath: camera.logPath).write(toFile: camera.path + ".conf", atomically: true, encoding: .utf8)
        return camera
    }

    /// Starts `executable` under the script; its process id is the program's own.
    public func start(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> HarnessProcess {
        try HarnessProcess(
            executable: script, arguments: ["--", executable] + arguments, environment: environment)
    }

    /// Runs `executable` under the script to the end.
    public func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], timeout: Duration = .seconds(60)
    ) async throws -> HarnessResult {
        try await start(executable, arguments, environment: environment).wait(timeout: timeout)
    }

    /// Runs the probe under the script and parses its JSON lines.
    public func runProbe(_ arguments: [String], timeout: Duration = .seconds(60)) async throws -> HarnessResult {
        try await run(probe, arguments, timeout: timeout)
    }
}

/// A device file made by ``EmulatedCameraHarness/addCamera(_:named:)``.
public struct EmulatedCamera: Sendable, Hashable {
    /// The device file to open.
    public let path: String
    /// The plugin's event log.
    public let logPath: String

    /// The plugin's log lines so far (`open path=...`, `streamoff`, `reqbufs count=0`, `close ...`).
    public func log() -> [String] {
        ((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }
}

/// What a finished program did.
public struct HarnessResult: Sendable {
    /// Exit status, or 128 + signal number when a signal ended it.
    public let status: Int32
    /// Standard output.
    public let standardOutput: String
    /// Standard error.
    public let standardError: String

    /// The standard output lines that are JSON objects, parsed.
    public var jsonLines: [[String: any Sendable]] {
        standardOutput.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: any Sendable]
        }
    }

    /// The JSON lines whose `event` is `event`.
    public func events(_ event: String) -> [[String: any Sendable]] {
        jsonLines.filter { $0["event"] as? String == event }
    }
}

/// A program started by ``EmulatedCameraHarness/start(_:_:environment:)``.
public final class HarnessProcess: @unchecked Sendable {
    // @unchecked: Process is used from the thread that owns this object; the output buffers are
    // guarded by `lock`.
    private let process = Process()
    private let lock = NSLock()
    private var output = Data()
    private var errors = Data()
    private let inputPipe = Pipe(), outputPipe = Pipe(), errorPipe = Pipe()

    /// One of the program's output streams.
    public enum Stream: Sendable {
        case standardOutput, standardError
    }

    init(executable: String, arguments: [String], environment: [String: String]) throws {
        // A line written after the program has exited must fail with EPIPE, not end the tests.
        signal(SIGPIPE, SIG_IGN)
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        // A pipe of its own, never the test's terminal: a program that reads commands reads the test's.
        process.standardInput = inputPipe
        process.standardOutput = outputPipe
        process.standardError = errorPipe
        outputPipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            self?.lock.withLock { self?.output.append(data) }
        }
        errorPipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            self?.lock.withLock { self?.errors.append(data) }
        }
        try process.run()
    }

    /// The program's process id (signals sent to it reach the program itself).
    public var processIdentifier: Int32 { process.processIdentifier }

    /// Standard output so far.
    public var standardOutput: String { lock.withLock { String(decoding: output, as: UTF8.self) } }

    /// Standard error so far.
    public var standardError: String { lock.withLock { String(decoding: errors, as: UTF8.self) } }

    /// Sends `signal` to the program.
    public func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Writes `line` and a newline to the program's standard input (ignored once the program has
    /// stopped reading).
    public func sendLine(_ line: String) {
        try? inputPipe.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    }

    /// Closes the program's standard input: it reads end of file.
    public func closeInput() {
        try? inputPipe.fileHandleForWriting.close()
    }

    /// Waits until `stream` contains `text` at least `occurrences` times; throws after `timeout` or
    /// when the program ends first.
    public func waitForOutput(
        containing text: String, occurrences: Int = 1, on stream: Stream = .standardOutput, timeout: Duration
    ) async throws {
        let deadline = ContinuousClock.now + timeout
        func seen() -> Int {
            let contents = stream == .standardOutput ? standardOutput : standardError
            return contents.components(separatedBy: text).count - 1
        }
        // The output of a program that has just ended may still be on its way from the pipe: it
        // gets a second more before the wait fails.
        var ended: ContinuousClock.Instant?
        while seen() < occurrences {
            if ended == nil, !process.isRunning { ended = ContinuousClock.now }
            if let ended, ContinuousClock.now >= ended + .seconds(1) {
                throw HarnessError("the program ended before printing \(text)" + printedSoFar)
            }
            guard ContinuousClock.now < deadline else { throw HarnessError("no \(text) within \(timeout)" + printedSoFar) }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// The end of what the program printed so far on each stream, for a failure's message.
    private var printedSoFar: String {
        func tail(_ text: String) -> String {
            text.split(separator: "\n", omittingEmptySubsequences: false).suffix(25).joined(separator: "\n")
        }
        return "; standard output ends:\n\(tail(standardOutput))\nstandard error ends:\n\(tail(standardError))"
    }

    /// Waits for the program to end (sleeping between looks, so no thread is held); kills it
    /// (SIGKILL) and throws after `timeout`.
    public func wait(timeout: Duration) async throws -> HarnessResult {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            if ContinuousClock.now >= deadline {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                throw HarnessError("the program did not end within \(timeout); killed it")
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        process.waitUntilExit()
        closeInput()
        outputPipe.fileHandleForReading.readabilityHandler = nil
        errorPipe.fileHandleForReading.readabilityHandler = nil
        let restOut = outputPipe.fileHandleForReading.readDataToEndOfFile()
        let restErr = errorPipe.fileHandleForReading.readDataToEndOfFile()
        return lock.withLock {
            output.append(restOut)
            errors.append(restErr)
            let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
            return HarnessResult(
                status: status, standardOutput: String(decoding: output, as: UTF8.self),
                standardError: String(decoding: errors, as: UTF8.self))
        }
    }
}

/// A harness step that failed.
public struct HarnessError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
