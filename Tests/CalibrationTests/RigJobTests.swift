import Calibration
import FileFormats
import Foundation
import Synchronization
import SystemCalls
import Testing

/// A rig's files go through the same staged folder as one camera's: all or nothing, and a stop
/// before the move leaves nothing.
@Suite struct RigJobTests {
    static let report = Result { RigReport(result: try RigCalibration.calibrate(try RigCalibrationTests.pair(seed: 1)), pattern: "synthetic") }

    /// Every file of the rig is moved into place together, and named in order.
    @Test func aRigReportIsWrittenWhole() throws {
        let report = try Self.report.get()
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let paths = try CalibrationJob(into: root + "/rig", input: nil).writeRig(report)
        #expect(paths == report.fileNames.map { root + "/rig/" + $0 })
        // A pinhole rig's camchain is left out (Kalibr's radtan has no k3); each camera alone has no camera_info.
        #expect(SidecarFolder.contents(root + "/rig") == ["camera_info", "left-alone", "mrcal", "rig.json", "rig.yaml", "right-alone"])
        #expect(SidecarFolder.contents(root + "/rig/camera_info") == ["left.yaml", "right.yaml"])
        #expect(SidecarFolder.contents(root + "/rig/mrcal") == ["left.cameramodel", "right.cameramodel"])
        #expect(SidecarFolder.contents(root + "/rig/left-alone") == CalibrationReport.ownSolveFileNames.sorted())
        #expect(!CalibrationReport.ownSolveFileNames.contains("camera_info.yaml"))
    }

    /// A stop after every file is written and before the move: nothing is moved, nothing staged stays.
    @Test func aStopJustBeforeTheMoveWritesNothing() throws {
        let report = try Self.report.get()
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let held = Mutex<CalibrationJob?>(nil)
        let moved = Mutex<Bool?>(nil)
        let job = CalibrationJob(into: root + "/rig", input: nil) {
            let result = held.withLock { $0 }?.stop()
            moved.withLock { $0 = result }
        }
        held.withLock { $0 = job }
        #expect(throws: CalibrationError.output(.notWritten(path: root + "/rig", reason: "the results were abandoned"))) {
            _ = try job.writeRig(report)
        }
        #expect(moved.withLock { $0 } == false)
        #expect(SidecarFolder.contents(root).isEmpty)
        #expect(!StagedPaths.current.contains { $0.hasPrefix(root + "/") })
    }
}
