import FileFormats
import Foundation
import MarkerDetection

/// Where a rig's sets go, in the ``RigPictureLayout``: `PICTURES/<camera>/set_0001.png` with its
/// single-camera sidecar `PICTURES/<camera>/set_0001.json`, for each camera of the set, then the
/// set's sidecar `PICTURES/set_0001.json`, written last: a set whose sidecar is there is whole.
///
/// Numbers continue after the highest set already in the folder. Every file is written atomically;
/// when one cannot be, the files of the set already written are taken back, and earlier sets stay
/// as they were.
struct RigPictureFolder: Sendable {
    /// One camera's frame of a set, to save.
    struct Frame: Sendable {
        /// The camera's name.
        let camera: String
        /// The camera's device (or recording).
        let device: String?
        /// The frame, valid, with its pixels.
        let observation: FrameObservation
        /// The board's motion in it, in pixels per frame.
        let motion: Double?

        /// Describes one camera's frame of a set.
        init(camera: String, device: String?, observation: FrameObservation, motion: Double?) {
            self.camera = camera
            self.device = device
            self.observation = observation
            self.motion = motion
        }
    }

    /// One set saved.
    struct Saved: Sendable, Hashable {
        /// The set's stem (`set_0001`).
        let stem: String
        /// The set's number.
        let number: Int
        /// The set's sidecar.
        let sidecar: String
        /// Each camera's picture, in the set's order.
        let images: [String]
        /// The largest time difference between the set's frames.
        let largestDifference: Double
    }

    /// The layout.
    let layout: RigPictureLayout
    /// The pattern the detections are of.
    let pattern: Pattern
    /// The number the next set gets.
    private(set) var nextNumber: Int

    /// Prepares the folder (making it if needed).
    ///
    /// - Throws: ``OutputError`` when it cannot be made or written to.
    init(path: String, pattern: Pattern) throws(OutputError) {
        try SafeOutput.prepareFolder(path)
        layout = RigPictureLayout(folder: path)
        self.pattern = pattern
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        nextNumber = (names.compactMap(Self.number(in:)).max() ?? 0) + 1
    }

    /// Saves a set: each camera's frame and sidecar, then the set's sidecar.
    ///
    /// - Parameters:
    ///   - frames: One frame per camera, in the rig's order.
    ///   - trigger: Who asked.
    ///   - syncTolerance: The tolerance the set was taken under.
    ///   - maxMotion: The motion limit it was taken under; `nil` when off.
    /// - Throws: ``PictureError`` when a frame has no pixels or a file cannot be written (nothing of
    ///   the set is left then).
    mutating func save(_ frames: [Frame], trigger: PictureFolder.Trigger, syncTolerance: Duration,
                              maxMotion: Double?) throws(PictureError) -> Saved {
        let number = nextNumber
        let stem = String(format: "set_%04d", number)
        var written: [String] = []
        func undo() { for path in written.reversed() { try? FileManager.default.removeItem(atPath: path) } }
        var cameras: [RigSetSidecar.Camera] = []
        for frame in frames {
            let observation = frame.observation
            guard let pixels = observation.pixels else {
                undo()
                throw .noFrame
            }
            do {
                try SafeOutput.prepareFolder(layout.cameraFolder(frame.camera))
                let bytes: [UInt8]
                do { bytes = try ImageFile.encode(pixels, as: .png) } catch {
                    undo()
                    throw PictureError.encoding("\(error)")
                }
                let image = layout.image(camera: frame.camera, stem: stem)
                try SafeOutput.write(bytes, to: image)
                written.append(image)
                let sidecar = PictureSidecar(
                    image: stem + ".png", pattern: pattern.description, trigger: trigger.rawValue, frameIndex: observation.index,
                    t: observation.time.seconds, sequence: observation.sequence, sourceFile: observation.file, shutter: "enabled",
                    holdAgeSeconds: nil, width: pixels.width, height: pixels.height, valid: observation.isValid,
                    detection: observation.detection.recorded, sharpness: observation.detection.sharpness,
                    controls: observation.controls.isEmpty ? nil : observation.controls)
                let sidecarPath = layout.cameraSidecar(camera: frame.camera, stem: stem)
                try SafeOutput.write(Array(sidecar.text.utf8), to: sidecarPath)
                written.append(sidecarPath)
            } catch let error as PictureError {
                throw error
            } catch let error as OutputError {
                undo()
                throw .write(error)
            } catch {
                undo()
                throw .encoding("\(error)")
            }
            cameras.append(RigSetSidecar.Camera(
                name: frame.camera, device: frame.device, frameIndex: observation.index, t: observation.time.seconds,
                sequence: observation.sequence, valid: observation.isValid, markers: observation.detection.markers.count,
                corners: observation.detection.boardCorners.count, motion: frame.motion))
        }
        let set = RigSetSidecar(set: stem, trigger: trigger.rawValue, syncTolerance: syncTolerance.inSeconds, maxMotion: maxMotion,
                                cameras: cameras)
        let setPath = layout.setSidecar(stem: stem)
        do {
            try SafeOutput.write(Array(set.text.utf8), to: setPath)
        } catch {
            undo()
            throw .write(error)
        }
        nextNumber += 1
        return Saved(stem: stem, number: number, sidecar: setPath, images: frames.map { layout.image(camera: $0.camera, stem: stem) },
                     largestDifference: set.largestDifference)
    }

    /// The number in a set sidecar's name (`set_0012.json` -> 12).
    static func number(in name: String) -> Int? {
        guard name.hasPrefix("set_") else { return nil }
        let digits = name.dropFirst("set_".count).prefix { $0.isASCII && $0.isNumber }
        return digits.isEmpty ? nil : Int(digits)
    }
}
