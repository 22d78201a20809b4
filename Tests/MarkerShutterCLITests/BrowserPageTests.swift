import Foundation
import HTTPTestSupport
import MarkerDetection
import Pixels
import Testing

/// `live --serve` as a person uses it: the page in a real headless Chromium, against the sample
/// session replayed at a third of its pace (and with three times its hold, so that the shutter
/// changes at the same frames), ending only when the page stops it.
/// Every step waits for what it needs on the page; the time limits only turn a page that never
/// gets there into a failure.
@Suite(.timeLimit(.minutes(10))) struct BrowserPageTests {
    /// The sample's shutter, frame by frame: valid 0-29, 33-54, 57-71 and 102-119, held 0.3 s.
    static func expectedPhase(_ frame: Int) -> String {
        switch frame {
        case 0...29, 33...54, 57...71, 102...119: "enabled"
        case 30...32, 55...56, 72...80: "held"
        default: "disabled"
        }
    }

    /// The sample session with its recorded times stretched `factor` times, and its last frame an
    /// hour after the one before, so that the replay is still running when the page stops it,
    /// however slow the machine (the shutter stays enabled on frame 118 meanwhile).
    static func slowedSample(factor: Double) throws -> String {
        let folder = try MarkerShutterBinary.temporaryFolder("slowed-sample")
        let sample = MarkerShutterBinary.packageRoot + "/Samples/charuco-session"
        var manifest = ""
        for line in try String(contentsOfFile: sample + "/manifest.jsonl", encoding: .utf8).split(separator: "\n") {
            var row = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let file = try #require(row["file"] as? String)
            try FileManager.default.copyItem(atPath: sample + "/" + file, toPath: folder + "/" + file)
            row["t"] = try #require(row["t"] as? Double) * factor + (file == "frame_000119.jpg" ? 3600 : 0)
            manifest += String(decoding: try JSONSerialization.data(withJSONObject: row, options: .sortedKeys), as: UTF8.self) + "\n"
        }
        try manifest.write(toFile: folder + "/manifest.jsonl", atomically: true, encoding: .utf8)
        return folder
    }

    /// A port that cannot be bound ends `live` with status 1 before the source or the picture folder opens.
    @Test func anAddressInUseIsRefusedBeforeAnythingOpens() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        try #require(bound && listen(listener, 1) == 0)
        let port = Int(UInt16(bigEndian: address.sin_port))
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let result = try MarkerShutterBinary.run(
            ["live", "--replay", MarkerShutterBinary.packageRoot + "/Samples/charuco-session", "--serve", "127.0.0.1:\(port)",
             "--out", scratch + "/picks"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("cannot serve the browser view on 127.0.0.1:\(port): Address already in use (EADDRINUSE); "
                                              + "another program listens there: choose another port, or 0 for any free one"),
                "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: scratch + "/picks"))
    }

    @Test(.enabled(if: WebDriver.unavailableReason == nil, Comment(rawValue: WebDriver.unavailableReason ?? "")))
    func thePageShowsTheSessionTakesAPictureAndStopsIt() async throws {
        let replay = try Self.slowedSample(factor: 3)
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer {
            try? FileManager.default.removeItem(atPath: replay)
            try? FileManager.default.removeItem(atPath: scratch)
        }
        let out = scratch + "/picks"
        let run = try MarkerShutterBinary.start(
            ["live", "--replay", replay, "--hold", "0.9", "--serve", "127.0.0.1:0", "--wait-for-viewer", "--out", out],
            scratch: scratch)
        // SIGKILL: children of the test runner inherit its blocked signals.
        defer { if run.process.isRunning { kill(run.process.processIdentifier, SIGKILL) } }

        // The address is printed before the session starts; it waits for the page.
        guard let url = try await run.browserViewAddress() else { return }

        let browser = try await WebDriver()
        do {
            try await browser.open(url)
            try await browser.waitUntil("the badge shows ENABLED", #"return document.getElementById("badge").className === "enabled";"#)
            try await browser.waitUntil("the image shows", #"return document.getElementById("view").naturalWidth > 0;"#)
            // Read together: on a busy machine the replay may have moved on (to a held or disabled
            // stretch) between two separate reads.
            try await browser.waitUntil(
                "the badge reads ENABLED while enabled",
                #"const badge = document.getElementById("badge"); return badge.className === "enabled" && badge.textContent === "ENABLED";"#)

            // "Take picture" while enabled; a click that lands in the disabled stretch is refused
            // with the reason, and is tried again once the shutter is enabled.
            for _ in 0..<3 {
                try await browser.click(id: "capture")
                try await browser.waitUntil("the click is answered", """
                    const m = document.getElementById("message").textContent;
                    return document.querySelectorAll("#thumbs figure").length > 0 || m.includes("disabled");
                    """)
                if try await browser.evaluate(##"return document.querySelectorAll("#thumbs figure").length;"##) as? Int ?? 0 > 0 { break }
                try await browser.waitUntil("the shutter is enabled again", #"return document.getElementById("badge").className === "enabled";"#)
            }
            #expect(try await browser.evaluate(##"return document.querySelectorAll("#thumbs figure").length;"##) as? Int == 1)

            try await browser.waitUntil("the shutter is enabled after the disabled stretch", """
                return window.shutterChanges.some((c) => c.frame >= 102 && c.shutter === "enabled");
                """)
            let changes = try #require(try await browser.evaluate("return window.shutterChanges;") as? [[String: Any]])
            let seen = changes.compactMap { c in (c["frame"] as? Int).flatMap { f in (c["shutter"] as? String).map { (f, $0) } } }
            #expect(seen.count == changes.count)
            for (frame, phase) in seen {
                #expect(phase == Self.expectedPhase(frame), "frame \(frame) shown \(phase)")
            }
            #expect(seen.first?.1 == "enabled")
            // Held and disabled in their stretches, in order (the 9 held frames 72-80 before the
            // 21 disabled ones 81-101), whichever frames a busy machine skipped.
            let held = seen.firstIndex { (72...80).contains($0.0) && $0.1 == "held" }
            let disabled = seen.firstIndex { (81...101).contains($0.0) && $0.1 == "disabled" }
            #expect(held != nil && disabled != nil && held! < disabled!, "\(seen)")

            try MarkerShutterBinary.keepArtifact(try await browser.screenshot(), as: "browser-view.png")

            try await browser.click(id: "stop")
        } catch {
            await browser.quit()
            throw error
        }
        await browser.quit()
        let result = try run.wait()
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("stopped (stopped from the browser view)"), "\(result.standardError)")
        let files = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        #expect(files == ["capture_0001.json", "capture_0001.png"])
    }

    /// One GET on the server of `url` (`http://127.0.0.1:PORT/`), read whole.
    static func get(_ path: String, from url: String) async throws -> (status: Int, headers: [String: String], body: [UInt8]) {
        let port = try #require(url.firstMatch(of: /:([0-9]+)\//).flatMap { Int($0.1) })
        return try await onThread {
            let connection = try TestConnection(port: port)
            try connection.send("GET", path, host: "127.0.0.1:\(port)", headers: ["Connection": "close"])
            let head = try connection.readHead()
            return (head.status, head.headers, try connection.readBodyToEnd())
        }
    }

    /// `live --calibrate` with `--serve` on the sample session: before the first solve the map is
    /// not found and the state has no calibration; as pictures are solved, the page's panel shows
    /// the verdict in the terminal's very words, the figures with their intervals and the map,
    /// which is drawn as the uncertainty.png written at the end.
    @Test(.enabled(if: WebDriver.unavailableReason == nil, Comment(rawValue: WebDriver.unavailableReason ?? "")))
    func thePageShowsTheCalibrationAsItGoes() async throws {
        let replay = try Self.slowedSample(factor: 1)
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer {
            try? FileManager.default.removeItem(atPath: replay)
            try? FileManager.default.removeItem(atPath: scratch)
        }
        let out = scratch + "/picks"
        let run = try MarkerShutterBinary.start(
            ["live", "--replay", replay, "--auto", "--calibrate", "--serve", "127.0.0.1:0", "--wait-for-viewer", "--out", out],
            scratch: scratch)
        defer { if run.process.isRunning { kill(run.process.processIdentifier, SIGKILL) } }
        guard let url = try await run.browserViewAddress() else { return }

        // The session waits for the page: nothing is solved yet.
        let before = try await Self.get("/calibration/uncertainty.png", from: url)
        #expect(before.status == 404)
        let empty = try #require(try JSONSerialization.jsonObject(with: Data(try await Self.get("/state", from: url).body)) as? [String: Any])
        #expect(empty["calibration"] == nil)

        let browser = try await WebDriver()
        var state: [String: Any] = [:]
        var served: PixelBuffer?
        do {
            try await browser.open(url)
            // The replay past its last picture (frame 118 stays until the page stops it), and the
            // newest solve holding every picture taken (each look decides by what it reads).
            let solvedAll = try await poll(for: .seconds(300), every: .milliseconds(200)) { () async throws -> Bool? in
                let running = run.process.isRunning
                state = try #require(try JSONSerialization.jsonObject(with: Data(try await Self.get("/state", from: url).body)) as? [String: Any])
                let calibration = state["calibration"] as? [String: Any]
                if (state["frame"] as? Int ?? 0) >= 118, let calibration,
                   calibration["pictures"] as? Int == (state["pictures"] as? [String: Any])?["taken"] as? Int { return true }
                return running ? nil : false
            }
            guard solvedAll == true else {
                Issue.record("no solve of every picture: \(state)")
                return
            }
            let newest = try #require(state["calibration"] as? [String: Any])
            let mapPath = try #require(newest["map"] as? String)
            try await browser.waitUntil("the page shows the newest solve", """
                const map = document.getElementById("calmap");
                return map.dataset.map === \(String(reflecting: mapPath)) && map.complete && map.naturalWidth > 0;
                """)
            let shown = try #require(try await browser.evaluate("""
                return { verdict: document.getElementById("calverdict").textContent,
                         fx: document.querySelector('#calfigures dd[data-parameter="fx"]').textContent,
                         advice: [...document.querySelectorAll("#caladvice li")].map((li) => li.textContent),
                         map: [document.getElementById("calmap").naturalWidth, document.getElementById("calmap").naturalHeight] };
                """) as? [String: Any])
            let calibration = newest
            #expect(shown["verdict"] as? String == "verdict: " + (calibration["verdict"] as? String ?? "?"))
            let parameters = try #require(calibration["parameters"] as? [[String: Any]])
            #expect(parameters.compactMap { $0["name"] as? String } == ["fx", "fy", "cx", "cy"])
            let fx = try #require(parameters.first)
            let fxValue = try #require(fx["value"] as? Double), fxInterval = try #require(fx["interval95"] as? Double)
            #expect(shown["fx"] as? String == String(format: "%.1f ± %.1f px", fxValue, fxInterval))
            #expect(shown["advice"] as? [String] == calibration["advice"] as? [String])
            #expect((calibration["advice"] as? [String])?.isEmpty == false, "six mid-frame pictures call for advice")
            let map = try await Self.get("/calibration/uncertainty.png", from: url)
            #expect(map.status == 200 && map.headers["content-type"] == "image/png")
            let decoded = try ImageFile.decode(map.body)
            #expect(shown["map"] as? [Int] == [decoded.width, decoded.height])
            served = decoded

            try MarkerShutterBinary.keepArtifact(try await browser.screenshot(), as: "browser-calibration.png")
            try await browser.click(id: "stop")
        } catch {
            await browser.quit()
            throw error
        }
        await browser.quit()
        let result = try run.wait()
        #expect(result.status == 0, "\(result.standardError)")
        let calibration = try #require(state["calibration"] as? [String: Any])
        let verdict = try #require(calibration["verdict"] as? String)
        let views = try #require(calibration["views"] as? Int)
        // The terminal's line for that solve ends in the same verdict.
        #expect(result.standardError.contains("calibration: \(views) views, RMS "), "\(result.standardError)")
        #expect(result.standardError.contains("; verdict: " + verdict + "\n"), "\(verdict) in \(result.standardError)")
        // The map served is drawn as the uncertainty.png written from the same solve.
        let written = try ImageFile.decode(Array(try Data(contentsOf: URL(fileURLWithPath: out + "/calibration/uncertainty.png"))))
        let map = try #require(served)
        #expect((map.width, map.height) == (written.width, written.height))
        #expect(map.withUnsafeBytes { Array($0) } == written.withUnsafeBytes { Array($0) }, "the map served is uncertainty.png's picture")
    }
}
