import Foundation
@testable import MarkerShutter
import Testing

/// A replayed recording with frames that cannot be read: their time passes as the recording's
/// clock says, so the hold runs out in a hole and a picture asked for there is refused.
@Suite struct ReplayHoleTests {
    @Test func theHoldRunsOutInAHoleOfMissingFramesAndAPictureThereIsRefused() async throws {
        let pictures = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: pictures) }
        let driver = try SessionDriver(pictures: pictures)
        let session = driver.session
        async let summary = session.run()
        try await driver.feed(0)  // the board, valid: enabled at t=0
        try await driver.feedMissing(at: FrameTime(seconds: 0.1), file: "gone_1.jpg")
        guard case .accepted(frameIndex: 0) = session.requestPicture() else {
            Issue.record("a picture 0.1 s into the hold was refused")
            return
        }
        try await driver.feedMissing(at: FrameTime(seconds: 2), file: "gone_2.jpg")
        let expiry = try await driver.waitFor("the hold running out") { event -> LiveShutter.Expiry? in
            guard case .shutterExpired(let expiry) = event else { return nil }
            return expiry
        }
        #expect(expiry.time == FrameTime(seconds: 0.3))
        #expect(expiry.lastFrame == 0)
        #expect(expiry.state.phase == .disabled)
        guard case .refused(.shutterDisabled) = session.requestPicture() else {
            Issue.record("a picture 2 s after the last readable frame was not refused")
            return
        }
        await driver.finish()
        let result = await summary

        #expect(driver.saved.map(\.frameIndex) == [0])
        #expect(result.statistics.framesMissing == 2)
        #expect(result.statistics.framesReceived == 1)
        #expect(result.pictures == LiveSummary.Pictures(saved: 1, refused: 1, failed: 0))
        #expect(result.stretches.map { "\($0.firstFrame)-\($0.lastFrame)" } == ["0-0"])
        #expect(result.stretches.first?.end == FrameTime(seconds: 0.3))
        let lines = result.description.split(separator: "\n").map(String.init)
        #expect(lines[0] == "stopped (end of frames): 1 frames received, 1 detected, 0 skipped while detection was busy, "
            + "0 lost by the camera, 2 missing or unreadable")
    }

    @Test func aFrameAfterTheHoleEnablesTheShutterAgain() async throws {
        let pictures = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: pictures) }
        let driver = try SessionDriver(pictures: pictures)
        let session = driver.session
        async let summary = session.run()
        try await driver.feed(0)
        try await driver.feedMissing(at: FrameTime(seconds: 1), file: "gone.jpg")
        _ = try await driver.waitFor("the hold running out") { event -> Bool? in
            guard case .shutterExpired = event else { return nil }
            return true
        }
        try await driver.feed(60)  // t=2.0, the board in view again
        guard case .accepted(frameIndex: 1) = session.requestPicture() else {
            Issue.record("the frame after the hole did not enable the shutter")
            return
        }
        await driver.finish()
        let result = await summary
        #expect(driver.changes.map(\.phase) == ["enabled", "enabled"])
        #expect(result.statistics.framesMissing == 1)
    }
}
