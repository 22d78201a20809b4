import Foundation
import HTTPTestSupport

/// A headless Chromium driven through chromedriver's W3C WebDriver endpoints, for tests of the
/// browser view as a person sees it. Debian's `chromium` and `chromium-driver` provide both.
final class WebDriver: @unchecked Sendable {
    static let chromium = "/usr/bin/chromium"
    static let chromedriver = "/usr/bin/chromedriver"

    /// Why the browser cannot run here, or nil when it can.
    static var unavailableReason: String? {
        for path in [chromium, chromedriver] where !FileManager.default.isExecutableFile(atPath: path) {
            return "\(path) is not installed (Scripts/install-dependencies installs chromium and chromium-driver)"
        }
        return nil
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let driver: Process
    private let port: Int
    private let log: String
    private let session: String

    /// Starts chromedriver on a free loopback port and opens a headless browser window.
    init(width: Int = 1280, height: Int = 900) async throws {
        driver = Process()
        driver.executableURL = URL(fileURLWithPath: Self.chromedriver)
        driver.arguments = ["--port=0"]
        // Its log goes to a file, never to a pipe nobody drains (a full pipe would stop it).
        log = NSTemporaryDirectory() + "chromedriver-\(UUID().uuidString).log"
        guard FileManager.default.createFile(atPath: log, contents: nil) else { throw Failure(description: "cannot make \(log)") }
        driver.standardOutput = FileHandle(forWritingAtPath: log)
        driver.standardError = FileHandle.nullDevice
        try driver.run()
        // chromedriver says which port it took: "... started successfully on port 41987."
        let deadline = ContinuousClock.now + .seconds(60)
        var found: Int?
        while found == nil {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            if let match = text.firstMatch(of: /started successfully on port ([0-9]+)/) { found = Int(match.1) }
            if found == nil {
                guard driver.isRunning, ContinuousClock.now < deadline else {
                    throw Failure(description: "chromedriver did not start listening: \(text)")
                }
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        port = found!
        let capabilities: [String: Any] = [
            "capabilities": ["alwaysMatch": [
                "browserName": "chrome",
                // The page's image is an endless MJPEG stream, so its load event never comes:
                // navigation returns once the document is parsed.
                "pageLoadStrategy": "eager",
                "goog:chromeOptions": [
                    "binary": Self.chromium,
                    "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                             "--window-size=\(width),\(height)"],
                ],
            ]],
        ]
        let created = try await Self.call(port, "POST", "/session", capabilities)
        guard let id = (created["value"] as? [String: Any])?["sessionId"] as? String else { throw Failure(description: "no session: \(created)") }
        session = id
    }

    deinit {
        stopDriver()
        try? FileManager.default.removeItem(atPath: log)
    }

    /// Closes the browser and chromedriver.
    func quit() async {
        _ = try? await Self.call(port, "DELETE", "/session/\(session)", nil)
        stopDriver()
    }

    /// Ends chromedriver with SIGKILL: children of the test runner inherit its blocked signals,
    /// so a SIGTERM would never arrive.
    private func stopDriver() {
        guard driver.isRunning else { return }
        kill(driver.processIdentifier, SIGKILL)
        driver.waitUntilExit()
    }

    func open(_ url: String) async throws {
        _ = try await command("POST", "url", ["url": url])
    }

    /// Runs `script` in the page and returns its value.
    func evaluate(_ script: String) async throws -> Any? {
        try await command("POST", "execute/sync", ["script": script, "args": []])["value"].flatMap { $0 is NSNull ? nil : $0 }
    }

    /// Clicks the element with `id`.
    func click(id: String) async throws {
        let found = try await command("POST", "element", ["using": "css selector", "value": "#\(id)"])
        guard let element = (found["value"] as? [String: Any])?.values.first as? String else {
            throw Failure(description: "no element #\(id): \(found)")
        }
        _ = try await command("POST", "element/\(element)/click", [:])
    }

    /// The page as a PNG.
    func screenshot() async throws -> Data {
        guard let encoded = try await command("GET", "screenshot", nil)["value"] as? String,
              let png = Data(base64Encoded: encoded) else { throw Failure(description: "no screenshot") }
        return png
    }

    /// Evaluates `script` every 50 ms until it returns true; fails once an evaluation begun after
    /// `timeout` did not (a limit for a page that never gets there, not a pace: every step waits
    /// for what it needs).
    func waitUntil(_ what: String, timeout: Duration = .seconds(120), _ script: String) async throws {
        var last: Any?
        let held = try await poll(for: timeout, every: .milliseconds(50)) { () async throws -> Bool? in
            last = try await evaluate(script)
            return Self.isTrue(last) ? true : nil
        }
        if held == nil { throw Failure(description: "timed out waiting until \(what) (last: \(last ?? "null"))") }
    }

    /// A script's `true`, however JSON decoding on this platform hands it over (Bool or NSNumber).
    static func isTrue(_ value: Any?) -> Bool {
        if let flag = value as? Bool { return flag }
        if let number = value as? NSNumber { return number.boolValue }
        return false
    }

    private func command(_ method: String, _ path: String, _ body: [String: Any]?) async throws -> [String: Any] {
        try await Self.call(port, method, "/session/\(session)/\(path)", body)
    }

    /// One request on a connection of its own (chromedriver writes `Name:value` headers, which
    /// Foundation's client refuses).
    private static func call(_ port: Int, _ method: String, _ path: String, _ body: [String: Any]?) async throws -> [String: Any] {
        let bytes = try body.map { Array(try JSONSerialization.data(withJSONObject: $0)) } ?? []
        let (status, data) = try await onThread { () -> (Int, [UInt8]) in
            let connection = try TestConnection(port: port)
            try connection.send(method, path, headers: ["Content-Type": "application/json", "Connection": "close"], body: bytes)
            let head = try connection.readHead()
            return (head.status, try connection.readBodyToEnd())
        }
        guard status == 200 else { throw Failure(description: "\(method) \(path): \(String(decoding: data, as: UTF8.self))") }
        return (try? JSONSerialization.jsonObject(with: Data(data))) as? [String: Any] ?? [:]
    }
}
