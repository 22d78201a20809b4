import Foundation
import Testing

/// `live --replay` of a rig's recording with `--serve` (the page in a real headless Chromium) and
/// with `--preview` (the window under Xvfb): the cameras side by side with their badges, the rig's
/// state above them, a set taken from the page's button or the window's Space, and the run ended
/// from there. Every step waits for what it needs; the time limits only turn a page or a window
/// that never gets there into a failure.
@Suite(.timeLimit(.minutes(10))) struct LiveRigViewCommandTests {
    static let pattern = "charuco:5x7:DICT_6X6_250"

    /// A rig's recording of two cameras, `left` and `right`, each showing the sample's frame 10
    /// (the board in view) `count` times at 5 fps, right's frames 4 ms after left's; the last pair
    /// an hour later, so that the replay still runs when the test ends it, however slow the machine.
    static func stillRig(frames count: Int = 150) throws -> String {
        let folder = try MarkerShutterBinary.temporaryFolder("still-rig")
        let frame = MarkerShutterBinary.packageRoot + "/Samples/charuco-session/frame_000010.jpg"
        try "{\"cameras\":[{\"name\":\"left\",\"fps\":5},{\"name\":\"right\",\"fps\":5}]}\n"
            .write(toFile: folder + "/cameras.json", atomically: true, encoding: .utf8)
        var manifest = ""
        for camera in ["left", "right"] {
            try FileManager.default.createDirectory(atPath: folder + "/" + camera, withIntermediateDirectories: true)
        }
        for index in 0..<count {
            let file = String(format: "frame_%06d.jpg", index)
            let base = 10 + Double(index) * 0.2 + (index == count - 1 ? 3600 : 0)
            for (camera, offset) in [("left", 0.0), ("right", 0.004)] {
                try FileManager.default.copyItem(atPath: frame, toPath: folder + "/\(camera)/" + file)
                manifest += String(format: "{\"camera\":\"%@\",\"file\":\"%@\",\"t\":%.6f,\"sequence\":%d}\n", camera, file,
                                   base + offset, index)
            }
        }
        try manifest.write(toFile: folder + "/manifest.jsonl", atomically: true, encoding: .utf8)
        return folder
    }

    @Test(.enabled(if: WebDriver.unavailableReason == nil, Comment(rawValue: WebDriver.unavailableReason ?? "")))
    func thePageShowsTheRigTakesASetAndStopsIt() async throws {
        let replay = try Self.stillRig()
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer {
            try? FileManager.default.removeItem(atPath: replay)
            try? FileManager.default.removeItem(atPath: scratch)
        }
        let out = scratch + "/picks"
        let run = try MarkerShutterBinary.start(
            ["live", "--pattern", Self.pattern, "--replay", replay, "--serve", "127.0.0.1:0", "--wait-for-viewer", "--out", out],
            scratch: scratch)
        // SIGKILL: children of the test runner inherit its blocked signals.
        defer { if run.process.isRunning { kill(run.process.processIdentifier, SIGKILL) } }

        guard let url = try await run.browserViewAddress() else { return }

        let browser = try await WebDriver()
        do {
            try await browser.open(url)
            // The rig's state and its words read together, with each camera's.
            try await browser.waitUntil("the rig enabled, both cameras valid", """
                const badge = document.getElementById("rigbadge");
                const cameras = [...document.querySelectorAll("#cameras li")].map((li) => li.textContent);
                return badge.className === "enabled" && badge.textContent === "ENABLED: frames 4.0 ms apart"
                    && cameras.join("|") === "left: VALID|right: VALID";
                """)
            #expect(try await browser.evaluate(#"return document.getElementById("capture").textContent;"#) as? String == "Take set")
            #expect(try await browser.evaluate(#"return getComputedStyle(document.getElementById("badge")).display;"#) as? String == "none",
                    "the one camera's badge gives way to the rig's")
            try await browser.waitUntil("the cameras side by side",
                                        #"const v = document.getElementById("view"); return v.naturalWidth === 1280 && v.naturalHeight === 480;"#)

            // "Take set"; a click that lands while the rig is not enabled is refused with the reason
            // and tried again.
            for _ in 0..<5 {
                try await browser.click(id: "capture")
                try await browser.waitUntil("the click is answered", """
                    const m = document.getElementById("message").textContent;
                    return document.querySelectorAll("#sets li").length > 0 || (m !== "" && m !== "taking a set");
                    """)
                if try await browser.evaluate(##"return document.querySelectorAll("#sets li").length;"##) as? Int ?? 0 > 0 { break }
                try await browser.waitUntil("the rig enabled again", #"return document.getElementById("rigbadge").className === "enabled";"#)
            }
            #expect(try await browser.evaluate(##"return document.querySelector("#sets li").textContent;"##) as? String
                    == "set_0001.json (left/set_0001.png, right/set_0001.png; 4.0 ms apart, request)")
            #expect(try await browser.evaluate(#"return document.getElementById("pictures").textContent;"#) as? String == "1 set")

            let png = try await browser.screenshot()
            let artifacts = MarkerShutterBinary.packageRoot + "/.build/test-artifacts"
            try FileManager.default.createDirectory(atPath: artifacts, withIntermediateDirectories: true)
            try png.write(to: URL(fileURLWithPath: artifacts + "/browser-view-rig.png"))

            try await browser.click(id: "stop")
        } catch {
            await browser.quit()
            throw error
        }
        await browser.quit()
        let result = try run.wait()
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("stopped: stopped from the browser view"), "\(result.standardError)")
        #expect(result.standardOutput.hasPrefix(out + "/set_0001.json ("), "\(result.standardOutput)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == ["left", "right", "set_0001.json"])
    }

    /// The window under Xvfb: the two 640x480 cameras side by side under the rig's band (1280x520,
    /// shrunk to fit nine tenths of the 1280x1024 screen: 1152x468), the rig's badge green in its
    /// top-left corner while enabled; Space takes a set and `q` quits.
    @Test(.enabled(if: VirtualDisplay.missing == nil, "\(VirtualDisplay.missing ?? "")"))
    func theWindowShowsTheRigAndTakesASet() throws {
        let replay = try Self.stillRig()
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer {
            try? FileManager.default.removeItem(atPath: replay)
            try? FileManager.default.removeItem(atPath: scratch)
        }
        let display = try VirtualDisplay()
        defer { display.stop() }
        let started = try MarkerShutterBinary.start(["live", "--pattern", Self.pattern, "--replay", replay, "--preview", "--out", "picks"],
                                                    in: scratch, scratch: scratch, environment: display.environment)
        defer { if started.process.isRunning { started.process.terminate() } }
        let window = try LivePreviewCommandTests.window(on: display, of: started)

        let geometry = try LivePreviewCommandTests.poll("the window at the picture's size", while: started) { () -> (Int, Int, Int, Int)? in
            let text = String(decoding: try display.run("xdotool", ["getwindowgeometry", "--shell", window]), as: UTF8.self)
            let value = { (key: String) in
                text.split(separator: "\n").first { $0.hasPrefix(key + "=") }.flatMap { Int($0.dropFirst(key.count + 1)) }
            }
            guard let x = value("X"), let y = value("Y"), let width = value("WIDTH"), let height = value("HEIGHT"),
                  (width, height) == (1152, 468) else { return nil }
            return (x, y, width, height)
        }
        // The rig's badge (BGR 0,150,0 while enabled) fills the band's top-left corner.
        let greenBadge = try LivePreviewCommandTests.poll("the rig's badge green", while: started) { () -> Int? in
            let screenshot = try display.screenshot()
            let green = LivePreviewCommandTests.pixels(of: screenshot, in: (geometry.0, geometry.1, 60, 3)) { b, g, r in
                b < 30 && (130...170).contains(g) && r < 30
            }
            return green == 60 * 3 ? green : nil
        }
        #expect(greenBadge == 180)

        try display.run("xdotool", ["windowfocus", "--sync", window])
        // A key that lands while the rig is not enabled is refused (a line says why): try again.
        for attempt in 1...5 {
            try display.run("xdotool", ["key", "space"])
            let answered = try LivePreviewCommandTests.poll("the set's line, or its refusal", while: started) { () -> String? in
                let output = try String(contentsOfFile: started.standardOutputPath, encoding: .utf8)
                let errors = try String(contentsOfFile: started.standardErrorPath, encoding: .utf8)
                if output.contains("picks/set_0001.json") { return "saved" }
                return errors.components(separatedBy: "no set taken: ").count - 1 >= attempt ? "refused" : nil
            }
            if answered == "saved" { break }
        }
        try display.run("xdotool", ["key", "q"])
        let result = try started.wait()
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.hasPrefix("picks/set_0001.json ("), "\(result.standardOutput)")
        #expect(result.standardError.contains("stopped: quit"), "\(result.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch + "/picks").sorted() == ["left", "right", "set_0001.json"])
    }
}
