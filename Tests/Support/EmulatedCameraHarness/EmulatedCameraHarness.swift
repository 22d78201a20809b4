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
    private var closed: Set<Stream> = []
    private var waiters: [Int: Waiter] = [:]
    private var nextWaiter = 0
    private let inputPipe = Pipe(), outputPipe = Pipe(), errorPipe = Pipe()

    /// A test waiting for text: woken by the thread that reads the program's output, not by a
    /// timer of the test's own, so that it hears of the text as soon as it comes however busy
    /// the tests' shared threads are.
    private struct Waiter {
        let text: String
        let occurrences: Int
        let stream: Stream
        let continuation: CheckedContinuation<Void, any Error>
    }

    /// One of the program's output streams.
    public enum Stream: Sendable, Hashable {
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
            self?.received(handle.availableData, on: .standardOutput)
        }
        errorPipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            self?.received(handle.availableData, on: .standardError)
        }
        try process.run()
    }

    /// Keeps what the program printed and wakes each waiter whose text is now there; at the end of
    /// both streams, every other waiter learns that the program ended without printing it. (The
    /// handler stays set at the end of a stream: only ``wait(timeout:)`` removes it, because
    /// Foundation's handle is not safe to change from two threads at once.)
    private func received(_ data: Data, on stream: Stream) {
        let woken: [(Waiter, (any Error)?)] = lock.withLock {
            if data.isEmpty { closed.insert(stream) } else if stream == .standardOutput { output.append(data) } else { errors.append(data) }
            var woken: [(Waiter, (any Error)?)] = []
            for (id, waiter) in waiters {
                if count(of: waiter.text, in: waiter.stream) >= waiter.occurrences {
                    woken.append((waiter, nil))
                } else if closed.count == 2 {
                    woken.append((waiter, HarnessError("the program ended before printing \(waiter.text)" + printedSoFarLocked)))
                } else {
                    continue
                }
                waiters[id] = nil
            }
            return woken
        }
        for (waiter, error) in woken {
            if let error { waiter.continuation.resume(throwing: error) } else { waiter.continuation.resume() }
        }
    }

    /// How often `text` occurs in `stream` so far; call under `lock`.
    private func count(of text: String, in stream: Stream) -> Int {
        String(decoding: stream == .standardOutput ? output : errors, as: UTF8.self).components(separatedBy: text).count - 1
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
    /// when the program ends first. The wait is woken by the thread that reads the program's
    /// output, and watched every 10 ms on a queue of its own, never on the tests' shared threads.
    public func waitForOutput(
        containing text: String, occurrences: Int = 1, on stream: Stream = .standardOutput, timeout: Duration
    ) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let registered: (id: Int, outcome: Result<Void, HarnessError>?) = lock.withLock {
                if count(of: text, in: stream) >= occurrences { return (0, .success(())) }
                if closed.count == 2 { return (0, .failure(HarnessError("the program ended before printing \(text)" + printedSoFarLocked))) }
                nextWaiter += 1
                waiters[nextWaiter] = Waiter(text: text, occurrences: occurrences, stream: stream, continuation: continuation)
                return (nextWaiter, nil)
            }
            switch registered.outcome {
            case .success: continuation.resume()
            case .failure(let error): continuation.resume(throwing: error)
            case nil:
                let (seconds, attoseconds) = timeout.components
                let deadline = DispatchTime.now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
                watch(registered.id, text: text, timeout: timeout, deadline: deadline, endedSince: nil)
            }
        }
    }

    /// Fails waiter `id` at its deadline, or once the program has ended without printing its text:
    /// when both streams have ended, or a second after the process was seen gone (the end of a pipe
    /// is not always told when the last output and the end come together).
    private func watch(_ id: Int, text: String, timeout: Duration, deadline: DispatchTime, endedSince: DispatchTime?) {
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(10)) { [self] in
            let now = DispatchTime.now()
            let ended = process.isRunning ? nil : (endedSince ?? now)
            let (failed, waiting): ((Waiter, HarnessError)?, Bool) = lock.withLock {
                guard waiters[id] != nil else { return (nil, false) }
                let error: HarnessError?
                if let ended, closed.count == 2 || now >= ended + .seconds(1) {
                    error = HarnessError("the program ended before printing \(text)" + printedSoFarLocked)
                } else if now >= deadline {
                    error = HarnessError("no \(text) within \(timeout)" + printedSoFarLocked)
                } else {
                    error = nil
                }
                guard let error, let waiter = waiters.removeValue(forKey: id) else { return (nil, true) }
                return ((waiter, error), false)
            }
            if let (waiter, error) = failed { waiter.continuation.resume(throwing: error) }
            if waiting { watch(id, text: text, timeout: timeout, deadline: deadline, endedSince: ended) }
        }
    }

    /// The end of what the program printed so far on each stream, for a failure's message; call
    /// under `lock`.
    private var printedSoFarLocked: String {
        func tail(_ data: Data) -> String {
            String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).suffix(25)
                .joined(separator: "\n")
        }
        return "; standard output ends:\n\(tail(output))\nstandard error ends:\n\(tail(errors))"
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
