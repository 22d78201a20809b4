import EmulatedCameraHarness
import Foundation
import MarkerDetection
import Testing

extension LiveTests {
    /// Pictures asked for on standard input: during a dropout the held valid frame is saved; while
    /// the shutter is disabled the request is refused.
    @Suite struct LiveCaptureTests {
        /// A second of board, then a dropout that never ends: the camera shows its last frame for
        /// ever. A request arrives in the dropout however late a busy machine lets the test send it
        /// (its reads of the program's output wait for a thread like every other test's; minutes
        /// have been seen), never in another phase.
        static let session = ScriptedSession([.valid(30), .dropout(30)])

        static func addCamera(_ harness: EmulatedCameraHarness) throws -> EmulatedCamera {
            try harness.addCamera(showing: session) { $0.holdsLastFrame = true }
        }

        @Test func aRequestWhileDisabledIsRefusedAndSaysWhy() async throws {
            let harness = try await makeLiveHarness()
            let camera = try Self.addCamera(harness)
            let out = harness.directory + "/pictures"
            // The default 0.3 s hold: disabled from 1.3 s on.
            let process = try harness.startLive(camera, ["--out", out])
            try await process.waitForOutput(containing: "shutter disabled", on: .standardError, timeout: .seconds(20))
            process.sendLine("capture")
            try await process.waitForOutput(containing: "no picture was taken", on: .standardError, timeout: .seconds(15))
            process.sendLine("quit")
            let result = try await process.wait(timeout: .seconds(20))
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardError.contains("shutter disabled: no valid detection is held, so no picture was taken"))
            #expect(result.standardError.contains("pictures: 0 saved, 1 refused (shutter disabled)"), "\(result.standardError)")
            #expect(LiveOutput(result).pictures.isEmpty)
            let saved = FileManager.default.fileExists(atPath: out) ? try FileManager.default.contentsOfDirectory(atPath: out) : []
            #expect(saved.isEmpty, "\(saved)")
        }

        @Test func captureDuringADropoutSavesTheLastValidFrame() async throws {
            let harness = try await makeLiveHarness()
            let session = Self.session
            let camera = try Self.addCamera(harness)
            let out = harness.directory + "/pictures"
            // The dropout (frame 30 on) is held for an hour; ask for a picture while it lasts.
            let process = try harness.startLive(camera, ["--out", out, "--hold", "3600"])
            try await process.waitForOutput(containing: "shutter held", on: .standardError, timeout: .seconds(20))
            process.sendLine("capture")
            try await process.waitForOutput(containing: "capture_0001.png", timeout: .seconds(15))
            process.sendLine("quit")
            let result = try await process.wait(timeout: .seconds(20))
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardError.contains("pictures: 1 saved\n"), "\(result.standardError)")

            // One picture, of the last valid frame detected before the dropout: frame 29 of the
            // script, or an earlier board frame when a busy machine skipped detecting the last ones.
            let pictures = LiveOutput(result).pictures
            #expect(pictures.map(\.path) == [out + "/capture_0001.png"])
            #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == ["capture_0001.json", "capture_0001.png"])
            let sidecar = try JSONLine(contentsOf: out + "/capture_0001.json")
            let sequence = try #require(sidecar.int("sequence"))
            let shown = sequence % session.shots.count
            #expect((0..<30).contains(shown), "saved camera frame \(sequence)")
            #expect(sidecar.int("frame_index") == pictures.first?.frame)
            #expect(sidecar.string("shutter") == "held")
            #expect(sidecar.bool("valid") == true)
            #expect(sidecar.string("trigger") == "request")
            let holdAge = try #require(sidecar.double("hold_age_s"))
            #expect(holdAge >= 0 && holdAge < 3600, "held for \(holdAge) s")

            // Its pixels are that frame's JPEG as the camera sent it, not any other frame's.
            let saved = try ImageFile.read(out + "/capture_0001.png")
            let differences = try Set(session.shots).map { shot in
                (shot, try PixelDifference.mean(saved, ImageFile.decode(ScriptedSession.jpeg(of: shot))))
            }
            let expected = try #require(differences.first { $0.0 == session.shots[shown] }?.1)
            let nearestOther = try #require(differences.filter { $0.0 != session.shots[shown] }.map(\.1).min())
            #expect(expected < 2, "mean difference from the frame's JPEG: \(expected)")
            #expect(nearestOther > 10 * expected, "the nearest other frame differs by \(nearestOther) on average")
            print(String(format: "saved picture against frame %d: mean difference %.2f; nearest other frame %.2f",
                         shown, expected, nearestOther))
        }
    }
}
