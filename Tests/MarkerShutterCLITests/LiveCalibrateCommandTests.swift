import Foundation
import Testing

/// `marker-shutter live --calibrate` end to end on the sample session: the pictures `--auto` takes,
/// solved as they come, and `calibrate`'s files at the end.
@Suite struct LiveCalibrateCommandTests {
    static let session = MarkerShutterBinary.packageRoot + "/Samples/charuco-session"
    static let files = [
        "calibration.yaml", "camera_info.yaml", "calibration.json", "coverage.png", "residuals.png", "uncertainty.png", "calibration.cameramodel",
    ]

    /// How many frames a replay skipped while detection was busy, from its summary.
    static func skippedFrames(_ standardError: String) -> Int? {
        guard let match = standardError.firstMatch(of: /, ([0-9]+) skipped while detection was busy/) else { return nil }
        return Int(match.1)
    }

    /// A replay runs at the recording's pace: on an idle machine every frame is detected and `--auto`
    /// takes the six pictures the sample gives; a machine too busy to detect every frame takes those
    /// its detected frames allow, and every count that follows must agree with that number.
    @Test func theSampleSessionIsCalibratedIntoThePictureFolder() throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let arguments = ["live", "--replay", Self.session, "--auto", "--calibrate", "--out", "picks"]
        let result = try MarkerShutterBinary.run(arguments, in: scratch)
        #expect(result.status == 0, "\(result.standardError)")
        let errors = result.standardError
        let skipped = try #require(Self.skippedFrames(errors), "\(errors)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        let pictures = lines.filter { $0.hasPrefix("picks/capture_") }
        if skipped == 0 {
            #expect(pictures.count == 6, "\(lines)")
        } else {
            print("\(skipped) frames skipped while detection was busy: \(pictures.count) pictures taken")
            #expect((3...6).contains(pictures.count), "\(lines)")
        }
        #expect(lines.count == pictures.count + Self.files.count, "\(lines)")
        #expect(lines.prefix(pictures.count).allSatisfy { $0.hasPrefix("picks/capture_000") && $0.hasSuffix(", auto)") })
        #expect(Array(lines.suffix(Self.files.count)) == Self.files.map { "picks/calibration/" + $0 })
        #expect(CalibrateCommandTests.contents(scratch + "/picks/calibration") == Self.files.sorted())
        #expect(errors.contains("calibration to picks/calibration (good: corners over 50% of the image, projection uncertainty "
            + "under 1 px over 90% of it, consistent halves, RMS under 0.5 px, focal lengths within 1%)"))
        // Each solve ends with calibrate's verdict; six mid-frame pictures are never good.
        #expect(errors.contains("; verdict: not good: "), "\(errors)")
        #expect(!errors.contains("; verdict: good"), "\(errors)")
        #expect(errors.contains("\ncalibration: \(pictures.count) views, RMS "), "\(errors)")
        #expect(errors.contains("\n  calibration written to picks/calibration\n"))
        // The sample's board stays in the middle: the uncertainty map is weak at a corner, and the
        // summary says where to capture more, as calibration.json's advice does.
        let advice = try #require(errors.split(separator: "\n").last.map(String.init))
        #expect(advice.hasPrefix("  advice: the projection uncertainty "), "\(errors)")
        #expect(advice.contains(" corner: capture more near the "), "\(advice)")
        let json = try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: scratch + "/picks/calibration/calibration.json"))) as? [String: Any]
        #expect(json?["pattern"] as? String == "charuco:5x7:DICT_6X6_250")
        #expect(((json?["first_run"] as? [String: Any])?["views"] as? [Any])?.count == pictures.count)
        #expect((json?["advice"] as? [String])?.last == String(advice.dropFirst("  advice: ".count)))

        // A second session would mix its calibration with the first's: refused before anything starts.
        let again = try MarkerShutterBinary.run(arguments, in: scratch)
        #expect(again.status == 1)
        #expect(again.standardError.contains("picks/calibration is not empty"), "\(again.standardError)")
        #expect(CalibrateCommandTests.contents(scratch + "/picks").count == 2 * pictures.count + 1)
        // With --force it replaces the files; a looser focal limit is the one each verdict applies
        // (six mid-frame pictures still cover too little of the image to be good).
        let forced = try MarkerShutterBinary.run(arguments + ["--force", "--good-focal-interval", "5"], in: scratch)
        #expect(forced.status == 0, "\(forced.standardError)")
        #expect(forced.standardError.contains("consistent halves, RMS under 0.5 px, focal lengths within 5%)"), "\(forced.standardError)")
        #expect(forced.standardError.contains("; verdict: not good: the corners cover "), "\(forced.standardError)")
        #expect(!forced.standardError.contains("(under 1% wanted)"), "\(forced.standardError)")
        #expect(forced.standardError.contains("(under 5% wanted)") == forced.standardError.contains(" is uncertain by "),
                "\(forced.standardError)")
        #expect(CalibrateCommandTests.contents(scratch + "/picks/calibration") == Self.files.sorted())
    }

    @Test(arguments: [
        (["--calibrate", "--good-rms", "0"], "--good-rms must be 0.01 to 100 pixels, got 0"),
        (["--calibrate", "--good-focal-interval", "200"], "--good-focal-interval must be 0.01 to 100 percent, got 200"),
        (["--calibration-out", "cal"], "--calibration-out needs --calibrate"),
        (["--calibrate", "--pattern", "aruco:DICT_6X6_250"], "--calibrate needs a board"),
    ])
    func usageErrorsComeBeforeAnything(extra: [String], message: String) throws {
        try MarkerShutterBinary.expectUsageError(["live", "--replay", Self.session, "--out", "picks"] + extra, message: message)
    }

    @Test func helpNamesTheGuidanceAndTheThresholds() throws {
        let help = try MarkerShutterBinary.run(["live", "--help"])
        #expect(help.status == 0)
        let text = help.flowingOutput
        for phrase in ["--calibrate", "--calibration-out <dir>", "--good-rms <pixels>", "(0.01 to 100 pixels)",
                       "--good-focal-interval <percent>", "(0.01 to 100 percent)", "(default: 0.5)", "(default: 1.0)",
                       "X, Y, size and skew", "raises the coverage"] {
            #expect(text.contains(phrase), "\(phrase)")
        }
    }
}
