import BrowserView
import Foundation
import HTTPTestSupport
import MarkerDetection
import Pixels
import Testing

/// `marker-shutter live --preview`: refused without a display before anything is opened, and under
/// Xvfb a window showing the board and the shutter's badge, whose keys take a picture and quit.
@Suite struct LivePreviewCommandTests {
    static let session = MarkerShutterBinary.packageRoot + "/Samples/charuco-session"

    @Test func withoutDisplaySetItSaysSoAndOpensNothing() throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = nil
        let result = try MarkerShutterBinary.run(["live", "--replay", Self.session, "--preview", "--out", "picks"],
                                                 in: scratch, environment: environment)
        #expect(result.status == 1)
        #expect(result.standardError.contains("no display: --preview needs X11 (DISPLAY is not set)"), "\(result.standardError)")
        #expect(!result.standardError.contains("pictures to"), "the session was opened: \(result.standardError)")
        #expect(CalibrateCommandTests.contents(scratch).isEmpty)
    }

    @Test func withADisplayNobodyServesItSaysSoAndOpensNothing() throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        // A display number with no server's socket: the connection is refused at once.
        let number = (4000..<5000).first { !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\($0)") }!
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = ":\(number)"
        let result = try MarkerShutterBinary.run(["live", "--device", "/dev/null", "--preview", "--out", "picks"],
                                                 in: scratch, environment: environment)
        #expect(result.status == 1)
        #expect(result.standardError.contains("no display: --preview needs X11 (cannot connect to the X server at DISPLAY=:\(number))"),
                "\(result.standardError)")
        #expect(CalibrateCommandTests.contents(scratch).isEmpty)
    }

    /// The window under Xvfb: a screenshot holds the board (found again by the package's own
    /// detector) and the green ENABLED badge at the window's top-left corner; Space in the window
    /// takes a picture and `q` quits. Keys go through XTEST, as a keyboard's would.
    @Test(.enabled(if: VirtualDisplay.missing == nil, "\(VirtualDisplay.missing ?? "")"),
          .timeLimit(.minutes(10)))
    func theWindowShowsTheBoardAndTheBadgeAndTakesKeys() throws {
        try Self.withPreview { scratch, display, started in
            // The window, once mapped: no window manager, so its position is where its pixels are.
            let window = try Self.window(on: display, of: started)
            // Frames 0-79 of the sample all show the board, one a second: wait until one is on screen.
            let (screenshot, detection) = try Self.poll("the board in a screenshot", while: started) {
                () throws -> (PixelBuffer, Detection)? in
                let screenshot = try display.screenshot()
                let detection = try MarkerDetector(pattern: Pattern(parsing: "charuco:5x7:DICT_6X6_250")).detect(screenshot)
                return detection.markers.count >= 10 ? (screenshot, detection) : nil
            }
            try MarkerShutterBinary.keepArtifact(Data(ImageFile.encode(screenshot, as: .png)), as: "live-preview-window.png")

            let geometry = String(decoding: try display.run("xdotool", ["getwindowgeometry", "--shell", window]), as: UTF8.self)
            let value = { (key: String) in
                geometry.split(separator: "\n").first { $0.hasPrefix(key + "=") }.flatMap { Int($0.dropFirst(key.count + 1)) }
            }
            let (x, y, width, height) = try #require((value("X"), value("Y"), value("WIDTH"), value("HEIGHT")) as? (Int, Int, Int, Int))
            #expect((width, height) == (640, 480), "the 640x480 frames are shown at their size")
            // The board lies inside the window, and the badge (BGR 0,150,0 while enabled) fills its top-left corner.
            let markerXs = detection.markers.flatMap { $0.corners.map(\.x) }, markerYs = detection.markers.flatMap { $0.corners.map(\.y) }
            #expect(markerXs.allSatisfy { $0 >= Double(x) && $0 < Double(x + width) })
            #expect(markerYs.allSatisfy { $0 >= Double(y) && $0 < Double(y + height) })
            // Its top margin, above the text: 80x5 pixels all badge green.
            let badge = Self.pixels(of: screenshot, in: (x, y, 80, 5)) { b, g, r in b < 20 && (140...160).contains(g) && r < 20 }
            #expect(badge == 80 * 5, "badge green in \(badge) of 400 pixels at the window's top-left corner")

            // Keys to the window: Space takes a picture of the held frame, q ends the session.
            try display.run("xdotool", ["windowfocus", "--sync", window])
            try display.run("xdotool", ["key", "space"])
            _ = try Self.poll("the picture's line on standard output", while: started) {
                let output = try String(contentsOfFile: started.standardOutputPath, encoding: .utf8)
                return output.contains("picks/capture_") ? output : nil
            }
            try display.run("xdotool", ["key", "q"])
            let result = try started.wait()
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardOutput.contains(", request)"), "\(result.standardOutput)")
            #expect(result.standardError.contains("stopped (quit)"), "\(result.standardError)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: scratch + "/picks").contains { $0.hasSuffix(".png") })
        }
    }

    /// `live --preview --calibrate` on the sample session: once a solve is in, a panel under the
    /// 640x480 frames holds the calibration's lines (text on its dark background, the verdict's
    /// colour among them) and the uncertainty map in its right corner (its bands: blue 150, green
    /// and red 150 or more); the terminal prints the same solves.
    @Test(.enabled(if: VirtualDisplay.missing == nil, "\(VirtualDisplay.missing ?? "")"),
          .timeLimit(.minutes(10)))
    func theWindowShowsTheCalibrationAsItGoes() throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let replay = try BrowserPageTests.slowedSample(factor: 1)
        defer { try? FileManager.default.removeItem(atPath: replay) }
        let display = try VirtualDisplay()
        defer { display.stop() }
        let started = try MarkerShutterBinary.start(["live", "--replay", replay, "--auto", "--calibrate", "--preview", "--out", "picks"],
                                                    in: scratch, scratch: scratch, environment: display.environment)
        defer { if started.process.isRunning { started.process.terminate() } }
        let window = try Self.window(on: display, of: started)
        let (screenshot, x, y, height) = try Self.poll("the calibration panel under the frames", while: started) {
            () throws -> (PixelBuffer, Int, Int, Int)? in
            let geometry = String(decoding: try display.run("xdotool", ["getwindowgeometry", "--shell", window]), as: UTF8.self)
            let value = { (key: String) in
                geometry.split(separator: "\n").first { $0.hasPrefix(key + "=") }.flatMap { Int($0.dropFirst(key.count + 1)) }
            }
            guard let x = value("X"), let y = value("Y"), let width = value("WIDTH"), let height = value("HEIGHT"),
                  width == 640, height > 480 + 60 else { return nil }
            let screenshot = try display.screenshot()
            // The map's bands in the panel's right third.
            let bands = Self.pixels(of: screenshot, in: (x + 420, y + 484, 216, height - 488)) { b, g, r in b == 150 && g >= 150 && r >= 150 }
            return bands >= 500 ? (screenshot, x, y, height) : nil
        }
        try MarkerShutterBinary.keepArtifact(Data(ImageFile.encode(screenshot, as: .png)), as: "live-preview-calibration.png")
        // Text on the panel's left: the headline in light gray, and the verdict in its colour
        // (the sample's six mid-frame pictures are not good: red; or not enough to judge: amber).
        let left = (x, y + 480, 400, height - 480)
        let background = Self.pixels(of: screenshot, in: left) { b, g, r in (b, g, r) == (40, 40, 40) }
        #expect(background > 400 * (height - 480) / 2, "the panel's dark background")
        let light = Self.pixels(of: screenshot, in: left) { b, g, r in b > 180 && g > 180 && r > 180 }
        #expect(light > 50, "the headline's text")
        let verdict = Self.pixels(of: screenshot, in: left) { b, g, r in r > 200 && b < 130 && (g < 140 || g > 170) }
        #expect(verdict > 50, "the verdict's text in its colour")
        try display.run("xdotool", ["windowfocus", "--sync", window])
        try display.run("xdotool", ["key", "q"])
        let result = try started.wait()
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("; verdict: not "), "\(result.standardError)")
    }

    /// A solve that ends once the frames have stopped is shown then, not at a next frame that may
    /// never come: the sample's last frame comes an hour after the one before (the shutter enabled
    /// meanwhile); once the newest solve holds every picture `--auto` took, Space takes one more,
    /// and the panel's first line becomes that solve's headline (views and RMS as `/state` tells
    /// them: `--serve`, no page), drawn as the panel draws it.
    @Test(.enabled(if: VirtualDisplay.missing == nil, "\(VirtualDisplay.missing ?? "")"),
          .timeLimit(.minutes(10)))
    func theWindowShowsASolveThatEndsAfterTheLastFrame() async throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let replay = try BrowserPageTests.slowedSample(factor: 1)
        defer { try? FileManager.default.removeItem(atPath: replay) }
        let display = try VirtualDisplay()
        defer { display.stop() }
        let started = try MarkerShutterBinary.start(
            ["live", "--replay", replay, "--auto", "--calibrate", "--preview", "--serve", "127.0.0.1:0", "--out", "picks"],
            in: scratch, scratch: scratch, environment: display.environment)
        defer { if started.process.isRunning { kill(started.process.processIdentifier, SIGKILL) } }
        guard let url = try await started.browserViewAddress() else { return }
        let window = try Self.window(on: display, of: started)
        guard let automatic = try await Self.solveOfEveryPicture(started, url: url) else { return }
        let taken = try #require((automatic["pictures"] as? [String: Any])?["taken"] as? Int)
        try display.run("xdotool", ["windowfocus", "--sync", window])
        try display.run("xdotool", ["key", "space"])
        guard let state = try await Self.solveOfEveryPicture(started, url: url, pictures: (taken + 1)...(taken + 1)) else { return }
        let calibration = try #require(state["calibration"] as? [String: Any])
        let headline = ViewCalibration(views: try #require(calibration["views"] as? Int), rms: try #require(calibration["rms"] as? Double),
                                       kind: "", verdict: "", reasons: [], parameters: [], advice: [], map: nil).headline
        let black = try PixelBuffer(copying: [UInt8](repeating: 0, count: 640 * 480 * 3), width: 640, height: 480, format: .bgr24)
        let expected = try CalibrationPanel.compose(black, lines: [CalibrationPanel.Line(headline)], map: nil)
        // The headline's band (its descenders included, the next line's tops not), left of the map.
        let band = (rows: 480..<502, columns: 0..<400)

        var screenshot: PixelBuffer?
        var differing = -1
        let shown = try await HTTPTestSupport.poll(for: .seconds(120), every: .milliseconds(200)) { () async throws -> Bool? in
            let geometry = String(decoding: try display.run("xdotool", ["getwindowgeometry", "--shell", window]), as: UTF8.self)
            let value = { (key: String) in
                geometry.split(separator: "\n").first { $0.hasPrefix(key + "=") }.flatMap { Int($0.dropFirst(key.count + 1)) }
            }
            guard let x = value("X"), let y = value("Y"), value("WIDTH") == 640, let height = value("HEIGHT"), height > band.rows.upperBound
            else { return nil }
            let image = try display.screenshot()
            screenshot = image
            guard x >= 0, y >= 0, x + 640 <= image.width, y + height <= image.height else {
                throw VirtualDisplayError(reason: "the window at \(x),\(y) is not wholly on the \(image.width)x\(image.height) screen")
            }
            differing = 0
            for row in band.rows {
                let drawn = image.row(y + row), wanted = expected.row(row)
                for column in band.columns.lowerBound * 3..<band.columns.upperBound * 3 where drawn[3 * x + column] != wanted[column] {
                    differing += 1
                }
            }
            return differing == 0 ? true : nil
        }
        if let screenshot {
            try MarkerShutterBinary.keepArtifact(Data(ImageFile.encode(screenshot, as: .png)), as: "live-preview-late-solve.png")
        }
        #expect(shown == true, "the panel never showed \(headline) (\(differing) bytes differ in the last look)")
        try display.run("xdotool", ["key", "q"])
        let result = try started.wait()
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").contains { $0.hasPrefix(headline + ", fx ") },
                "the terminal's line for that solve: \(result.standardError)")
    }

    /// `/state` once the replay of the slowed sample is at frame 118 (the last before its hour), the
    /// pictures taken are as many as `pictures` allows and the newest solve holds every one of them;
    /// asked every 200 ms (each look decides by what it reads). `nil`, with the issue recorded, when
    /// the program ends first or no look begun within five minutes finds it.
    static func solveOfEveryPicture(_ run: MarkerShutterBinary.Started, url: String,
                                    pictures: ClosedRange<Int> = 1...Int.max) async throws -> [String: Any]? {
        var state: [String: Any] = [:]
        let solved = try await HTTPTestSupport.poll(for: .seconds(300), every: .milliseconds(200)) { () async throws -> Bool? in
            let running = run.process.isRunning
            state = try #require(try JSONSerialization.jsonObject(with: Data(try await BrowserPageTests.get("/state", from: url).body))
                                 as? [String: Any])
            let taken = (state["pictures"] as? [String: Any])?["taken"] as? Int
            if (state["frame"] as? Int ?? 0) >= 118, let taken, pictures.contains(taken),
               (state["calibration"] as? [String: Any])?["pictures"] as? Int == taken { return true }
            return running ? nil : false
        }
        guard solved == true else {
            Issue.record("no solve of every picture: \(state)")
            return nil
        }
        return state
    }

    /// Closing the window, as a window manager's close button would, ends the session like `q`.
    @Test(.enabled(if: VirtualDisplay.missing == nil, "\(VirtualDisplay.missing ?? "")"),
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "python3 (sends the close message) is missing"),
          .timeLimit(.minutes(10)))
    func closingTheWindowStopsTheSession() throws {
        try Self.withPreview { _, display, started in
            let window = try Self.window(on: display, of: started)
            try display.close(window: window)
            let result = try started.wait()
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardError.contains("stopped (preview window closed)"), "\(result.standardError)")
        }
    }

    /// Runs `live --preview` on its own Xvfb over ``slowReplay(in:)``, in a scratch folder, for
    /// `body`; the program, the server and the folder are gone afterwards.
    static func withPreview(_ body: (String, VirtualDisplay, MarkerShutterBinary.Started) throws -> Void) throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let frames = try slowReplay(in: scratch)
        let display = try VirtualDisplay()
        defer { display.stop() }
        let started = try MarkerShutterBinary.start(["live", "--replay", frames, "--fps", "1", "--preview", "--out", "picks"],
                                                    in: scratch, scratch: scratch, environment: display.environment)
        defer { if started.process.isRunning { started.process.terminate() } }
        try body(scratch, display, started)
    }

    /// The id of `started`'s window once it is mapped.
    static func window(on display: VirtualDisplay, of started: MarkerShutterBinary.Started) throws -> String {
        try poll("the window to appear", while: started) {
            let found = try? display.run("xdotool", ["search", "--onlyvisible", "--name", "marker-shutter live"])
            return found.flatMap { String(decoding: $0, as: UTF8.self).split(separator: "\n").first.map(String.init) }
        }
    }

    /// A replay folder without a manifest (so `--fps` sets its pace) holding the sample's frames
    /// 0-79, where the board is in view, twice over: at one frame a second, minutes of the board.
    static func slowReplay(in scratch: String) throws -> String {
        let folder = scratch + "/frames"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for index in 0..<160 {
            try FileManager.default.createSymbolicLink(
                atPath: folder + String(format: "/frame_%06d.jpg", index),
                withDestinationPath: session + String(format: "/frame_%06d.jpg", index % 80))
        }
        return folder
    }

    /// Asks `check` again and again until it has an answer; fails when the program ends first or
    /// after two minutes (a machine too busy for that is reported, not waited for).
    static func poll<T>(_ what: String, while started: MarkerShutterBinary.Started, _ check: () throws -> T?) throws -> T {
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            if let answer = try check() { return answer }
            guard started.process.isRunning else {
                let errors = (try? String(contentsOfFile: started.standardErrorPath, encoding: .utf8)) ?? ""
                throw VirtualDisplayError(reason: "marker-shutter ended while waiting for \(what): \(errors)")
            }
            Thread.sleep(forTimeInterval: 0.2)  // between looks only; each look decides by what it sees
        }
        throw VirtualDisplayError(reason: "no \(what) within two minutes")
    }

    /// How many pixels of the rectangle `(x, y, width, height)` satisfy `test(b, g, r)`.
    static func pixels(of image: PixelBuffer, in rectangle: (x: Int, y: Int, width: Int, height: Int),
                       where test: (UInt8, UInt8, UInt8) -> Bool) -> Int {
        (rectangle.y..<rectangle.y + rectangle.height).reduce(0) { count, row in
            let bytes = image.row(row)
            return count + (rectangle.x..<rectangle.x + rectangle.width).filter { column in
                test(bytes[3 * column], bytes[3 * column + 1], bytes[3 * column + 2])
            }.count
        }
    }
}
