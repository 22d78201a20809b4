import Dispatch
import FileFormats
import Foundation
public import MarkerDetection
public import Pixels
import Synchronization

/// The views in a folder of calibration pictures.
///
/// A folder with JSON sidecars (as `live` writes them: `capture_0001.png` with `capture_0001.json`)
/// is read from the sidecars' stored detections, without detecting again. Any other folder of
/// images is detected with the pattern given.
public struct PictureSet: Sendable {
    /// Where the views came from.
    public enum Source: String, Sendable {
        /// The sidecars' stored detections.
        case sidecars
        /// Detection over the folder's images.
        case detected
    }

    /// The folder.
    public let folder: String
    /// The pattern the views are of.
    public let pattern: Pattern
    /// How the views were found.
    public let source: Source
    /// One view per picture in which the target was found, in name order.
    public let views: [CalibrationView]
    /// Pictures in which the target was not found.
    public let empty: [RejectedView]
    /// The folder's image files by name.
    private let files: [String: FolderEntry]

    /// The image files detection reads.
    public static let imageExtensions: Set<String> = ["jpg", "jpeg", "png", "bmp", "tif", "tiff"]

    /// Reads the views of `folder`.
    ///
    /// - Parameters:
    ///   - folder: The folder of pictures.
    ///   - pattern: The target; needed for a folder without sidecars, and checked against the
    ///     sidecars' own pattern when there are some.
    /// - Throws: ``CalibrationError/unreadableInput(path:reason:)`` for a missing folder, a corrupted
    ///   sidecar, an unreadable image or a pattern that disagrees with the sidecars;
    ///   ``CalibrationError/patternWithoutLayout(_:)`` for loose markers.
    public init(folder: String, pattern: Pattern?) throws(CalibrationError) {
        let entries = try FolderEntry.list(folder)
        self.folder = folder
        let images = entries.filter { Self.imageExtensions.contains(($0.text as NSString).pathExtension.lowercased()) }
        let stems = Set(images.map { ($0.text as NSString).deletingPathExtension })
        let sidecars = entries.filter { $0.text.hasSuffix(".json") && stems.contains(($0.text as NSString).deletingPathExtension) }
        if !sidecars.isEmpty {
            var found: [(String, Pattern, CalibrationView, Detection)] = []
            var named: [String: String] = [:]
            for entry in sidecars {
                let sidecar = try Self.readSidecar(folder: folder, entry: entry)
                if let other = named.updateValue(entry.text, forKey: sidecar.2.name) {
                    throw .unreadableInput(
                        path: (folder as NSString).appendingPathComponent(entry.text),
                        reason: "corrupted sidecar: field \"image\" names \(sidecar.2.name), as \(other) does: each picture has one sidecar")
                }
                found.append(sidecar)
            }
            let patterns = Set(found.map(\.1))
            guard patterns.count == 1, let stored = patterns.first else {
                throw .unreadableInput(
                    path: folder,
                    reason: "its sidecars name different patterns (\(patterns.map(\.description).sorted().joined(separator: ", ")))")
            }
            if let pattern, !pattern.isSameTarget(resizedFrom: stored) {
                throw .unreadableInput(
                    path: folder, reason: "its sidecars were detected with \(stored), not the --pattern \(pattern)")
            }
            // A --pattern that gives the same target a size (or another one) lays the views out at it.
            let layout = try TargetLayout(pattern ?? stored)
            self.pattern = pattern ?? stored
            source = .sidecars
            let resized = pattern.map { $0 != stored } ?? false
            let all = found.map { sidecar in resized ? layout.view(named: sidecar.2.name, sidecar.3) : sidecar.2 }
            views = all.filter { !$0.points.isEmpty }
            empty = all.filter(\.points.isEmpty).map { RejectedView(name: $0.name, reason: "no target corners") }
            files = Dictionary(images.map { ($0.text, $0) }, uniquingKeysWith: { first, _ in first })
        } else {
            guard let pattern else {
                throw .unreadableInput(path: folder, reason: "it has no sidecars, so the target must be named with --pattern")
            }
            guard !images.isEmpty else { throw .unreadableInput(path: folder, reason: "it holds no JPEG, PNG, BMP or TIFF images") }
            self.pattern = pattern
            source = .detected
            let detected = try Self.detect(images, in: folder, pattern: pattern)
            views = detected.filter { !$0.points.isEmpty }
            empty = detected.filter(\.points.isEmpty).map { RejectedView(name: $0.name, reason: "target not found") }
            files = Dictionary(images.map { ($0.text, $0) }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// Calibrates `model` from these views; pictures without the target are reported as rejected.
    ///
    /// - Throws: What ``CameraCalibration/calibrate(_:model:setAside:)`` throws.
    public func calibrate(_ model: CameraModel) throws(CalibrationError) -> CalibrationResult {
        try CameraCalibration.calibrate(views, model: model, setAside: empty)
    }

    /// The path of a picture, as it is shown (a name that is not UTF-8 has its other bytes written `\xFF`).
    public func path(of name: String) -> String { (folder as NSString).appendingPathComponent(name) }

    /// Decodes the picture of a view (by its name's own bytes, when they are not UTF-8).
    ///
    /// - Throws: ``CalibrationError/unreadableInput(path:reason:)`` naming the picture.
    public func image(of name: String) throws(CalibrationError) -> PixelBuffer {
        try (files[name] ?? FolderEntry(text: name, bytes: nil)).image(in: folder)
    }

    /// Reads one sidecar, every field checked (see ``PictureSidecar``).
    private static func readSidecar(folder: String, entry: FolderEntry) throws(CalibrationError)
        -> (String, Pattern, CalibrationView, Detection)
    {
        let path = (folder as NSString).appendingPathComponent(entry.text)
        func bad(_ reason: String) -> CalibrationError { .unreadableInput(path: path, reason: "corrupted sidecar: \(reason)") }
        let sidecar: PictureSidecar
        do {
            sidecar = try PictureSidecar(parsing: try entry.contents(in: folder, limit: PictureSidecar.maximumBytes))
        } catch let problem as PictureSidecar.Problem {
            throw bad(problem.description)
        } catch let error as CalibrationError {
            throw error
        } catch {
            throw bad("\(error)")
        }
        let pattern: Pattern
        do {
            pattern = try Pattern(parsing: sidecar.pattern)
        } catch {
            throw bad("\(error)")
        }
        func point(_ point: PictureSidecar.Point) -> ImagePoint { ImagePoint(x: point.x, y: point.y) }
        let detection = Detection(
            imageSize: ImageSize(width: sidecar.width, height: sidecar.height),
            markers: sidecar.markers.map { Marker(id: $0.id, corners: $0.corners.map(point)) },
            boardCorners: sidecar.corners.map { BoardCorner(id: $0.id, point: point($0.point)) }, sharpness: nil, duration: .zero)
        let layout = try TargetLayout(pattern)
        return (entry.text, pattern, layout.view(named: sidecar.image, detection), detection)
    }

    /// Detects `pattern` in every image, on all cores; views keep the names' order.
    private static func detect(_ names: [FolderEntry], in folder: String, pattern: Pattern) throws(CalibrationError) -> [CalibrationView] {
        let layout = try TargetLayout(pattern)
        let detector: MarkerDetector
        do {
            detector = try MarkerDetector(pattern: pattern)
        } catch {
            throw .unreadableInput(path: pattern.description, reason: "\(error)")
        }
        let results = Mutex([Result<CalibrationView, CalibrationError>?](repeating: nil, count: names.count))
        DispatchQueue.concurrentPerform(iterations: names.count) { index in
            let outcome: Result<CalibrationView, CalibrationError>
            do throws(CalibrationError) {
                let image = try names[index].image(in: folder)
                do {
                    outcome = .success(layout.view(named: names[index].text, try detector.detect(image)))
                } catch {
                    outcome = .failure(.unreadableInput(path: (folder as NSString).appendingPathComponent(names[index].text), reason: "\(error)"))
                }
            } catch {
                outcome = .failure(error)
            }
            results.withLock { $0[index] = outcome }
        }
        var views: [CalibrationView] = []
        for outcome in results.withLock({ $0 }) {
            switch outcome {
            case .success(let view): views.append(view)
            case .failure(let error): throw error
            case nil: break
            }
        }
        return views
    }
}
