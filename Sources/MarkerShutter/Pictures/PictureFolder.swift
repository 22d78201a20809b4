package import FileFormats
import Foundation
package import MarkerDetection

/// Where pictures go: each capture is a lossless PNG of the held frame, `capture_0001.png`, with a
/// JSON sidecar `capture_0001.json` (a ``PictureSidecar``) holding its detection and timestamp (and, when camera controls
/// were set, their values as `"controls": {"exposure_absolute": 400, "gain": 10}`).
///
/// Numbers continue after the highest already in the folder, so a new session never overwrites an
/// earlier one's pictures. Both files are written atomically (temporary name, flush, rename): an
/// interrupted capture leaves no partial file, and a failed one (full disk, read-only folder)
/// leaves every earlier picture as it was.
public struct PictureFolder: Sendable {
    /// One saved picture.
    public struct Saved: Sendable, Hashable {
        /// The picture's path.
        package let image: String
        /// The sidecar's path.
        package let sidecar: String
        /// The capture's number.
        package let number: Int
    }

    /// How a picture was asked for.
    public enum Trigger: String, Sendable {
        /// A key press or a `capture` command.
        case request
        /// `--auto` chose the view.
        case auto
    }

    /// The folder.
    package let path: String
    /// The pattern the detections are of, recorded in each sidecar.
    package let pattern: Pattern
    /// The number the next capture gets.
    package private(set) var nextNumber: Int

    /// Prepares a folder for pictures (making it if needed).
    ///
    /// - Throws: ``OutputError`` when the folder cannot be made or written to.
    package init(path: String, pattern: Pattern) throws(OutputError) {
        try SafeOutput.prepareFolder(path)
        self.path = path
        self.pattern = pattern
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        let taken = names.compactMap(Self.number(in:))
        nextNumber = (taken.max() ?? 0) + 1
    }

    /// Saves `observation`'s frame and its sidecar.
    ///
    /// - Parameters:
    ///   - observation: A valid observation with its pixels (the held frame).
    ///   - state: The shutter's state when the picture was taken.
    ///   - now: When the picture was taken (frame time), for the hold's age.
    ///   - trigger: Whether the user or `--auto` asked.
    /// - Throws: ``PictureError`` when there is no frame to save or a file cannot be written.
    package mutating func save(_ observation: FrameObservation, state: ShutterState<FrameObservation>,
                              at now: FrameTime, trigger: Trigger) throws(PictureError) -> Saved {
        guard let pixels = observation.pixels else { throw .noFrame }
        let number = nextNumber
        let base = (path as NSString).appendingPathComponent(String(format: "capture_%04d", number))
        let bytes: [UInt8]
        do {
            bytes = try ImageFile.encode(pixels, as: .png)
        } catch {
            throw .encoding("\(error)")
        }
        do {
            try SafeOutput.write(bytes, to: base + ".png")
        } catch {
            throw .write(error)
        }
        let sidecar = PictureSidecar(
            image: (base as NSString).lastPathComponent + ".png", pattern: pattern.description, trigger: trigger.rawValue,
            frameIndex: observation.index, t: observation.time.seconds, sequence: observation.sequence,
            sourceFile: observation.file, shutter: state.phase.description, holdAgeSeconds: state.holdAge(at: now)?.inSeconds,
            width: pixels.width, height: pixels.height, valid: observation.isValid, detection: observation.detection.recorded,
            sharpness: observation.detection.sharpness, controls: observation.controls.isEmpty ? nil : observation.controls)
        do {
            try SafeOutput.write(Array(sidecar.text.utf8), to: base + ".json")
        } catch {
            // A picture without its sidecar is not a capture: take it back so the pair stays whole.
            try? FileManager.default.removeItem(atPath: base + ".png")
            throw .write(error)
        }
        nextNumber += 1
        return Saved(image: base + ".png", sidecar: base + ".json", number: number)
    }

    /// The number in a capture file's name (`capture_0012.png` -> 12).
    static func number(in name: String) -> Int? {
        guard name.hasPrefix("capture_") else { return nil }
        let digits = name.dropFirst("capture_".count).prefix { $0.isASCII && $0.isNumber }
        return digits.isEmpty ? nil : Int(digits)
    }
}
