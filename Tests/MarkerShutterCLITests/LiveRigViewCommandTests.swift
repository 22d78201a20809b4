import BrowserView
import Foundation
import HTTPTestSupport
import MarkerDetection
import Pixels
import Testing

/// `live --replay` of a rig's recording with `--serve` (the page in a real headless Chromium) and
/// with `--preview` (the window under Xvfb): the cameras side by side with their badges, the rig's
/// state above them, a set taken from the page's button or the window's Space, and the run ended
/// from there; with `--calibrate`, the rig's solves in the page's panel and in the window's.
/// Every step waits for what it needs; the time limits only turn a page or a window
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

    /// OpenCV's stereo sample (Samples/stereo-pair: OpenCV 4.6's samples/data left01.jpg ...
    /// right14.jpg, a 9x6 chessboard seen by two 640x480 cameras, 13 pairs) as a rig's recording:
    /// each pair held still for `framesPerPair` frames at 5 fps, right's frames 4 ms after left's,
    /// and the last pair once more an hour later, so that the replay still runs when the test ends
    /// it, however slow the machine. Returns the folder and the index of each camera's last frame
    /// before the hour.
    static func stereoRig(framesPerPair: Int = 5) throws -> (folder: String, lastBeforeGap: Int) {
        let folder = try MarkerShutterBinary.temporaryFolder("stereo-rig")
        let sample = MarkerShutterBinary.packageRoot + "/Samples/stereo-pair"
        try "{\"cameras\":[{\"name\":\"left\",\"fps\":5},{\"name\":\"right\",\"fps\":5}]}\n"
            .write(toFile: folder + "/cameras.json", atomically: true, encoding: .utf8)
        for camera in ["left", "right"] {
            try FileManager.default.createDirectory(atPath: folder + "/" + camera, withIntermediateDirectories: true)
        }
        let pairs = RigCalibrateCommandTests.numbers.flatMap { Array(repeating: $0, count: framesPerPair) }
            + [RigCalibrateCommandTests.numbers.last!]
        var manifest = ""
        for (index, pair) in pairs.enumerated() {
            let file = String(format: "frame_%06d.jpg", index)
            let base = 10 + Double(index) * 0.2 + (index == pairs.count - 1 ? 3600 : 0)
            for (camera, offset) in [("left", 0.0), ("right", 0.004)] {
                try FileManager.default.copyItem(atPath: "\(sample)/\(camera)/\(pair).jpg", toPath: folder + "/\(camera)/" + file)
                manifest += String(format: "{\"camera\":\"%@\",\"file\":\"%@\",\"t\":%.6f,\"sequence\":%d}\n", camera, file,
                                   base + offset, index)
            }
        }
        try manifest.write(toFile: folder + "/manifest.jsonl", atomically: true, encoding: .utf8)
        return (folder, pairs.count - 2)
    }

    /// One number after `prefix` in the line of `lines` that starts with it (up to the next space).
    static func number(after prefix: String, in lines: some Collection<String>) -> Double? {
        lines.first { $0.hasPrefix(prefix) }.flatMap { Double($0.dropFirst(prefix.count).prefix { $0 != " " }) }
    }

    /// `/state` once both cameras of `run` are at their frame `lastFrame` (the last before the
    /// recording's hour), the sets saved are as many as `sets` allows and the newest solve holds
    /// every one of them; asked every 200 ms (each look decides by what it reads). `nil`, with the
    /// issue recorded, when the program ends first or no look begun within five minutes finds it.
    static func solveOfEverySet(_ run: MarkerShutterBinary.Started, url: String, lastFrame: Int,
                                sets: ClosedRange<Int> = 1...Int.max) async throws -> [String: Any]? {
        var state: [String: Any] = [:]
        let solvedAll = try await poll(for: .seconds(300), every: .milliseconds(200)) { () async throws -> Bool? in
            let running = run.process.isRunning
            state = try #require(try JSONSerialization.jsonObject(with: Data(try await BrowserPageTests.get("/state", from: url).body))
                                 as? [String: Any])
            let rig = state["rig"] as? [String: Any]
            let frames = (rig?["cameras"] as? [[String: Any]])?.compactMap { $0["frame"] as? Int } ?? []
            let taken = (rig?["sets"] as? [String: Any])?["taken"] as? Int
            let summary = (state["calibration"] as? [String: Any])?["summary"] as? [String] ?? []
            let solved = summary.first { $0.hasPrefix("rig: 2 cameras, ") }
                .flatMap { $0.firstMatch(of: #/^rig: 2 cameras, ([0-9]+) sets used, ([0-9]+) dropped /#) }
                .map { Int($0.1)! + Int($0.2)! }
            if frames == [lastFrame, lastFrame], let taken, sets.contains(taken), solved == taken { return true }
            return running ? nil : false
        }
        guard solvedAll == true else {
            Issue.record("no solve of every set: \(state)")
            return nil
        }
        return state
    }

    /// `live --replay` of a rig's recording with `--auto --calibrate --serve`: the rig is solved in
    /// the background as its sets are saved; the page's calibration panel shows the newest solve's
    /// summary lines exactly as `/state` carries them, the terminal prints the same lines for that
    /// solve (and its one line as it ended), and the files written at the end into
    /// `--calibration-out` hold the numbers the page showed (rig.yaml read with cv2.FileStorage).
    @Test(.enabled(if: WebDriver.unavailableReason == nil, Comment(rawValue: WebDriver.unavailableReason ?? "")),
          .enabled(if: Self.pythonHasOpenCV, "/usr/bin/python3 with cv2 (Debian's python3-opencv) is not installed"))
    func thePageShowsTheRigsCalibrationAsItGoes() async throws {
        let (replay, lastBeforeGap) = try Self.stereoRig()
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer {
            try? FileManager.default.removeItem(atPath: replay)
            try? FileManager.default.removeItem(atPath: scratch)
        }
        let out = scratch + "/sets", calibrationOut = scratch + "/calibration"
        let run = try MarkerShutterBinary.start(
            ["live", "--pattern", "chessboard:9x6", "--replay", replay, "--auto", "--calibrate", "--calibration-out", calibrationOut,
             "--serve", "127.0.0.1:0", "--wait-for-viewer", "--out", out],
            scratch: scratch)
        defer { if run.process.isRunning { kill(run.process.processIdentifier, SIGKILL) } }
        guard let url = try await run.browserViewAddress() else { return }

        // The session waits for the page: nothing is solved yet.
        let empty = try #require(try JSONSerialization.jsonObject(with: Data(try await BrowserPageTests.get("/state", from: url).body))
                                 as? [String: Any])
        #expect(empty["calibration"] == nil)

        let browser = try await WebDriver()
        var shown: [String] = []
        do {
            try await browser.open(url)
            guard let state = try await Self.solveOfEverySet(run, url: url, lastFrame: lastBeforeGap) else {
                await browser.quit()
                return
            }
            let calibration = try #require(state["calibration"] as? [String: Any])
            let summary = try #require(calibration["summary"] as? [String])
            #expect(calibration["error"] == nil, "\(calibration)")
            #expect(calibration["verdict"] == nil && calibration["parameters"] == nil, "a rig's solve is its summary: \(calibration)")
            let expected = String(decoding: try JSONSerialization.data(withJSONObject: summary), as: UTF8.self)
            try await browser.waitUntil("the page shows the newest solve", """
                const panel = document.getElementById("calsummary");
                return !document.getElementById("calibration").hidden && !panel.hidden
                    && panel.textContent === \(expected).join("\\n");
                """)
            let page = try #require(try await browser.evaluate("""
                return { summary: document.getElementById("calsummary").textContent,
                         verdict: document.getElementById("calverdict").textContent,
                         figures: document.querySelectorAll("#calfigures dd").length,
                         map: document.getElementById("calmap").hidden };
                """) as? [String: Any])
            shown = (page["summary"] as? String ?? "").components(separatedBy: "\n")
            #expect(shown == summary)
            #expect(page["verdict"] as? String == "" && page["figures"] as? Int == 0 && page["map"] as? Bool == true,
                    "no one camera's verdict, figures or map for a rig: \(page)")
            #expect(shown.contains("camera left, on its own:") && shown.contains("camera right, on its own:"), "\(shown)")

            try MarkerShutterBinary.keepArtifact(try await browser.screenshot(), as: "browser-rig-calibration.png")
            try await browser.click(id: "stop")
        } catch {
            await browser.quit()
            throw error
        }
        await browser.quit()
        let result = try run.wait()
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("stopped: stopped from the browser view"), "\(result.standardError)")

        // The terminal's summary at the end is the page's, line for line.
        let lines = result.standardError.components(separatedBy: "\n")
        let start = try #require(lines.firstIndex(of: shown[0]), "\(result.standardError)")
        #expect(Array(lines[start..<min(lines.count, start + shown.count)]) == shown, "\(result.standardError)")
        // The solve's own line, as it ended, says what the joint solve's lines say (each camera's
        // own summary, with its own RMS, comes before them).
        let joint = shown.drop { !$0.hasPrefix("rig: ") }
        let used = try #require(joint.first?.firstMatch(of: #/^rig: 2 cameras, ([0-9]+) sets used/#).map { String($0.1) }, "\(shown)")
        let rms = try #require(joint.first { $0.hasPrefix("  RMS reprojection error: ") }?
            .firstMatch(of: #/error: ([0-9.]+) px/#).map { String($0.1) })
        let placed = try #require(joint.first { $0.hasPrefix("  right from left: baseline ") }?
            .firstMatch(of: #/baseline ([^ ]+ ± [^ ]+) /#).map { String($0.1) })
        #expect(lines.contains("rig calibration: \(used) sets, RMS \(rms) px; right from left: baseline \(placed)"),
                "\(used) sets, RMS \(rms), baseline \(placed) in \(result.standardError)")

        // The files, on standard output, hold the numbers the page showed.
        for file in ["rig.yaml", "rig.json", "camera_info/left.yaml", "camera_info/right.yaml", "mrcal/left.cameramodel",
                     "mrcal/right.cameramodel", "left-alone/calibration.yaml", "right-alone/calibration.yaml"] {
            #expect(result.standardOutput.contains(calibrationOut + "/" + file + "\n"), "\(file) in \(result.standardOutput)")
        }
        let read = try Self.python("""
            import cv2, json, sys
            fs = cv2.FileStorage(sys.argv[1], cv2.FILE_STORAGE_READ)
            m1, m2, t = fs.getNode("M1").mat(), fs.getNode("M2").mat(), fs.getNode("T").mat()
            print(json.dumps({"left": [m1[0, 0], m1[1, 1], m1[0, 2], m1[1, 2]], "right": [m2[0, 0], m2[1, 1], m2[0, 2], m2[1, 2]],
                              "baseline": float(cv2.norm(t))}))
            """, [calibrationOut + "/rig.yaml"])
        let written = try #require(try JSONSerialization.jsonObject(with: Data(read.utf8)) as? [String: Any])
        for camera in ["left", "right"] {
            // The camera's joint-solve lines: `  left: RMS ...` then `    fx = 532.80 ± 1.23 px (95%...`.
            let at = try #require(joint.firstIndex { $0.hasPrefix("  \(camera): RMS ") }, "\(shown)")
            let values = try #require(written[camera] as? [Double])
            for (name, value) in zip(["fx", "fy", "cx", "cy"], values) {
                let page = try #require(Self.number(after: "    \(name) = ", in: joint[at...]), "\(name) of \(camera) in \(shown)")
                #expect(abs(page - value) <= 0.005 + 1e-9, "\(camera) \(name): page \(page), rig.yaml \(value)")
            }
        }
        let baseline = try #require(Double(placed.prefix { $0 != " " }))
        let writtenBaseline = try #require(written["baseline"] as? Double)
        #expect(abs(baseline - writtenBaseline) <= 5e-5 * writtenBaseline, "baseline: page \(baseline), rig.yaml \(writtenBaseline)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: calibrationOut + "/rig.json")))
                                as? [String: Any])
        #expect((json["sets"] as? [Any])?.count == Int(used), "rig.json's sets")
        #expect((json["rms"] as? Double).map { String(format: "%.3f", $0) } == rms, "rig.json's rms")
        // The sets fill --out; nothing of the calibration lands among them.
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).allSatisfy { $0 == "left" || $0 == "right" || $0.hasSuffix(".json") })
    }

    /// Whether /usr/bin/python3 imports cv2.
    static let pythonHasOpenCV: Bool = (try? python("import cv2", [])) != nil

    /// Runs `script` with `arguments` in /usr/bin/python3; returns its standard output, or throws with its standard error.
    static func python(_ script: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script] + arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw PythonFailure(description: "python3: \(errorText)") }
        return String(decoding: data, as: UTF8.self)
    }

    /// What /usr/bin/python3 said when it failed.
    struct PythonFailure: Error, CustomStringConvertible {
        let description: String
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

            try MarkerShutterBinary.keepArtifact(try await browser.screenshot(), as: "browser-view-rig.png")

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

    /// The window under Xvfb with `--calibrate` (a 1600x1200 screen, so that the two 640x480
    /// cameras under the rig's band, 1280x520, and the panel under them are shown at their own
    /// size): once the replay is at its last frame before the hour and the rig solved from every
    /// set, Space takes one more set, and the panel shows that solve, which ended after the rig's
    /// last frame: the joint solve's summary from `rig:` on, eight lines, drawn as those lines are
    /// drawn (CalibrationPanel); the terminal prints the same lines at the end. `/state`
    /// (`--serve`, no page) says when each solve is in.
    @Test(.enabled(if: VirtualDisplay.missing == nil, "\(VirtualDisplay.missing ?? "")"))
    func theWindowShowsTheRigsCalibrationAsItGoes() async throws {
        let (replay, lastBeforeGap) = try Self.stereoRig()
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer {
            try? FileManager.default.removeItem(atPath: replay)
            try? FileManager.default.removeItem(atPath: scratch)
        }
        let display = try VirtualDisplay(width: 1600, height: 1200)
        defer { display.stop() }
        let started = try MarkerShutterBinary.start(
            ["live", "--pattern", "chessboard:9x6", "--replay", replay, "--auto", "--calibrate", "--calibration-out", "calibration",
             "--preview", "--serve", "127.0.0.1:0", "--out", "sets"],
            in: scratch, scratch: scratch, environment: display.environment)
        defer { if started.process.isRunning { kill(started.process.processIdentifier, SIGKILL) } }
        guard let url = try await started.browserViewAddress() else { return }
        let window = try LivePreviewCommandTests.window(on: display, of: started)
        guard let automatic = try await Self.solveOfEverySet(started, url: url, lastFrame: lastBeforeGap) else { return }
        let taken = try #require(((automatic["rig"] as? [String: Any])?["sets"] as? [String: Any])?["taken"] as? Int)
        // No frame comes for an hour: the set taken now is solved while the window gets none.
        try display.run("xdotool", ["windowfocus", "--sync", window])
        try display.run("xdotool", ["key", "space"])
        guard let state = try await Self.solveOfEverySet(started, url: url, lastFrame: lastBeforeGap, sets: (taken + 1)...(taken + 1)) else {
            return
        }
        let summary = try #require((state["calibration"] as? [String: Any])?["summary"] as? [String])
        let lines = Array(summary.drop { !$0.hasPrefix("rig:") }.prefix(8))
        #expect(lines.count == 8 && lines[0].hasPrefix("rig: 2 cameras, \(taken + 1) sets used, "), "\(summary)")
        // The rig's picture (1280x520) with the panel of those lines under it.
        let black = try PixelBuffer(copying: [UInt8](repeating: 0, count: 1280 * 520 * 3), width: 1280, height: 520, format: .bgr24)
        let expected = try CalibrationPanel.compose(black, lines: lines.map { CalibrationPanel.Line($0) }, map: nil)
        #expect((expected.width, expected.height) == (1280, 520 + 8 * 18 + 10))

        var screenshot: PixelBuffer?
        var differing = -1
        let shown = try await poll(for: .seconds(120), every: .milliseconds(200)) { () async throws -> Bool? in
            let geometry = String(decoding: try display.run("xdotool", ["getwindowgeometry", "--shell", window]), as: UTF8.self)
            let value = { (key: String) in
                geometry.split(separator: "\n").first { $0.hasPrefix(key + "=") }.flatMap { Int($0.dropFirst(key.count + 1)) }
            }
            guard let x = value("X"), let y = value("Y"), value("WIDTH") == expected.width, value("HEIGHT") == expected.height else {
                return nil
            }
            let image = try display.screenshot()
            screenshot = image
            guard x >= 0, y >= 0, x + expected.width <= image.width, y + expected.height <= image.height else {
                throw VirtualDisplayError(reason: "the window at \(x),\(y) is not wholly on the \(image.width)x\(image.height) screen")
            }
            differing = 0
            for row in 520..<expected.height {
                let drawn = image.row(y + row), wanted = expected.row(row)
                for column in 0..<expected.width * 3 where drawn[3 * x + column] != wanted[column] { differing += 1 }
            }
            return differing == 0 ? true : nil
        }
        if let screenshot {
            try MarkerShutterBinary.keepArtifact(Data(ImageFile.encode(screenshot, as: .png)), as: "live-preview-rig-calibration.png")
        }
        #expect(shown == true, "the window's panel never showed the solve's lines (\(differing) bytes differ in the last look)")

        try display.run("xdotool", ["key", "q"])
        let result = try started.wait()
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("stopped: quit"), "\(result.standardError)")
        let requested = result.standardOutput.split(separator: "\n").first { $0.hasPrefix(String(format: "sets/set_%04d.json (", taken + 1)) }
        #expect(requested?.hasSuffix(", request)") == true, "the set Space took: \(result.standardOutput)")
        // The terminal's summary at the end is the one the window showed from.
        let printed = result.standardError.components(separatedBy: "\n")
        let start = try #require(printed.firstIndex(of: summary[0]), "\(result.standardError)")
        #expect(Array(printed[start..<min(printed.count, start + summary.count)]) == summary, "\(result.standardError)")
        #expect(FileManager.default.fileExists(atPath: scratch + "/calibration/rig.yaml"))
    }
}
