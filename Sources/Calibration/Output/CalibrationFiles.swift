import MarkerDetection
public import Pixels

extension CalibrationReport {
    /// The files ``write(into:)`` writes, in that order: what `marker-shutter calibrate` and
    /// `live --calibrate` leave in their output folder.
    public static let fileNames = ["calibration.yaml", "camera_info.yaml", "calibration.json", "coverage.png", "residuals.png"]

    /// Writes the calibration files into `output` (they appear at its ``OutputFolder/commit()``):
    /// the OpenCV and ROS YAML files, the JSON report, and the coverage and residual pictures.
    ///
    /// - Throws: ``CalibrationError/output(path:reason:)`` when a file cannot be written or a
    ///   picture encoded; ``CalibrationError/openCV(_:)`` when drawing fails.
    public func write(into output: OutputFolder) throws(CalibrationError) {
        try output.write(Array(openCVYAML.utf8), to: "calibration.yaml")
        try output.write(Array(cameraInfoYAML.utf8), to: "camera_info.yaml")
        try output.write(Array(json.utf8), to: "calibration.json")
        try output.write(try Self.png(CalibrationPictures.coverage(self), output: output), to: "coverage.png")
        try output.write(try Self.png(CalibrationPictures.residuals(self), output: output), to: "residuals.png")
    }

    /// `image` as PNG bytes.
    ///
    /// - Throws: ``CalibrationError/output(path:reason:)`` naming `output`'s folder when it cannot be encoded.
    public static func png(_ image: PixelBuffer, output: OutputFolder) throws(CalibrationError) -> [UInt8] {
        do {
            return try ImageFile.encode(image, as: .png)
        } catch {
            throw .output(path: output.path, reason: "a picture could not be encoded: \(error)")
        }
    }
}
