import FileFormats
import Foundation

extension CalibrationComparison {
    /// The picture ``write(into:replacing:)`` writes.
    public static let pictureName = "difference.png"

    /// Checks, before any work, that a picture may be written into `folder`: not into either
    /// calibration's folder, and over an existing ``pictureName`` only when `replacing`.
    ///
    /// - Throws: ``CalibrationError/output(_:)`` saying why not.
    public static func checkOutput(_ folder: String, inputs: [String], replacing: Bool) throws(CalibrationError) {
        do {
            for input in inputs {
                let parent = (input as NSString).deletingLastPathComponent
                try SafeOutput.Folder.check(path: folder, input: parent.isEmpty ? "." : parent)
            }
        } catch {
            throw .output(error)
        }
        let picture = (folder as NSString).appendingPathComponent(pictureName)
        var status = stat()
        if !replacing, lstat(picture, &status) == 0 { throw .output(.exists(picture)) }
    }

    /// Writes the projection difference as ``pictureName`` into `folder` (made if missing), which
    /// may not be, or lie inside, either calibration's folder; an existing picture is replaced only
    /// when `replacing`.
    ///
    /// - Returns: The path written.
    /// - Throws: ``CalibrationError/output(_:)`` when the folder is refused or the picture cannot
    ///   be written; ``CalibrationError/openCV(_:)`` when drawing fails.
    public func write(into folder: String, replacing: Bool) throws(CalibrationError) -> String {
        try Self.checkOutput(folder, inputs: [first.path, second.path], replacing: replacing)
        let inputs = [first.path, second.path].map { ($0 as NSString).deletingLastPathComponent }
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
