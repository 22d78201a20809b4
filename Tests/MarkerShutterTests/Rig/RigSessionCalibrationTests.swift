import Calibration
import Foundation
import MarkerDetection
@testable import MarkerShutter
import Testing

/// A rig's ``LiveSession`` with ``LiveSession/Configuration/rigCalibration``: the session solves its sets in the
/// background as it saves them and writes the rig's files when it ends, into their own folder. The
/// rig is OpenCV's stereo sample, replayed from a rig recording made here (each pair one second
/// apart, both frames at the same instant), as fast as detection goes.
@Suite struct RigSessionCalibrationTests {
    static let cameras = ["left", "right"]

    /// A rig recording of the stereo sample's 13 pairs in `folder`.
    static func recording(_ folder: String) throws {
        try "{\"cameras\":[{\"name\":\"left\",\"fps\":30},{\"name\":\"right\",\"fps\":30}]}\n"
            .write(toFile: folder + "/cameras.json", atomically: true, encoding: .utf8)
        var manifest = ""
        for (index, stem) in RigLiveCalibrationTests.sets.enumerated() {
            for camera in cameras {
                try FileManager.default.createDirectory(atPath: folder + "/" + camera, withIntermediateDirectories: true)
                try FileManager.default.copyItem(atPath: "\(RigLiveCalibrationTests.sample)/\(camera)/\(stem).jpg",
                                                 toPath: "\(folder)/\(camera)/\(stem).jpg")
                manifest += "{\"camera\":\"\(camera)\",\"file\":\"\(stem).jpg\",\"t\":\(index + 1),\"sequence\":\(index)}\n"
            }
        }
        try manifest.write(toFile: folder + "/manifest.jsonl", atomically: true, encoding: .utf8)
    }

    static func session(_ scratch: String, calibrationFolder: String) throws(LiveSessionError) -> LiveSession {
        let recording: RigRecording
        let configuration: LiveSession.Configuration
        do {
            recording = try RigRecording(folder: scratch + "/recording")
            let pattern = try Pattern(parsing: "chessboard:9x6")
            let rig = try RigShutterMachine.Configuration(cameras: recording.cameras, maxMotion: .off)
            var settings = LiveSession.Configuration(detector: try MarkerDetector(pattern: pattern), rule: ValidityRule(defaultsFor: pattern),
                                                     hold: .milliseconds(300), pictures: scratch + "/sets")
            settings.rig = rig
            settings.automatic = true
            settings.replayInRealTime = false
            settings.rigCalibration = RigLiveCalibration.Configuration(cameras: cameras, pictures: scratch + "/sets", folder: calibrationFolder)
            configuration = settings
        } catch {
            Issue.record("cannot prepare: \(error)")
            throw .replay("\(error)")
        }
        return try LiveSession(replaying: recording, configuration: configuration)
    }

    /// Every pair is a new view, so `--auto` takes them as sets; the rig is solved as they come
    /// (each solve an event) and, at the end, written: the baseline is OpenCV's (3.3265 squares,
    /// from cv2.stereoCalibrate on the same corners) within 1%.
    @Test func theSetsAreSolvedAsTheyComeAndTheFilesWrittenAtTheEnd() async throws {
        let scratch = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try FileManager.default.createDirectory(atPath: scratch + "/recording", withIntermediateDirectories: true)
        try Self.recording(scratch + "/recording")
        let session = try Self.session(scratch, calibrationFolder: scratch + "/rig")
        let collected = Task {
            var solves: [RigLiveCalibration.Update] = [], failures: [CalibrationError] = [], saved = 0
            for await event in session.events {
                switch event {
                case .rigCalibrated(let update): solves.append(update)
                case .calibrationFailed(let error): failures.append(error)
                case .pictureSaved: saved += 1
                default: break
                }
            }
            return (solves, failures, saved)
        }
        let summary = await session.run()
        let (solves, failures, saved) = await collected.value
        #expect(saved >= 3 && summary.pictures.saved == saved, "\(summary)")
        #expect(failures.isEmpty, "\(failures)")
        #expect(!solves.isEmpty, "no background solve")
        let calibration = try #require(summary.rigCalibration)
        #expect(calibration.failure == nil, "\(calibration.failure.map { "\($0)" } ?? "")")
        let update = try #require(calibration.update)
        #expect(update.report.result.sets.count == saved)
        let baseline = try #require(update.report.result.cameras.last?.extrinsics.baseline.value)
        #expect(abs(baseline - 3.3265) < 0.01 * 3.3265, "baseline \(baseline)")
        #expect(calibration.files.contains(scratch + "/rig/rig.yaml"), "\(calibration.files)")
        #expect(calibration.files.allSatisfy { FileManager.default.fileExists(atPath: $0) || $0.hasSuffix("/") })
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch + "/sets").allSatisfy {
            Self.cameras.contains($0) || $0.hasSuffix(".json")
        }, "only the sets in the sets' folder")
    }

    /// A calibration folder with files in it is refused before anything is made: no sets' folder.
    @Test func aCalibrationFolderWithFilesIsRefusedBeforeAnythingIsMade() throws {
        let scratch = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try FileManager.default.createDirectory(atPath: scratch + "/recording", withIntermediateDirectories: true)
        try Self.recording(scratch + "/recording")
        try FileManager.default.createDirectory(atPath: scratch + "/rig", withIntermediateDirectories: true)
        try "keep\n".write(toFile: scratch + "/rig/notes.txt", atomically: true, encoding: .utf8)
        #expect {
            _ = try Self.session(scratch, calibrationFolder: scratch + "/rig")
        } throws: { error in
            guard case LiveSessionError.calibration = error else { return false }
            return "\(error)".hasPrefix("cannot calibrate: ")
        }
        #expect(!FileManager.default.fileExists(atPath: scratch + "/sets"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch + "/rig") == ["notes.txt"])
    }
}
