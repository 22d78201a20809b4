import DebounceTesting
import Foundation
import FrameCapture
import MarkerDetection
@testable import MarkerShutter
import Testing

/// `LiveSession` in-process, on the sample session's frames (see ``SessionDriver``): the same
/// timeline, pictures, stops, recording and summary that `marker-shutter live` shows.
@Suite struct LiveSessionTests {
    @Test func theSampleGivesItsTimelineAndAutomaticPictures() async throws {
        let pictures = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: pictures) }
        let driver = try SessionDriver(pictures: pictures) { $0.automatic = true }
        let session = driver.session
        async let summary = session.run()
        for index in driver.frames.indices { try await driver.feed(index) }
        await driver.finish()
        let result = await summary

        #expect(driver.changes.map(\.frame) == [0, 30, 33, 55, 57, 72, 81, 102])
        #expect(driver.changes.map(\.phase) == ["enabled", "held", "enabled", "held", "enabled", "held", "disabled", "enabled"])
        #expect(driver.saved.map(\.frameIndex) == [0, 5, 44, 48, 57, 62])
        #expect(driver.saved.allSatisfy { $0.trigger == .auto })
        #expect(result.stopReason == nil)
        #expect(result.statistics.framesReceived == 120)
        #expect(result.statistics.framesDetected == 120)
        #expect(result.stretches.map { "\($0.firstFrame)-\($0.lastFrame)" } == ["0-80", "102-119"])
        #expect(result.pictures == LiveSummary.Pictures(saved: 6, refused: 0, failed: 0))
        #expect(result.failure == nil)
        let lines = result.description.split(separator: "\n").map(String.init)
        #expect(lines[0] == "stopped (end of frames): 120 frames received, 120 detected, 0 skipped while detection was busy, 0 lost by the camera")
        #expect(lines[1] == "  shutter enabled 3.27 s in 2 stretches")
        #expect(lines[2] == "  pictures: 6 saved")
        let names = try FileManager.default.contentsOfDirectory(atPath: pictures).sorted()
        #expect(names == (1...6).flatMap { [String(format: "capture_%04d.json", $0), String(format: "capture_%04d.png", $0)] })
    }

    @Test func aRequestWhileHeldSavesTheLastValidFrameAndWhileDisabledIsRefused() async throws {
        let pictures = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: pictures) }
        let driver = try SessionDriver(pictures: pictures)
        let session = driver.session
        async let summary = session.run()
        for index in 0...31 { try await driver.feed(index) }
        session.requestPicture()  // frame 31: the hand covers the board since frame 30; frame 29 is held
        for index in 32...85 { try await driver.feed(index) }
        session.requestPicture()  // frame 85: the board is out of view, the hold has run out
        await driver.finish()
        let result = await summary

        #expect(driver.saved.map(\.frameIndex) == [29])
        let holdAge = try #require(driver.saved.first?.holdAge)
        #expect(holdAge == driver.frames[30].time.duration(to: driver.frames[31].time))
        #expect(driver.saved.first?.trigger == .request)
        #expect(driver.refused == [.shutterDisabled])
        #expect(result.pictures == LiveSummary.Pictures(saved: 1, refused: 1, failed: 0))
        #expect(result.description.contains("  pictures: 1 saved, 1 refused (shutter disabled)"))
        let sidecar = try String(contentsOfFile: pictures + "/capture_0001.json", encoding: .utf8)
        #expect(sidecar.contains("\"frame_index\":29"))
        #expect(sidecar.contains("\"shutter\":\"held\""))
    }

    /// Each picture waiting to be written holds its frame: requests beyond the backlog are refused
    /// until the writer catches up, so that a flood of requests cannot grow memory without end.
    @Test func requestsBeyondThePictureBacklogAreRefusedUntilTheWriterCatchesUp() async throws {
        let pictures = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: pictures) }
        let driver = try SessionDriver(pictures: pictures) { $0.pictureBacklog = 3 }
        let session = driver.session
        async let summary = session.run()
        for index in 0...5 { try await driver.feed(index) }
        let resume = session.holdPictureWriter()
        let answers = (0..<5).map { _ in session.requestPicture() }
        resume()
        // Once the three are written, a request is taken again.
        let deadline = ContinuousClock.now + .seconds(120)
        while session.picturesSaved < 3 {
            guard ContinuousClock.now < deadline else {
                Issue.record("the writer saved \(session.picturesSaved) of 3 pictures in 120 s")
                await driver.finish()
                _ = await summary
                return
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        for index in 6...8 { try await driver.feed(index) }
        let later = session.requestPicture()
        await driver.finish()
        let result = await summary

        let accepted = answers.filter { if case .accepted(frameIndex: 5) = $0 { true } else { false } }
        let busy = answers.filter { if case .refused(.busy(pending: 3)) = $0 { true } else { false } }
        #expect(accepted.count == 3 && busy.count == 2, "\(answers)")
        if case .accepted(frameIndex: 8) = later {} else { Issue.record("a request after the writer caught up: \(later)") }
        #expect(driver.saved.map(\.frameIndex) == [5, 5, 5, 8])
        #expect(result.pictures == LiveSummary.Pictures(saved: 4, busy: 2))
        #expect(result.description.contains("  pictures: 4 saved, 2 refused (earlier pictures still being written)"),
                "\(result.description)")
        #expect(driver.refused == [.busy(pending: 3), .busy(pending: 3)])
    }

    @Test func stopAfterEndsTheRunAndTheRecordingHoldsEveryFrame() async throws {
        let pictures = try TestPaths.temporaryFolder()
        let recording = try TestPaths.temporaryFolder() + "/recording"
        defer {
            try? FileManager.default.removeItem(atPath: pictures)
            try? FileManager.default.removeItem(atPath: (recording as NSString).deletingLastPathComponent)
        }
        let driver = try SessionDriver(pictures: pictures) {
            $0.stopAfter = 12
            $0.record = recording
        }
        let session = driver.session
        async let summary = session.run()
        var fed = 0
        while fed < driver.frames.count, try await driver.feed(fed) { fed += 1 }
        let result = await summary

        #expect(fed == 12)
        #expect(result.stopReason == "12 frames")
        #expect(result.statistics.framesReceived == 12)
        #expect(result.recording?.written == 12)
        #expect(result.recording?.failure == nil)
        let manifest = try String(contentsOfFile: recording + "/manifest.jsonl", encoding: .utf8)
        #expect(manifest.split(separator: "\n").count == 12)
        #expect(result.description.contains("  recording: 12 frames in \(recording)"))
        let replayed = try FrameFolder(path: recording)
        #expect(replayed.frames.map(\.time) == driver.frames.prefix(12).map(\.time))
    }

    @Test func stopKeepsTheFirstReasonAndEndsTheSource() async throws {
        let pictures = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: pictures) }
        let driver = try SessionDriver(pictures: pictures)
        let session = driver.session
        async let summary = session.run()
        for index in 0..<5 { try await driver.feed(index) }
        session.stop(reason: "quit")
        session.stop(reason: "Ctrl-C")
        await driver.finish()
        let result = await summary
        #expect(result.stopReason == "quit")
        #expect(result.statistics.framesReceived == 5)
        #expect(result.description.hasPrefix("stopped (quit): 5 frames received"))
    }

    @Test func aSourceErrorEndsTheRunAndIsInTheSummary() async throws {
        struct Unplugged: Error, CustomStringConvertible { var description: String { "the camera was disconnected" } }
        let pictures = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: pictures) }
        let driver = try SessionDriver(pictures: pictures)
        let session = driver.session
        async let summary = session.run()
        for index in 0..<3 { try await driver.feed(index) }
        await driver.fail(Unplugged())
        let result = await summary
        #expect(result.failure == "sample: the camera was disconnected")
        #expect(result.statistics.framesDetected == 3)
    }

    /// A control the camera-control lock could not set ends the stream with a `ControlError`,
    /// which names the device itself: the summary says the name once.
    @Test func anErrorThatNamesTheSourceIsNotPrefixedWithItAgain() async throws {
        struct Refused: Error, CustomStringConvertible {
            var description: String { "sample: exposure_absolute=400 cannot be set: the control is inactive" }
        }
        let pictures = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: pictures) }
        let driver = try SessionDriver(pictures: pictures)
        let session = driver.session
        async let summary = session.run()
        try await driver.feed(0)
        await driver.fail(Refused())
        let result = await summary
        #expect(result.failure == "sample: exposure_absolute=400 cannot be set: the control is inactive")
    }

    @Test func aRecordingFolderWithFilesIsRefusedBeforeAnythingStarts() throws {
        let pictures = try TestPaths.temporaryFolder()
        let recording = try TestPaths.temporaryFolder()
        defer {
            try? FileManager.default.removeItem(atPath: pictures)
            try? FileManager.default.removeItem(atPath: recording)
        }
        try Data("earlier".utf8).write(to: URL(fileURLWithPath: recording + "/frame_000000.jpg"))
        #expect {
            _ = try SessionDriver(pictures: pictures) { $0.record = recording }
        } throws: { error in
            guard case .recordingFolderNotEmpty(let path) = error as? LiveSessionError else { return false }
            return path == recording
        }
    }

    static func expiry(_ event: LiveSession.Event) -> LiveShutter.Expiry? {
        guard case .shutterExpired(let expiry) = event else { return nil }
        return expiry
    }

    /// A camera that stops sending frames while the board is seen: the shutter is disabled a hold
    /// after the last frame without any frame to say so, and a picture asked for then is refused.
    @Test func framesThatStopWhileEnabledDisableTheShutterByTheClock() async throws {
        let clock = ManualClock()
        let driver = try SessionDriver.camera(hold: .seconds(1), clock: clock)
        let session = driver.session
        async let summary = session.run()
        try await driver.feed(0...10)
        // Just short of the hold (and the grace after it): still enabled, and a picture may be taken.
        clock.advance(by: .milliseconds(999))
        session.requestPicture()
        let picture = try await driver.next("a picture") { event -> LiveSession.SavedPicture? in
            guard case .pictureSaved(let picture) = event else { return nil }
            return picture
        }
        #expect(picture.frameIndex == 10)
        clock.advance(by: .seconds(1))
        let expiry = try await driver.next("the hold to run out", Self.expiry)
        #expect(expiry.time == driver.frames[10].time + .seconds(1))
        #expect(expiry.lastFrame == 10)
        #expect(expiry.state.phase == .disabled)
        // 0.1 s after its hold the camera is said to be stalled, once; the session goes on.
        let stalled = try await driver.next("the camera stalled") { event -> Duration? in
            guard case .cameraChanged(0, .stalled(let limit)) = event else { return nil }
            return limit
        }
        #expect(stalled == .milliseconds(1100))
        session.requestPicture()
        let refusal = try await driver.next("a refusal") { event -> PictureError? in
            guard case .pictureRefused(let refusal) = event else { return nil }
            return refusal
        }
        #expect(refusal == .shutterDisabled)
        await driver.finish()
        let result = await summary
        #expect(result.pictures == LiveSummary.Pictures(saved: 1, refused: 1, failed: 0))
        #expect(result.stretches.map(\.end) == [driver.frames[10].time + .seconds(1)])
    }

    /// The same while a lost detection is held: disabled at the hold's deadline, counted from the
    /// first frame without the board, though no later frame arrives.
    @Test func framesThatStopWhileHeldDisableTheShutterAtTheHoldsDeadline() async throws {
        let clock = ManualClock()
        let driver = try SessionDriver.camera(hold: .seconds(1), clock: clock)
        let session = driver.session
        async let summary = session.run()
        try await driver.feed(0...31)
        #expect(driver.changes.map(\.phase) == ["enabled", "held"])
        clock.advance(by: .seconds(2))
        let expiry = try await driver.next("the hold to run out", Self.expiry)
        #expect(expiry.time == driver.frames[30].time + .seconds(1))
        #expect(expiry.lastFrame == 31)
        await driver.finish()
        let result = await summary
        #expect(result.stretches.map(\.end) == [driver.frames[30].time + .seconds(1)])
    }

    @Test func anUnpluggedCameraEndsTheRunAndTheSummaryNamesTheDeviceOnce() async throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let driver = try SessionDriver(pictures: folder + "/pictures", mayStall: true) { $0.clock = SessionClock(ManualClock()) }
        let session = driver.session
        async let summary = session.run()
        for index in 0..<3 { try await driver.feed(index) }
        await driver.fail(SourceError(.gone, "/dev/video7: VIDIOC_DQBUF failed: No such device (ENODEV): the camera was disconnected"))
        let result = await summary
        #expect(result.stopReason == "camera disconnected")
        #expect(result.description.hasPrefix("stopped (camera disconnected): 3 frames received"))
        let failure = try #require(result.failure)
        #expect(failure == "/dev/video7: VIDIOC_DQBUF failed: No such device (ENODEV): the camera was disconnected")
        #expect((result.description + "\n" + failure).components(separatedBy: "/dev/video7").count == 2)
        // Nothing was saved: the picture folder the session made is gone again.
        #expect(!FileManager.default.fileExists(atPath: folder + "/pictures"))
    }

    @Test func aSessionThatCannotStartLeavesNoFolderBehind() throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let pattern = try SessionDriver.pattern
        var configuration = LiveSession.Configuration(detector: try MarkerDetector(pattern: pattern),
                                                      rule: ValidityRule(defaultsFor: pattern), hold: .milliseconds(300),
                                                      pictures: folder + "/pictures")
        configuration.record = folder + "/recording"
        #expect {
            _ = try LiveSession(source: .replay(path: folder + "/no such folder", framesPerSecond: 30), configuration: configuration)
        } throws: { error in
            guard case .replay = error as? LiveSessionError else { return false }
            return true
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }
}
