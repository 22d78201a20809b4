import EmulatedCameraHarness
import Foundation
import MarkerDetection
import Testing

extension LiveTests {
    /// `live --record` keeps every frame with its timestamp, and `process` on the recording shows
    /// the timeline the live run showed.
    @Suite struct LiveRecordingTests {
        @Test func processingTheRecordingReproducesTheLiveTimeline() async throws {
            let harness = try await makeLiveHarness()
            let session = LiveTimelineTests.session
            let frames = session.shots.count
            let camera = try harness.addCamera(showing: session)
            let recording = harness.directory + "/recording"
            let process = try harness.startLive(camera, [
                "--out", harness.directory + "/pictures", "--record", recording, "--stop-after", "\(frames)",
            ])
            process.closeInput()
            let result = try await process.wait(timeout: .seconds(60))
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardError.contains("recording: \(frames) frames in \(recording)\n"), "\(result.standardError)")
            let live = LiveOutput(result).phaseChanges

            // Every frame, in camera order, at the camera's pace.
            let manifest = try String(contentsOfFile: recording + "/manifest.jsonl", encoding: .utf8)
                .split(separator: "\n").map { try JSONLine(String($0)) }
            #expect(manifest.map { $0.string("file") } == (0..<frames).map { String(format: "frame_%06d.jpg", $0) })
            let sequences = manifest.compactMap { $0.int("sequence") }
            // A camera starved by a busy machine loses frames, as real ones do: the manifest says which.
            #expect(sequences.count == frames && zip(sequences, sequences.dropFirst()).allSatisfy { $0 < $1 }, "\(sequences)")
            let times = manifest.compactMap { $0.double("t") }
            #expect(times.first == 0)
            for ((earlier, later), (before, after)) in zip(zip(times, times.dropFirst()), zip(sequences, sequences.dropFirst())) {
                let interval = Double(after - before) * ScriptedSession.frameInterval
                #expect(abs(later - earlier - interval) < 0.001, "frames \(before) at \(earlier) s and \(after) at \(later) s")
            }
            for entry in manifest {
                let image = try ImageFile.read(recording + "/" + (entry.string("file") ?? ""))
                #expect(image.width == ScriptedSession.size.width && image.height == ScriptedSession.size.height)
            }

            // `process` replays it: every frame valid or not as scripted, and the same phase changes.
            let processed = try await harness.run(harness.markerShutter, [
                "process", recording, "--pattern", ScriptedSession.patternText,
            ])
            #expect(processed.status == 0, "\(processed.standardError)")
            let rows = try processed.standardOutput.split(separator: "\n").map { try JSONLine(String($0)) }
            #expect(rows.map { $0.int("index") } == Array(0..<frames))
            #expect(rows.map { $0.bool("valid") } == sequences.map { session.shots[$0 % frames].isValid })
            var replayed: [PhaseChange] = []
            for row in rows {
                guard let index = row.int("index"), let t = row.double("t"), let shutter = row.string("shutter") else {
                    Issue.record("row without index, t or shutter: \(row)")
                    continue
                }
                if replayed.last?.phase != shutter { replayed.append(PhaseChange(frame: index, phase: shutter, seconds: t)) }
            }
            // The replay detects every recorded frame: its changes are exactly the shutter's over the
            // recorded frames (their script shots and their manifest times), whatever live skipped or
            // the camera lost; when the camera lost none, those are the script's own.
            let recorded = zip(sequences, times).map { (sequence: $0, seconds: $1) }
            let expected = session.changes(over: recorded)
            #expect(replayed.map(\.phase) == expected.map(\.phase), "replayed: \(replayed), expected: \(expected)")
            #expect(replayed.map(\.frame) == expected.map(\.frame), "replayed: \(replayed), expected: \(expected)")
            let bySequence = replayed.map { PhaseChange(frame: sequences[$0.frame], phase: $0.phase, seconds: $0.seconds) }
            #expect(session.inconsistencies(in: bySequence) == [], "replayed: \(bySequence)")
            if sequences == Array(0..<frames) {
                #expect(bySequence.map(\.frame) == LiveTimelineTests.scriptedChanges.map(\.frame), "replayed: \(bySequence)")
                #expect(bySequence.map(\.phase) == LiveTimelineTests.scriptedChanges.map(\.phase), "replayed: \(bySequence)")
            }
            // Live detected a subset of the recorded frames (it skips while detection is busy, the
            // replay never does): each change it printed is on a recorded frame of its phase's
            // validity, and the shutter over just those frames gives exactly live's changes.
            let counts = try #require(LiveOutput(result).counts, "\(result.standardError)")
            try #require(live.allSatisfy { recorded.indices.contains($0.frame) }, "live: \(live)")
            let overLive = session.changes(over: live.map { recorded[$0.frame] })
            #expect(overLive.map(\.phase) == live.map(\.phase), "live: \(live), replayed over its frames: \(overLive)")
            #expect(overLive.map(\.frame) == Array(live.indices), "live: \(live), replayed over its frames: \(overLive)")
            for change in live {
                #expect(abs(change.seconds - recorded[change.frame].seconds) <= 0.001, "\(change) against the manifest's t")
            }
            // When live detected every frame, the two agree change by change.
            if counts.skipped > 0 {
                print("\(counts.skipped) frames skipped live while detection was busy; replayed: \(replayed), live: \(live)")
            }
            guard counts.skipped == 0 else { return }
            #expect(replayed.map(\.phase) == live.map(\.phase), "replayed: \(replayed), live: \(live)")
            for (offline, online) in zip(replayed, live) {
                #expect(offline.frame == online.frame, "\(offline) replayed, \(online) live")
                #expect(abs(offline.seconds - online.seconds) <= 0.001, "\(offline) replayed, \(online) live")
            }
            print("replayed phase changes against live, in frames: "
                + zip(replayed, live).map { String(format: "%+d", $0.frame - $1.frame) }.joined(separator: ", "))
        }
    }
}
