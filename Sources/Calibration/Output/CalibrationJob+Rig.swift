import FileFormats
import Foundation
public import MarkerDetection

extension CalibrationJob {
    /// What ``runRig(cameras:rigFolder:pattern:models:model:rectify:replacing:onRead:)`` made.
    public struct RigWritten: Sendable {
        /// The rig calibration and what is said about it.
        public let report: RigReport
        /// The paths written (the destination joined with each of ``RigReport/fileNames``, then
        /// `rectified/` when pictures were rectified).
        public let paths: [String]
    }

    /// Reads a rig's pictures, solves the rig (``RigCalibration``), describes it (``RigReport``)
    /// and writes its files, with the rectified pairs, into a staged folder moved into place together.
    ///
    /// - Parameters:
    ///   - cameras: Each camera's name and folder, the reference first; ignored when `rigFolder` is given.
    ///   - rigFolder: A rig picture folder (``RigPictureSet/isRigFolder(_:)``), or `nil`.
    ///   - pattern: The target, for folders without sidecars.
    ///   - models: Lens models by camera name.
    ///   - model: The lens model of every camera not in `models`.
    ///   - rectify: Whether the rectified pairs are written into `rectified/`.
    ///   - replacing: Whether a destination that has files may have them replaced.
    ///   - onRead: Told the pictures once they are read, before the solve.
    /// - Throws: ``CalibrationError/output(_:)`` for a destination refused (inside any camera's
    ///   folder, or with files when not `replacing`) or a file not written; what
    ///   ``RigPictureSet``, ``RigCalibration/calibrate(_:refinement:refinesIntrinsics:)`` and
    ///   ``writeRig(_:rectifying:)`` throw.
    public func runRig(
        cameras: [(name: String, folder: String)], rigFolder: String? = nil, pattern: Pattern?, models: [String: CameraModel] = [:],
        model: CameraModel = .pinhole, rectify: Bool = true, replacing: Bool = false, onRead: (RigPictureSet) -> Void = { _ in }
    ) throws(CalibrationError) -> RigWritten {
        do throws(OutputError) {
            try SafeOutput.Folder.check(path: destination, input: input, replacing: replacing)
            for camera in cameras { try SafeOutput.Folder.check(path: destination, input: camera.folder) }
        } catch {
            throw .output(error)
        }
        let pictures: RigPictureSet
        if let rigFolder {
            pictures = try RigPictureSet(rigFolder: rigFolder, pattern: pattern)
        } else {
            pictures = try RigPictureSet(cameras: cameras, pattern: pattern)
        }
        for name in models.keys where !pictures.names.contains(name) {
            throw .rigInput("--model names camera \(name), which the rig does not have (\(pictures.names.joined(separator: ", ")))")
        }
        onRead(pictures)
        let result = try RigCalibration.calibrate(pictures.cameras(models: models, model: model))
        let report = RigReport(result: result, pattern: pictures.pattern.description)
        let paths = try writeRig(report, rectifying: rectify ? pictures : nil)
        return RigWritten(report: report, paths: paths)
    }

    /// Writes the files of `report` (``RigReport/write(into:)``) and, when `pictures` are given,
    /// the rectified pairs (``RigReport/writeRectified(_:into:)``) into a staged folder, then moves
    /// them into the destination together; as ``write(_:undistorting:)`` does for one camera.
    ///
    /// - Returns: The paths written.
    /// - Throws: What ``write(_:undistorting:)`` throws.
    public func writeRig(_ report: RigReport, rectifying pictures: RigPictureSet? = nil) throws(CalibrationError) -> [String] {
        try staged { output throws(CalibrationError) in
            try report.write(into: output)
            guard let pictures else { return report.fileNames }
            try report.writeRectified(pictures.pictures, into: output)
            return report.fileNames + (report.rectifiedNames.isEmpty ? [] : ["rectified/"])
        }
    }
}
