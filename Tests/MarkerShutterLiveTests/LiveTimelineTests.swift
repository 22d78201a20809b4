import EmulatedCameraHarness
import Foundation
import Testing

extension LiveTests {
    /// The shutter's timeline, live: the camera shows the board with scripted dropouts at 30 frames
    /// per second, and the phase changes `live` prints are the ones ``ShutterTimeline`` gives for the
    /// script, each within one frame interval, when `live` detected every frame; when a busy
    /// machine made it skip some, each change is still one the script allows.
    @Suite struct LiveTimelineTests {
        /// One second of board, a 3-frame dropout, a second of board, an 8-frame one (both shorter
        /// than the 0.3 s hold), a second of board, a 20-frame one, a second of board.
        static let session = ScriptedSession([
            .valid(30), .dropout(3), .valid(30), .dropout(8), .valid(30), .dropout(20), .valid(30),
        ])

        /// The phase changes the script calls for, written out (not computed by the code under
        /// test): the short dropouts at frames 30 and 63 are held and bridged; the long one at 101
        /// is held and disabled 0.3 s (9 frames) later, at frame 110; the board is back at 121.
        static let scriptedChanges: [(frame: Int, phase: String)] = [
            (0, "enabled"), (30, "held"), (33, "enabled"), (63, "held"), (71, "enabled"), (101, "held"),
            (110, "disabled"), (121, "enabled"),
        ]

        /// A frame interval, and a millisecond for the camera's microsecond timestamps.
        static let tolerance = ScriptedSession.frameInterval + 0.001

        @Test func phaseChangesFollowTheScriptWithinOneFrame() async throws {
            let harness = try await makeLiveHarness()
            let camera = try harness.addCamera(showing: Self.session)
            let frames = Self.session.shots.count
            let process = try harness.startLive(camera, [
                "--out", harness.directory + "/pictures", "--stop-after", "\(frames)",
            ])
            process.closeInput()
            let result = try await process.wait(timeout: .seconds(60))
            #expect(result.status == 0, "\(result.standardError)")
            let output = LiveOutput(result)

            let expected = Self.scriptedChanges.map {
                PhaseChange(frame: $0.frame, phase: $0.phase, seconds: Double($0.frame) * ScriptedSession.frameInterval)
            }
            let live = output.phaseChanges
            // The shutter's own timeline for the script agrees with the written-out changes.
            #expect(Self.session.expectedChanges().map(\.frame) == expected.map(\.frame))
            #expect(Self.session.expectedChanges().map(\.phase) == expected.map(\.phase))
            let counts = try #require(output.counts, "\(result.standardError)")
            try #require(!live.isEmpty, "no phase change printed: \(result.standardError)")
            // Each change's camera frame, from its time on the camera's clock (frame 0 is always
            // detected: nothing waits for detection before it, and its change is the first line).
            let sequences = live.map { Int(($0.seconds / ScriptedSession.frameInterval).rounded()) }
            // Exact whatever a busy machine skipped or the camera lost: every change lies on a frame's
            // time (the camera stamps microseconds), ...
            for (change, sequence) in zip(live, sequences) {
                #expect(abs(change.seconds - Double(sequence) * ScriptedSession.frameInterval) <= 0.001, "\(change)")
            }
            // ... the shutter over just the frames live printed a change at gives exactly those
            // changes (a phase printed at the wrong frame, too early or missing between two printed
            // frames fails here), and each change is one the script allows.
            let replayed = Self.session.changes(over: zip(sequences, live.map(\.seconds)).map { ($0, $1) })
            #expect(replayed.map(\.phase) == live.map(\.phase), "live: \(live), replayed over its frames: \(replayed)")
            #expect(replayed.map(\.frame) == Array(live.indices), "live: \(live), replayed over its frames: \(replayed)")
            let bySequence = zip(live, sequences).map { PhaseChange(frame: $1, phase: $0.phase, seconds: $0.seconds) }
            #expect(Self.session.inconsistencies(in: bySequence) == [], "live: \(live)")
            // When the camera lost none, live's frame numbers are the camera's.
            if counts.lost == 0 { #expect(live.map(\.frame) == sequences, "live: \(live)") }
            // When every frame was detected, the changes are the script's, each within a frame; a busy
            // machine that skipped some still passed every check above.
            if counts.skipped > 0 || counts.lost > 0 {
                print("\(counts.skipped) frames skipped while detection was busy, \(counts.lost) lost; live phase changes: \(live)")
            }
            guard counts.skipped == 0, counts.lost == 0 else { return }
            #expect(live.map(\.phase) == expected.map(\.phase), "live: \(live), expected: \(expected)")
            #expect(live.map(\.frame) == expected.map(\.frame), "live: \(live), expected: \(expected)")
            for (seen, scripted) in zip(live, expected) {
                #expect(abs(seen.seconds - scripted.seconds) <= Self.tolerance, "\(seen) against \(scripted)")
            }
            // The long dropout: held from its first frame, disabled 0.3 s later (at the first frame at
            // or after the deadline).
            guard live.count == expected.count else { return }
            let held = live[5], disabled = live[6]
            let firstInvalid = expected[5].seconds
            #expect(abs(held.seconds - firstInvalid) <= Self.tolerance)
            #expect(disabled.seconds - firstInvalid >= 0.3 - 0.001, "disabled \(disabled.seconds - firstInvalid) s into the dropout")
            #expect(disabled.seconds - firstInvalid <= 0.3 + Self.tolerance, "disabled \(disabled.seconds - firstInvalid) s into the dropout")
            let offsets = zip(live, expected).map { String(format: "%+.1f ms", ($0.seconds - $1.seconds) * 1000) }
            print("live phase changes against the script: \(offsets.joined(separator: ", "))")
        }

        /// The summary counts what came in (the camera loses three frames on purpose, and any it
        /// had no buffer for while a busy machine kept `live` from taking them, which it logs), what
        /// was detected and skipped, and gives the latency from frame to shutter state.
        @Test func summaryCountsEveryFrameAndReportsLatency() async throws {
            let harness = try await makeLiveHarness()
            let camera = try harness.addCamera(showing: Self.session, faults: [.gap(at: 20, count: 3)])
            let process = try harness.startLive(camera, ["--out", harness.directory + "/pictures", "--stop-after", "60"])
            process.closeInput()
            let result = try await process.wait(timeout: .seconds(60))
            #expect(result.status == 0, "\(result.standardError)")
            let output = LiveOutput(result)

            let counts = try #require(output.counts, "\(result.standardError)")
            #expect(result.standardError.contains("stopped (60 frames): 60 frames received"))
            #expect(counts.received == 60)
            #expect(counts.detected + counts.skipped == counts.received, "\(counts)")
            // Frames lost for want of a buffer count where they fall before the last frame received:
            // 60 frames, the 3 of the gap and those lost among them.
            let noBuffer = camera.log().compactMap { line in
                line.hasPrefix("lost sequence=") ? Int(line.dropFirst("lost sequence=".count)) : nil
            }
            var lostAmong = 0
            while noBuffer.filter({ $0 < 60 + 3 + lostAmong }).count > lostAmong { lostAmong += 1 }
            #expect(counts.lost == 3 + lostAmong, "\(counts); lost for want of a buffer: \(noBuffer)")
            let latency = try #require(output.latency, "\(result.standardError)")
            #expect(latency.median > 0 && latency.median <= latency.p99, "\(latency)")
            print("summary: \(counts), latency median \(latency.median) ms, 99th percentile \(latency.p99) ms")
        }
    }
}
