import EmulatedCameraHarness
import Foundation
import Testing

extension LiveTests {
    /// `live --camera ... --record DIR` keeps every frame the rig saw, each camera in its folder, with
    /// one manifest; `live --replay DIR` gives those frames to the same rig shutter and reproduces the
    /// live rig's timeline and its automatic sets.
    @Suite struct LiveRigRecordingTests {
        /// The rig's changes as `live` prints them on standard error, each with every camera's phase.
        static func rigChanges(_ standardError: String) -> [String] {
            standardError.split(separator: "\n").map(String.init).filter { $0.hasPrefix("rig enabled: ") || $0.hasPrefix("rig disabled: ") }
        }

        /// A rig line of `process` as the live terminal prints the change: `rig disabled: WHY (left
        /// enabled, right held)` or `rig enabled: frames 7.6 ms apart (...)`; `nil` for a camera's row.
        static func terminalLine(_ line: JSONLine) -> String? {
            guard let rig = line.string("rig") else { return nil }
            let cameras = ((line.fields["cameras"] as? [[String: Any]]) ?? []).map { "\($0["camera"] ?? "?") \($0["shutter"] ?? "?")" }
            let phases = "(" + cameras.joined(separator: ", ") + ")"
            guard rig == "enabled" else { return "rig disabled: \(line.string("why") ?? "?") \(phases)" }
            return String(format: "rig enabled: frames %.1f ms apart ", (line.double("largest_difference_s") ?? -1) * 1000) + phases
        }

        /// The time apart in an enabled line, in milliseconds.
        static func milliseconds(_ line: String) -> Double? {
            guard let range = line.range(of: #"frames [0-9.]+ ms apart"#, options: .regularExpression) else { return nil }
            return Double(line[range].dropFirst("frames ".count).dropLast(" ms apart".count))
        }

        /// A camera's frames received and detected, from its line of the summary (`  left (PATH): 150
        /// frames received, 82 detected, ...`).
        static func frameCounts(_ standardError: String, camera: String) -> (received: Int, detected: Int)? {
            let pattern = #"^  "# + camera + #" \(.*\): ([0-9]+) frames received, ([0-9]+) detected"#
            for line in standardError.split(separator: "\n").map(String.init) {
                guard let match = line.range(of: pattern, options: .regularExpression) else { continue }
                let numbers = line[match].split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
                guard numbers.count >= 2 else { return nil }
                return (numbers[numbers.count - 2], numbers[numbers.count - 1])
            }
            return nil
        }

        /// The line with its time apart masked (rounded from microseconds by the one, from the
        /// machine's durations by the other, it may differ in its last digit).
        static func maskedMilliseconds(_ line: String) -> String {
            line.replacingOccurrences(of: #"frames [0-9.]+ ms apart"#, with: "frames … ms apart", options: .regularExpression)
        }

        /// Each saved set's frames, by camera, as their sidecar gives their kernel timestamps.
        static func setTimes(_ folder: String) throws -> [[String]] {
            let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("set_") }.sorted()
            return try names.map { name in
                let text = try String(contentsOfFile: folder + "/" + name, encoding: .utf8)
                let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
                let cameras = try #require(object["cameras"] as? [[String: Any]])
                return cameras.map { "\($0["name"] ?? "?") \($0["t"] ?? "?")" }
            }
        }

        /// Two cameras, 640x480 at 30 fps and 1280x720 at 25 fps, the board coming and going in each
        /// at its own moments and changing pose: recorded live with `--auto`, replayed with `--auto`.
        @Test func aRecordedRigReplaysToTheSameTimelineAndSets() async throws {
            let harness = try await makeLiveHarness()
            let board: (Int, Int) -> [ScriptedSession.Shot] = { pose, count in Array(repeating: .board(pose: pose), count: count) }
            let empty: (Int) -> [ScriptedSession.Shot] = { Array(repeating: .empty, count: $0) }
            let left = try LiveRigTests.addCamera(harness, named: "left", shots: board(2, 30) + empty(20) + board(3, 30) + empty(10) + board(1, 30))
            // The right camera loses frames 100 to 104 (4 s in): the rig is disabled at the next one's arrival.
            let right = try LiveRigTests.addCamera(harness, named: "right", shots: board(2, 20) + empty(25) + board(3, 30) + board(1, 25),
                                                   size: (1280, 720), fps: 25, faults: [.gap(at: 100, count: 5)])
            let out = harness.directory + "/pictures"
            let recording = harness.directory + "/recording"
            let live = try LiveRigTests.live(harness, [("left", left), ("right", right)], [
                "--camera-option", "right:size=1280x720,fps=25", "--out", out, "--auto", "--record", recording, "--stop-after", "150",
            ])
            live.closeInput()
            let recorded = try await live.wait(timeout: .seconds(300))
            #expect(recorded.status == 0, "\(recorded.standardError)")
            #expect(recorded.standardError.contains(", recording to \(recording)\n"), "\(recorded.standardError)")

            // The layout: a folder per camera, frames named as one camera's recording names them, one
            // manifest naming each line's camera, in the order the rig saw them.
            #expect(try FileManager.default.contentsOfDirectory(atPath: recording).sorted() == ["cameras.json", "events.jsonl", "left", "manifest.jsonl", "right"])
            #expect(try String(contentsOfFile: recording + "/cameras.json", encoding: .utf8)
                == "{\"cameras\":[{\"name\":\"left\",\"fps\":30},{\"name\":\"right\",\"fps\":25}]}\n")
            let manifest = try String(contentsOfFile: recording + "/manifest.jsonl", encoding: .utf8)
                .split(separator: "\n").map { try JSONLine(String($0)) }
            for camera in ["left", "right"] {
                let lines = manifest.filter { $0.string("camera") == camera }
                #expect(lines.map { $0.string("file") } == (0..<lines.count).map { String(format: "frame_%06d.jpg", $0) })
                let times = lines.compactMap { $0.double("t") }
                #expect(times.count == lines.count && zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "\(camera): \(times)")
                let files = try FileManager.default.contentsOfDirectory(atPath: recording + "/" + camera).sorted()
                #expect(files == lines.compactMap { $0.string("file") })
            }
            let summary = try #require(recorded.standardError.split(separator: "\n").last { $0.hasPrefix("recording: ") })
            #expect(summary == "recording: \(manifest.count) frames in \(recording)", "\(recorded.standardError)")
            // Every frame the rig saw, whatever a busy machine skipped: each camera's frames detected,
            // as its summary line counts them, and the run stopped at a camera's 150th frame.
            var received: [String: Int] = [:]
            for camera in ["left", "right"] {
                let counts = try #require(Self.frameCounts(recorded.standardError, camera: camera), "\(recorded.standardError)")
                received[camera] = counts.received
                #expect(manifest.filter { $0.string("camera") == camera }.count == counts.detected, "\(camera): \(counts)")
                #expect(counts.detected >= 1, "\(camera): \(counts)")
            }
            #expect(received.values.max() == 150, "\(received)")

            let replayOut = harness.directory + "/replayed"
            let replay = try harness.start(harness.markerShutter, [
                "live", "--pattern", ScriptedSession.patternText, "--replay", recording, "--out", replayOut, "--auto",
            ])
            replay.closeInput()
            let replayed = try await replay.wait(timeout: .seconds(300))
            #expect(replayed.status == 0, "\(replayed.standardError)")
            #expect(replayed.standardError.contains("replaying the rig recorded in \(recording): \(manifest.count) frames of left, right\n"),
                    "\(replayed.standardError)")
            #expect(replayed.standardError.contains("stopped: end of frames"), "\(replayed.standardError)")

            // The same rig changes, line for line, from the first (each camera's first frame) to the
            // last: the board leaving and coming back in each camera, and whatever a busy machine
            // made of the cameras' timing (frames arriving late, a camera stalled for a moment).
            let liveChanges = Self.rigChanges(recorded.standardError)
            let replayChanges = Self.rigChanges(replayed.standardError)
            #expect(liveChanges.contains { $0.hasPrefix("rig disabled: right does not see the board (") }, "\(liveChanges)")
            #expect(liveChanges.contains { $0.hasPrefix("rig disabled: left") && $0.contains(" not see the board (") }, "\(liveChanges)")
            // Enabled at least once (the set below is taken then); how often it is enabled again
            // depends on which frames a busy machine detected in time.
            #expect(liveChanges.contains { $0.hasPrefix("rig enabled: ") }, "\(liveChanges)")
            // The 5 frames the camera leaves out, and any next to them a busy machine lost too.
            let gap = liveChanges.compactMap { line -> Int? in
                guard line.hasPrefix("rig disabled: right dropped "), let range = line.range(of: #"dropped [0-9]+ frames \("#, options: .regularExpression)
                else { return nil }
                return Int(line[range].split(separator: " ")[1])
            }
            #expect(gap.contains { $0 >= 5 }, "\(liveChanges)")
            let events = try String(contentsOfFile: recording + "/events.jsonl", encoding: .utf8)
            #expect(gap.allSatisfy { events.contains(",\"dropped\":\($0)}\n") }, "\(gap)")
            #expect(replayChanges == liveChanges, "replayed: \(replayChanges)\nlive: \(liveChanges)")
            // The same automatic sets, of the same frames (their kernel timestamps), and the same lines.
            let liveSets = try Self.setTimes(out)
            #expect(liveSets.count >= 1, "\(recorded.standardOutput)")
            #expect(try Self.setTimes(replayOut) == liveSets)
            #expect(replayed.standardOutput.replacingOccurrences(of: replayOut, with: out) == recorded.standardOutput)
            print("rig recording: \(manifest.count) frames, \(liveChanges.count) rig changes and \(liveSets.count) sets live, the same replayed")

            // `process` of the recording: the same rig changes, written between the cameras' rows
            // in the order the rig took its frames.
            let rows = harness.directory + "/rig-rows.jsonl"
            let process = try harness.start(harness.markerShutter, [
                "process", recording, "--pattern", ScriptedSession.patternText, "--output", rows,
            ])
            process.closeInput()
            let processed = try await process.wait(timeout: .seconds(300))
            #expect(processed.status == 0, "\(processed.standardError)")
            let lines = try String(contentsOfFile: rows, encoding: .utf8).split(separator: "\n").map { try JSONLine(String($0)) }
            #expect(lines.compactMap { $0.string("camera") } == manifest.compactMap { $0.string("camera") })
            let processChanges = lines.compactMap(Self.terminalLine)
            #expect(processChanges.map(Self.maskedMilliseconds) == replayChanges.map(Self.maskedMilliseconds),
                    "process: \(processChanges)\nreplay: \(replayChanges)")
            for (written, printed) in zip(processChanges, replayChanges) {
                #expect(abs((Self.milliseconds(written) ?? 0) - (Self.milliseconds(printed) ?? 0)) <= 0.1, "\(written) / \(printed)")
            }
            // The recording is as it was.
            #expect(try String(contentsOfFile: recording + "/manifest.jsonl", encoding: .utf8).split(separator: "\n").count == manifest.count)
        }
    }
}
