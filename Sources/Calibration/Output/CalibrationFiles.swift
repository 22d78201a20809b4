public import FileFormats
import Foundation
import MarkerDetection
public import Pixels

extension CalibrationReport {
    /// The files ``write(into:)`` writes, in that order: what `marker-shutter calibrate` and
    /// `live --calibrate` leave in their output folder.
    public static let fileNames = ["calibration.yaml", "camera_info.yaml", "calibration.json", "coverage.png", "residuals.png",
                                    "uncertainty.png"]

    /// The files of a rig's camera calibrated on its own: ``fileNames`` but camera_info.yaml (the
    /// rig's `camera_info/` holds the joint solve's, the one to use).
    public static var ownSolveFileNames: [String] { fileNames.filter { $0 != "camera_info.yaml" } }

    /// mrcal's model of the camera (``MrcalCameraModel``), written as calibration.cameramodel.
    public var mrcalModel: MrcalCameraModel {
        MrcalCameraModel(camera: result.camera, source: "camera \(cameraName) on its own (pattern \(pattern))")
    }

    /// Every file ``write(into:folder:ownSolveOfRig:)`` writes for one camera: ``fileNames``, then
    /// calibration.cameramodel when mrcal holds the camera.
    public var writtenFileNames: [String] { Self.fileNames + (mrcalModel.text == nil ? [] : ["calibration.cameramodel"]) }

    /// Writes the calibration files into `output` (they appear at its ``SafeOutput/Folder/commit()``):
    /// the OpenCV and ROS YAML files, the JSON report, and the coverage, residual and
    /// projection-uncertainty pictures; into
    /// its subfolder `folder` when one is named (a rig's camera).
    ///
    /// - Throws: ``CalibrationError/nonFiniteSolve(_:)`` before anything is written when a run
    ///   holds a value that is not a finite number; ``CalibrationError/output(_:)`` when a
    ///   file cannot be written or a picture encoded; ``CalibrationError/openCV(_:)`` when drawing fails.
    /// With `ownSolveOfRig`, the files of a rig's camera on its own (``ownSolveFileNames``).
    public func write(into output: SafeOutput.Folder, folder: String? = nil, ownSolveOfRig: Bool = false) throws(CalibrationError) {
        let prefix = folder.map { $0 + "/" } ?? ""
        for run in [result.firstRun] + (result.finalRun.map { [$0] } ?? []) {
            if let value = run.firstNonFiniteValue { throw .nonFiniteSolve(value) }
        }
        try Self.write(Array(openCVYAML.utf8), to: prefix + "calibration.yaml", into: output)
        if !ownSolveOfRig { try Self.write(Array(cameraInfoYAML.utf8), to: prefix + "camera_info.yaml", into: output) }
        try Self.write(Array(json.utf8), to: prefix + "calibration.json", into: output)
        try Self.write(try Self.png(CalibrationPictures.coverage(self), output: output), to: prefix + "coverage.png", into: output)
        try Self.write(try Self.png(CalibrationPictures.residuals(self), output: output), to: prefix + "residuals.png", into: output)
        try Self.write(try Self.png(CalibrationPictures.uncertainty(self), output: output), to: prefix + "uncertainty.png", into: output)
        if !ownSolveOfRig, let model = mrcalModel.text {
            try Self.write(Array(model.utf8), to: prefix + "calibration.cameramodel", into: output)
        }
    }

    /// Writes every view's picture of `pictures`, undistorted by the calibrated camera
    /// (``Camera/undistort(_:)``), into `undistorted/` of `output` as PNG, named after the picture
    /// (`left01.jpg` becomes `undistorted/left01.png`; pictures whose names differ only in their
    /// extension keep it: `a.jpg.png`).
    ///
    /// - Throws: ``CalibrationError/unreadableInput(path:reason:)`` for a picture that cannot be
    ///   read, and what ``SafeOutput/Folder/write(_:to:)`` throws.
    public func writeUndistorted(_ pictures: PictureSet, into output: SafeOutput.Folder) throws(CalibrationError) {
        let stems = Dictionary(grouping: pictures.withTarget) { ($0 as NSString).deletingPathExtension }
        for picture in pictures.withTarget {
            let stem = (picture as NSString).deletingPathExtension
            let name = "undistorted/" + ((stems[stem]?.count ?? 0) > 1 ? picture : stem) + ".png"
            try Self.write(try Self.png(result.camera.undistort(pictures.image(of: picture)), output: output), to: name, into: output)
        }
    }

    /// `image` as PNG bytes.
    ///
    /// - Throws: ``CalibrationError/output(_:)`` naming `output`'s folder when it cannot be encoded.
    public static func png(_ image: PixelBuffer, output: SafeOutput.Folder) throws(CalibrationError) -> [UInt8] {
        do {
            return try ImageFile.encode(image, as: .png)
        } catch {
            throw .output(.notWritten(path: output.path, reason: "a picture could not be encoded: \(error)"))
        }
    }

    /// Writes one file into `output`.
    ///
    /// - Throws: ``CalibrationError/output(_:)`` with what ``SafeOutput/Folder/write(_:to:)`` throws.
    static func write(_ bytes: [UInt8], to name: String, into output: SafeOutput.Folder) throws(CalibrationError) {
        do {
            try output.write(bytes, to: name)
        } catch {
            throw .output(error)
        }
    }
}
