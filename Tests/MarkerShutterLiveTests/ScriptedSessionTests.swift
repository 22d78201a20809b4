import MarkerDetection
import MarkerShutter
import Testing

/// The drawn frames are what the script says, and the expected timeline is the shutter's: the live
/// tests' expectations rest on both.
@Suite struct ScriptedSessionTests {
    @Test func everyShotDetectsAsScripted() throws {
        let session = ScriptedSession([.valid(5), .dropout(6)])
        let detector = try MarkerDetector(pattern: ScriptedSession.pattern)
        let rule = ValidityRule(defaultsFor: try ScriptedSession.pattern)
        let shots = Set(session.shots)
        #expect(shots.count == 5 + 3 + 1, "every pose, three covered poses and the empty scene")
        for shot in shots {
            let detection = try detector.detect(ImageFile.decode(ScriptedSession.jpeg(of: shot)))
            #expect(rule.shortfalls(of: detection).isEmpty == shot.isValid, "\(shot): \(rule.shortfalls(of: detection))")
            if shot.isValid { #expect(detection.boardCorners.count == 24, "\(shot): every inner corner of the 5x7 board") }
        }
    }

    @Test func expectedChangesBridgeShortDropoutsAndEndLongOnes() {
        let session = ScriptedSession([.valid(4), .dropout(3), .valid(4), .dropout(12), .valid(2)])
        #expect(session.expectedChanges().map(\.description) == [
            "enabled at frame 0 (0.000 s)", "held at frame 4 (0.133 s)", "enabled at frame 7 (0.233 s)",
            "held at frame 11 (0.367 s)", "disabled at frame 20 (0.667 s)", "enabled at frame 23 (0.767 s)",
        ])
    }
}
