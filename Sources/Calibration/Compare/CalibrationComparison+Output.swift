import FileFormats
import Foundation

extension CalibrationComparison {
    /// The picture ``write(into:)`` writes.
    public static let pictureName = "difference.png"

    /// Writes the projection difference as ``pictureName`` into `folder` (made if missing), which
    /// may not be, or lie inside, either calibration's folder.
    ///
    /// - Returns: The path written.
    /// - Throws: ``CalibrationError/output(_:)`` when the folder is refused or the picture cannot
    ///   be written; ``CalibrationError/openCV(_:)`` when drawing fails.
    public func write(into folder: String) throws(CalibrationError) -> String {
        let inputs = [first.path, second.path].map { ($0 as NSString).deletingLastPathComponent }
        do {
            for input in inputs { try SafeOutput.Folder.check(path: folder, input: input.isEmpty ? "." : input) }
        } catch {
            throw .output(error)
        }
        let picture = try CalibrationPictures.difference(self)
        let output: SafeOutput.Folder
        do {
            output = try SafeOutput.Folder(path: folder, input: inputs[0].isEmpty ? "." : inputs[0])
        } catch {
            throw .output(error)
        }
        let bytes: [UInt8]
        do {
            bytes = try CalibrationReport.png(picture, output: output)
        } catch {
            output.abandon()
            throw error
        }
        do {
            try output.write(bytes, to: Self.pictureName)
            try output.commit()
        } catch {
            output.abandon()
            throw .output(error)
        }
        return (folder as NSString).appendingPathComponent(Self.pictureName)
    }
}
