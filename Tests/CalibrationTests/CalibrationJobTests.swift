import Calibration
import FileFormats
import Foundation
import MarkerDetection
import Synchronization
import SystemCalls
import Testing

/// `calibrate`'s whole work on the shared chessboard photos, and its last part alone (as `live
/// --calibrate` uses it), into temporary folders; stopped before and after the files are moved.
@Suite(.enabled(if: SharedPhotoTests.available, "the shared photos are not next to the package (../shared/images)"))
struct CalibrationJobTests {
    static let photos = SharedPhotoTests.folder
    static let pattern = "chessboard:9x6"
    static let fileNames = [
        "calibration.cameramodel", "calibration.json", "calibration.yaml", "camera_info.yaml", "coverage.png", "residuals.png", "uncertainty.png",
    ]

    /// The photos solved once, for the tests that only write.
    static let report: Result<CalibrationReport, any Error> = Result {
        let pictures = try PictureSet(folder: photos, pattern: Pattern(parsing: pattern))
        return CalibrationReport(result: try pictures.calibrate(.pinhole), pattern: pattern, cameraName: "left")
    }

    @Test func aRunReadsSolvesAndMovesEveryFileIntoPlace() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let job = CalibrationJob(into: root + "/cal", input: Self.photos)
        var read: [String] = []
        let written = try job.run(pictures: Self.photos, pattern: Pattern(parsing: Self.pattern), model: .pinhole,
                                  cameraName: "left", undistort: true) { pictures in
            read = pictures.views.map(\.name) + pictures.empty.map(\.name)
        }
        #expect(read == (1...9).map { "left0\($0).jpg" })
        #expect(written.paths == [
            "calibration.yaml", "camera_info.yaml", "calibration.json", "coverage.png", "residuals.png", "uncertainty.png",
            "calibration.cameramodel", "undistorted/",
        ].map { root + "/cal/" + $0 })
        #expect(SidecarFolder.contents(root) == ["cal"])  // no staged folder left
        #expect(SidecarFolder.contents(root + "/cal") == Self.fileNames + ["undistorted"])
        #expect(SidecarFolder.contents(root + "/cal/undistorted") == (1...9).map { "left0\($0).png" })
        #expect(written.report.result.run.views.count == 9)
        #expect(written.report.result.rejected.isEmpty)
        #expect(written.report.pattern == Self.pattern)
        #expect(try String(contentsOfFile: root + "/cal/calibration.yaml", encoding: .utf8) == written.report.openCVYAML)
        #expect(try String(contentsOfFile: root + "/cal/camera_info.yaml", encoding: .utf8) == written.report.cameraInfoYAML)
        #expect(try String(contentsOfFile: root + "/cal/calibration.json", encoding: .utf8) == written.report.json)
        // Stopped after the move: the files stay, and the stop says they were moved.
        #expect(job.stop())
        #expect(job.isStopped)
        #expect(SidecarFolder.contents(root + "/cal") == Self.fileNames + ["undistorted"])
    }

    @Test func aStopBeforeTheFolderIsMadeWritesNothing() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let job = CalibrationJob(into: root + "/cal", input: Self.photos)
        var movedBeforeStop: Bool?
        #expect(throws: CalibrationError.output(.notWritten(path: root + "/cal", reason: "stopped by a signal"))) {
            _ = try job.run(pictures: Self.photos, pattern: Pattern(parsing: Self.pattern), model: .pinhole) { _ in
                movedBeforeStop = job.stop()
            }
        }
        #expect(movedBeforeStop == false)
        #expect(job.isStopped)
        #expect(SidecarFolder.contents(root).isEmpty)
    }

    /// A stop after every file is written and before the move: the staged folder is removed,
    /// nothing is moved, and the stop says so.
    @Test func aStopJustBeforeTheMoveWritesNothing() throws {
        let report = try Self.report.get()
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let probe = StopProbe()
        let job = CalibrationJob(into: root + "/cal", input: nil) {
            let staged = SidecarFolder.contents(root)
            let moved = probe.job.withLock { $0 }?.stop()
            probe.seen.withLock { $0 = (staged, moved ?? true) }
        }
        probe.job.withLock { $0 = job }
        #expect(throws: CalibrationError.output(.notWritten(path: root + "/cal", reason: "the results were abandoned"))) {
            _ = try job.write(report)
        }
        let (staged, moved) = try #require(probe.seen.withLock { $0 })
        #expect(staged.count == 1 && staged[0].hasPrefix(".cal.") && staged[0].hasSuffix(".tmp"), "\(staged)")
        #expect(!moved)
        #expect(SidecarFolder.contents(root).isEmpty)
        #expect(!StagedPaths.current.contains { $0.hasPrefix(root + "/") })
    }

    /// `live --calibrate`'s part: a result solved elsewhere, written with no input folder.
    @Test func aSolvedReportIsWrittenAlone() throws {
        let report = try Self.report.get()
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let job = CalibrationJob(into: root + "/cal", input: nil)
        let paths = try job.write(report)
        #expect(paths == (CalibrationReport.fileNames + ["calibration.cameramodel"]).map { root + "/cal/" + $0 })
        #expect(SidecarFolder.contents(root) == ["cal"])
        #expect(SidecarFolder.contents(root + "/cal") == Self.fileNames)
        #expect(try String(contentsOfFile: root + "/cal/camera_info.yaml", encoding: .utf8) == report.cameraInfoYAML)
        #expect(try String(contentsOfFile: root + "/cal/camera_info.yaml", encoding: .utf8).contains("camera_name: \"left\"\n"))
    }

    @Test func aStoppedJobWritesNothingMore() throws {
        let report = try Self.report.get()
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let job = CalibrationJob(into: root + "/cal", input: nil)
        #expect(!job.stop())
        #expect(throws: CalibrationError.output(.notWritten(path: root + "/cal", reason: "stopped by a signal"))) {
            _ = try job.write(report)
        }
        #expect(SidecarFolder.contents(root).isEmpty)
    }

    /// A move refused after every file was written: the destination keeps what it had and the
    /// staged folder is removed (and no longer listed for a second signal to remove).
    @Test func aFailedMoveLeavesTheDestinationAsItWasAndNoStagedFolder() throws {
        let report = try Self.report.get()
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/cal/coverage.png", withIntermediateDirectories: true)
        try "old".write(toFile: root + "/cal/calibration.yaml", atomically: true, encoding: .utf8)
        let job = CalibrationJob(into: root + "/cal", input: nil)
        #expect(throws: CalibrationError.output(.notWritten(path: root + "/cal/coverage.png", reason: "it exists and is not a regular file"))) {
            _ = try job.write(report)
        }
        #expect(SidecarFolder.contents(root) == ["cal"])
        #expect(SidecarFolder.contents(root + "/cal") == ["calibration.yaml", "coverage.png"])
        #expect(try String(contentsOfFile: root + "/cal/calibration.yaml", encoding: .utf8) == "old")
        #expect(!StagedPaths.current.contains { $0.hasPrefix(root + "/") })
        #expect(!job.stop())  // nothing was moved into place
    }

    @Test func aDestinationWithFilesIsRefusedBeforeAnythingIsRead() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/cal", withIntermediateDirectories: true)
        try "mine".write(toFile: root + "/cal/notes.txt", atomically: true, encoding: .utf8)
        let job = CalibrationJob(into: root + "/cal", input: Self.photos)
        var read = false
        #expect(throws: CalibrationError.output(.folderNotEmpty(root + "/cal"))) {
            _ = try job.run(pictures: Self.photos, pattern: Pattern(parsing: Self.pattern), model: .pinhole) { _ in read = true }
        }
        #expect(!read)
        #expect(SidecarFolder.contents(root + "/cal") == ["notes.txt"])
    }

    /// Checked before anything is read: the pictures' folder here does not even exist.
    @Test func theInputFolderIsNeverWrittenInto() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let job = CalibrationJob(into: root + "/photos/cal", input: root + "/photos")
        #expect(throws: CalibrationError.output(.notWritten(
            path: root + "/photos/cal", reason: "it is inside the input folder \(root)/photos, which is never written into"))) {
            _ = try job.run(pictures: root + "/photos", pattern: Pattern(parsing: Self.pattern), model: .pinhole)
        }
        #expect(SidecarFolder.contents(root).isEmpty)
    }
}

/// What a job's stop just before its move saw: the job to stop, and what was in the folder then.
private final class StopProbe: Sendable {
    let job = Mutex<CalibrationJob?>(nil)
    let seen = Mutex<(staged: [String], moved: Bool)?>(nil)
}
