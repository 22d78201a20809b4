import Calibration
import Foundation
import MarkerDetection
@testable import MarkerShutter
import Testing

/// What `live` shows for calibration, in-process on the sample session (see ``SessionDriver``):
/// each frame's view and the pictures' coverage, and `--calibrate`'s background solves and files.
@Suite struct LiveGuidanceTests {
    /// Runs the whole sample with `--auto`; `change` adjusts the configuration further.
    static func runSample(pictures: String, change: (inout LiveSession.Configuration) -> Void = { _ in }) async throws
        -> (SessionDriver, LiveSummary)
    {
        let driver = try SessionDriver(pictures: pictures) {
            $0.automatic = true
            change(&$0)
        }
        let session = driver.session
        async let summary = session.run()
        for index in driver.frames.indices { try await driver.feed(index) }
        await driver.finish()
        return (driver, await summary)
    }

    @Test func everyFrameCarriesItsViewAndTheCoverageOfThePicturesTaken() async throws {
        let pictures = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: pictures) }
        let (driver, result) = try await Self.runSample(pictures: pictures)

        let guidance = driver.guidance
        #expect(guidance.map(\.frame) == Array(0..<120))
        // The coverage counts each automatic picture from its own frame on.
        let taken = driver.saved.map(\.frameIndex)
        #expect(taken == [0, 5, 44, 48, 57, 62])
        for (frame, shown) in guidance {
            #expect(shown.pictures == taken.filter { $0 <= frame }.count, "frame \(frame)")
        }
        // A frame's view is its detection's, and a frame taken adds nothing more to the coverage.
        for (frame, shown) in guidance where taken.contains(frame) {
            let gains = try #require(shown.gains)
            #expect(gains.total == 0, "frame \(frame)")
        }
        // The board is out of view from frame 81 until frame 102: no view there.
        #expect(guidance[90].guidance.view == nil)
        #expect(guidance[90].guidance.gains == nil)
        let first = try #require(guidance[0].guidance.view)
        #expect(abs(first.x - 0.5) < 0.01 && abs(first.size - 0.32) < 0.01)
        // The last frame's coverage is the summary's, made of the six pictures' views.
        #expect(result.coverage.views.count == 6)
        #expect(guidance.last?.guidance.coverage == result.coverage.progress)
        #expect(result.coverage.views.map { $0 as BoardView? } == taken.map { guidance[$0].guidance.view })
        let lines = result.description.split(separator: "\n").map(String.init)
        #expect(lines[3] == "  pictures " + result.coverage.statusText)
        #expect(lines[3].hasPrefix("  pictures cover x "))
    }

    @Test func aPictureAskedForCountsInTheCoverage() async throws {
        let pictures = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: pictures) }
        let driver = try SessionDriver(pictures: pictures)
        let session = driver.session
        async let summary = session.run()
        try await driver.feed(0...10)
        session.requestPicture()
        try await driver.feed(11...12)
        await driver.finish()
        let result = await summary
        #expect(driver.saved.map(\.frameIndex) == [10])
        #expect(driver.guidance.map(\.guidance.pictures) == Array(repeating: 0, count: 11) + [1, 1])
        #expect(result.coverage.views.map { $0 as BoardView? } == [driver.guidance[10].guidance.view])
    }

    /// `--calibrate` on the sample's six automatic pictures: solves as they come, one at a time,
    /// each over more pictures than the one before; the last covers them all, and its files are written.
    @Test func calibrateSolvesAsPicturesComeAndWritesTheFilesAtTheEnd() async throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (driver, result) = try await Self.runSample(pictures: folder + "/pictures") {
            $0.calibration = LiveCalibration.Configuration(folder: folder + "/calibration")
        }
        #expect(driver.saved.count == 6)
        let solves = driver.calibrations
        try #require(!solves.isEmpty)
        // However fast the machine: at least three pictures each, more each time, the last with all six.
        #expect(solves.allSatisfy { $0.pictures >= CameraModel.pinhole.minimumViews })
        #expect(zip(solves, solves.dropFirst()).allSatisfy { $0.pictures < $1.pictures })
        let last = try #require(solves.last)
        #expect(last.pictures == 6 && last.views == 6)
        #expect(last.rms > 0 && last.rms < 0.5)
        #expect(last.focalLengths.map(\.name) == ["fx", "fy"])
        // Six views of a small target in mid-frame leave the focal length uncertain by over 1%.
        #expect(!last.isGood)
        #expect(last.focalLengths.contains { $0.interval95 > 0.01 * $0.value })

        let written = driver.events.compactMap { event -> [String]? in
            guard case .calibrationWritten(let files) = event else { return nil }
            return files
        }
        #expect(written == [(CalibrationReport.fileNames + ["calibration.cameramodel"]).map { folder + "/calibration/" + $0 }])
        for file in written.first ?? [] { #expect(FileManager.default.fileExists(atPath: file), "\(file)") }
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/calibration/calibration.json")))
        let views = ((json as? [String: Any])?["first_run"] as? [String: Any])?["views"] as? [Any]
        #expect(views?.count == 6)
        #expect(result.calibration?.update?.views == 6)
        #expect(result.calibration?.failure == nil)
        #expect(!result.writesFailed)
        // The sample's board stays in the middle: the map is weak at a corner and the summary says where.
        let advice = try #require(result.calibration?.update?.uncertaintyAdvice)
        #expect(advice.hasPrefix("the projection uncertainty reaches "))
        #expect(result.description.hasSuffix(
            "\n  " + last.description + "\n  calibration written to \(folder)/calibration\n  advice: " + advice))
    }

    /// Live's "good" is `calibrate`'s verdict: loose RMS and focal-length limits do not make the
    /// sample's six pictures of a board in mid-frame good, since the verdict also wants the image
    /// covered, the map under 1 px over 90% of it and halves compared (8 views and more).
    @Test func liveSaysTheVerdictCalibrateSays() async throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var calibration = LiveCalibration.Configuration(folder: folder + "/calibration")
        calibration.goodFocalInterval = 0.5
        calibration.goodRMS = 5
        let (driver, result) = try await Self.runSample(pictures: folder + "/pictures") { $0.calibration = calibration }
        let last = try #require(driver.calibrations.last)
        #expect(!last.isGood)
        #expect(last.description.hasSuffix("; verdict: \(last.verdict)"))
        #expect(last.verdict.reasons.contains { $0.hasPrefix("the halves were not compared") }, "\(last.verdict)")
        var report = CalibrationReport(result: last.result, pattern: "chessboard:9x6")
        report.thresholds = calibration.thresholds
        report.crossValidate(nil)
        #expect(report.verdict == last.verdict)
        #expect(result.calibration?.update?.isGood == false)
        let strict = LiveCalibration.Configuration(folder: folder)
        #expect(strict.goodText
            == "corners over 50% of the image, projection uncertainty under 1 px over 90% of it, consistent halves, RMS under 0.5 px, focal lengths within 1%")
    }

    @Test func tooFewPicturesWriteNothingAndSaySo() async throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let driver = try SessionDriver(pictures: folder + "/pictures") {
            $0.calibration = LiveCalibration.Configuration(folder: folder + "/calibration")
        }
        let session = driver.session
        async let summary = session.run()
        try await driver.feed(0...10)
        session.requestPicture()
        await driver.finish()
        let result = await summary
        #expect(driver.saved.count == 1)
        #expect(driver.calibrations.isEmpty)
        let failure = try #require(result.calibration?.failure)
        guard case .tooFewViews(let usable, let needed, _, _) = failure else {
            Issue.record("expected too few views, got \(failure)")
            return
        }
        #expect(usable == 1 && needed == 3)
        #expect(result.writesFailed)
        #expect(result.description.hasSuffix("\n  calibration not written: \(failure)"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/calibration"))
    }

    @Test func aCalibrationFolderWithFilesIsRefusedUnlessReplacing() throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/calibration", withIntermediateDirectories: true)
        try Data("earlier".utf8).write(to: URL(fileURLWithPath: folder + "/calibration/calibration.yaml"))
        #expect {
            _ = try SessionDriver(pictures: folder + "/pictures") {
                $0.calibration = LiveCalibration.Configuration(folder: folder + "/calibration")
            }
        } throws: { error in
            guard case .calibrationFolderNotEmpty(let path) = error as? LiveSessionError else { return false }
            return path == folder + "/calibration"
        }
        // Nothing was made before the refusal.
        #expect(!FileManager.default.fileExists(atPath: folder + "/pictures"))
        var replacing = LiveCalibration.Configuration(folder: folder + "/calibration")
        replacing.replacing = true
        _ = try SessionDriver(pictures: folder + "/pictures") { $0.calibration = replacing }
    }

    @Test func looseMarkersCannotBeCalibrated() throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let pattern = try Pattern(parsing: "aruco:DICT_6X6_250")
        var configuration = LiveSession.Configuration(detector: try MarkerDetector(pattern: pattern),
                                                      rule: ValidityRule(defaultsFor: pattern), hold: .milliseconds(300),
                                                      pictures: folder + "/pictures")
        configuration.calibration = LiveCalibration.Configuration(folder: folder + "/calibration")
        #expect {
            _ = try LiveSession(source: .replay(path: SampleSessionTests.folder, framesPerSecond: 30), configuration: configuration)
        } throws: { error in
            guard case .calibration(.patternWithoutLayout) = error as? LiveSessionError else { return false }
            return true
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }
}
