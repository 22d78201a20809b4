import EmulatedCameraHarness
import Foundation
import HTTPTestSupport
import Testing

extension LiveTests {
    /// `live --serve` recording under `ulimit -n 256` while 400 clients connect and go quiet (half
    /// of them after half a request): the tool keeps its descriptors for the camera, the recording
    /// and the pictures, so the recording holds every frame received, a capture with the token is
    /// answered and its picture written, and the page's Stop ends the run with status 0.
    ///
    /// Nothing depends on speed: the test waits for events (the server closing connections it has no
    /// room for, the state reporting frames) with generous deadlines.
    @Suite struct LiveServeIdleClientsTests {
        static let idleClients = 400
        /// What `--serve`'s help states for 127.0.0.1 under `ulimit -n 256`: at most 64 connections
        /// (a quarter of 256), 32 from one address. Every client here comes from 127.0.0.1.
        static let perAddress = 32

        @Test func fourHundredIdleClientsCostNoFrameAndNoAnswer() async throws {
            let harness = try await makeLiveHarness()
            let session = LiveTimelineTests.session
            let camera = try harness.addCamera(showing: session)
            let recording = harness.directory + "/recording", pictures = harness.directory + "/pictures"
            let token = "Fl00d-t0ken"
            let process = try harness.start("/usr/bin/prlimit", ["--nofile=256:256", "--", harness.markerShutter]
                + harness.liveArguments(camera) + ["--out", pictures, "--record", recording, "--serve", "127.0.0.1:0", "--token", token])
            // SIGKILL: children of the test runner inherit its blocked signals.
            defer { if !Self.hasEnded(process.processIdentifier) { process.send(SIGKILL) } }
            try await process.waitForOutput(containing: "browser view: http://127.0.0.1:", on: .standardError, timeout: .seconds(60))
            let port = try #require(process.standardError.firstMatch(of: /browser view: http:\/\/127\.0\.0\.1:([0-9]+)\//).flatMap { Int($0.1) })
            #expect(Self.openFileLimit(process.processIdentifier) == 256)
            while try await onThread({ try Self.frameIndex(port: port, token: token) }) < session.shots.count {
                try await Task.sleep(for: .milliseconds(50))
            }

            // 400 connections that never finish a request; the server closes all but 32 of them.
            let idle = try await onThread {
                try (0..<Self.idleClients).map { i in
                    let connection = try TestConnection(port: port)
                    if i % 2 == 1 { try connection.sendRaw(Array("POST /capture?token=\(token) HTTP/1.1\r\nHost: 127".utf8)) }
                    return connection
                }
            }
            let closedByServer = Self.idleClients - Self.perAddress
            let deadline = ContinuousClock.now + .seconds(120)
            while idle.count(where: { $0.serverHasClosed() }) < closedByServer, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(idle.count(where: { $0.serverHasClosed() }) == closedByServer)
            let descriptors = Self.openFiles(process.processIdentifier)
            #expect(descriptors < 256 - 64, "open files during the flood: \(descriptors)")

            // With the idle clients still connected: captures with the token are answered until
            // one is taken (the shutter refuses while no board is held), and the page's state.
            var answers: [Int] = []
            while answers.last != 200, answers.count < 200 {
                answers.append(try await onThread { try Self.exchange("POST", "/capture?token=\(token)", port: port).status })
                if answers.last == 409 { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(answers.last == 200 && Set(answers).isSubset(of: [200, 409]), "capture answers: \(answers)")
            #expect(try await onThread { try Self.exchange("GET", "/state?token=\(token)", port: port).status } == 200)

            let stop = try await onThread { try Self.exchange("POST", "/stop?token=\(token)", port: port) }
            #expect(stop.status == 200)
            let result = try await process.wait(timeout: .seconds(60))
            for connection in idle { connection.hangUp() }
            print("idle clients: \(Self.idleClients), closed by the server: \(closedByServer), open files in live meanwhile: \(descriptors); "
                  + "capture answers: \(answers)")
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardError.contains("stopped (stopped from the browser view)"), "\(result.standardError)")

            // The recording holds every frame the tool received, in camera order; the picture is whole.
            let counts = try #require(LiveOutput(result).counts, "\(result.standardError)")
            #expect(result.standardError.contains("recording: \(counts.received) frames in \(recording)\n"), "\(result.standardError)")
            let manifest = try String(contentsOfFile: recording + "/manifest.jsonl", encoding: .utf8)
                .split(separator: "\n").map { try JSONLine(String($0)) }
            #expect(manifest.count == counts.received)
            #expect(try FileManager.default.contentsOfDirectory(atPath: recording).filter { $0.hasSuffix(".jpg") }.count == counts.received)
            let sequences = manifest.compactMap { $0.int("sequence") }
            #expect(sequences.count == manifest.count && zip(sequences, sequences.dropFirst()).allSatisfy { $0 < $1 })
            #expect(try FileManager.default.contentsOfDirectory(atPath: pictures).sorted() == ["capture_0001.json", "capture_0001.png"])
        }

        /// The index of the newest frame the page's state reports.
        static func frameIndex(port: Int, token: String) throws -> Int {
            let (status, body) = try exchange("GET", "/state?token=\(token)", port: port)
            guard status == 200 else { throw TestConnection.Failure(description: "GET /state answered \(status)") }
            return String(decoding: body, as: UTF8.self).firstMatch(of: /"frame":([0-9]+)/).flatMap { Int($0.1) } ?? -1
        }

        /// Sends a request and reads the whole answer.
        static func exchange(_ method: String, _ path: String, port: Int) throws -> (status: Int, body: [UInt8]) {
            let connection = try TestConnection(port: port)
            defer { connection.hangUp() }
            try connection.send(method, path)
            let head = try connection.readHead()
            return (head.status, try connection.readBodyToEnd())
        }

        /// The soft limit on open files of `pid`, from /proc.
        static func openFileLimit(_ pid: Int32) -> Int? {
            guard let limits = try? String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8),
                  let line = limits.split(separator: "\n").first(where: { $0.hasPrefix("Max open files") }) else { return nil }
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).first ?? "")
        }

        /// How many files (sockets included) `pid` has open.
        static func openFiles(_ pid: Int32) -> Int {
            (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? 0
        }

        /// Whether `pid` has ended (or is a zombie awaiting its parent).
        static func hasEnded(_ pid: Int32) -> Bool {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
            return stat.split(separator: ")").last?.split(separator: " ").first == "Z"
        }
    }
}
