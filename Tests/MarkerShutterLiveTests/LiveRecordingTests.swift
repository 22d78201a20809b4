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
            // The replay detects every recorded frame: its changes are ones the script allows, at
            // the camera frames the recording holds.
            let bySequence = replayed.map { PhaseChange(frame: sequences[$0.frame], phase: $0.phase, seconds: $0.seconds) }
            #expect(session.inconsistencies(in: bySequence) == [], "replayed: \(bySequence)")
            // When the camera lost no frame the recording is the whole script, and the replay's
            // changes are the script's own, frame for frame, whatever live skipped.
            if sequences == Array(0..<frames) {
                #expect(bySequence.map(\.frame) == LiveTimelineTests.scriptedChanges.map(\.frame), "replayed: \(bySequence)")
                #expect(bySequence.map(\.phase) == LiveTimelineTests.scriptedChanges.map(\.phase), "replayed: \(bySequence)")
            } else {
                print("the camera lost frames: \(sequences)")
            }
            // Live skips detecting frames while it is busy, replay never does: the two agree change by
            // change only when live detected every frame.
            let counts = try #require(LiveOutput(result).counts, "\(result.standardError)")
            guard counts.skipped == 0 else {
                print("\(counts.skipped) frames skipped live while detection was busy; replayed: \(replayed), live: \(live)")
                return
            }
            try #require(replayed.map(\.phase) == live.map(\.phase), "replayed: \(replayed), live: \(live)")
            for (offline, online) in zip(replayed, live) {
                #expect(abs(offline.frame - online.frame) <= 1, "\(offline) replayed, \(online) live")
                #expect(abs(offline.seconds - online.seconds) <= LiveTimelineTests.tolerance, "\(offline) replayed, \(online) live")
            }
            print("replayed phase changes against live, in frames: "
                + zip(replayed, live).map { String(format: "%+d", $0.frame - $1.frame) }.joined(separator: ", "))
        }
    }
}
