import Dispatch
import Foundation
public import MarkerDetection
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
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }.sorted()
        } catch {
            throw .unreadableInput(path: folder, reason: "not a readable folder")
        }
        self.folder = folder
        let images = names.filter { Self.imageExtensions.contains(($0 as NSString).pathExtension.lowercased()) }
        let stems = Set(images.map { ($0 as NSString).deletingPathExtension })
        let sidecars = names.filter { $0.hasSuffix(".json") && stems.contains(($0 as NSString).deletingPathExtension) }
        if !sidecars.isEmpty {
            var found: [(String, Pattern, CalibrationView)] = []
            for name in sidecars {
                found.append(try Self.readSidecar(folder: folder, name: name))
            }
            let patterns = Set(found.map(\.1))
            guard patterns.count == 1, let stored = patterns.first else {
                throw .unreadableInput(
                    path: folder,
                    reason: "its sidecars name different patterns (\(patterns.map(\.description).sorted().joined(separator: ", ")))")
            }
            if let pattern, pattern != stored {
                throw .unreadableInput(
                    path: folder, reason: "its sidecars were detected with \(stored), not the --pattern \(pattern)")
            }
            self.pattern = stored
            source = .sidecars
            views = found.map(\.2).filter { !$0.points.isEmpty }
            empty = found.map(\.2).filter(\.points.isEmpty).map { RejectedView(name: $0.name, reason: "no target corners") }
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
        }
    }

    /// Calibrates `model` from these views; pictures without the target are reported as rejected.
    ///
    /// - Throws: What ``CameraCalibration/calibrate(_:model:setAside:)`` throws.
    public func calibrate(_ model: CameraModel) throws(CalibrationError) -> CalibrationResult {
        try CameraCalibration.calibrate(views, model: model, setAside: empty)
    }

    /// The path of a picture.
    public func path(of name: String) -> String { (folder as NSString).appendingPathComponent(name) }

    private static func readSidecar(folder: String, name: String) throws(CalibrationError) -> (String, Pattern, CalibrationView) {
        let path = (folder as NSString).appendingPathComponent(name)
        func bad(_ reason: String) -> CalibrationError { .unreadableInput(path: path, reason: "corrupted sidecar: \(reason)") }
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadableInput(path: path, reason: "cannot be read") }
        guard let object = try? JSONSerialization.jsonObject(with: data), let fields = object as? [String: Any] else {
            throw bad("not a JSON object")
        }
        guard let text = fields["pattern"] as? String else { throw bad("no \"pattern\" string") }
        let pattern: Pattern
        do {
            pattern = try Pattern(parsing: text)
        } catch {
            throw bad("\(error)")
        }
        guard let width = fields["width"] as? Int, let height = fields["height"] as? Int, width > 0, height > 0 else {
            throw bad("no positive \"width\" and \"height\"")
        }
        guard let image = fields["image"] as? String else { throw bad("no \"image\" name") }
        guard let cornerList = fields["corners"] as? [Any], let markerList = fields["markers"] as? [Any] else {
            throw bad("no \"corners\" and \"markers\" lists")
        }
        func point(_ value: Any?) -> ImagePoint? {
            guard let pair = value as? [Any], pair.count == 2, let x = (pair[0] as? NSNumber)?.doubleValue,
                  let y = (pair[1] as? NSNumber)?.doubleValue, x.isFinite, y.isFinite else { return nil }
            return ImagePoint(x: x, y: y)
        }
        var corners: [BoardCorner] = []
        for (index, entry) in cornerList.enumerated() {
            guard let entry = entry as? [String: Any], let id = entry["id"] as? Int, let xy = point(entry["xy"]) else {
                throw bad("corner \(index) is not {\"id\": integer, \"xy\": [x, y]}")
            }
            corners.append(BoardCorner(id: id, point: xy))
        }
        var markers: [Marker] = []
        for (index, entry) in markerList.enumerated() {
            guard let entry = entry as? [String: Any], let id = entry["id"] as? Int, let list = entry["corners"] as? [Any],
                  list.count == 4 else {
                throw bad("marker \(index) is not {\"id\": integer, \"corners\": [4 points]}")
            }
            let points = list.compactMap(point)
            guard points.count == 4 else { throw bad("marker \(index) has a corner that is not [x, y]") }
            markers.append(Marker(id: id, corners: points))
        }
        let detection = Detection(
            imageSize: ImageSize(width: width, height: height), markers: markers, boardCorners: corners, sharpness: nil,
            duration: .zero)
        let layout = try TargetLayout(pattern)
        return (name, pattern, layout.view(named: image, detection))
    }

    /// Detects `pattern` in every image, on all cores; views keep the names' order.
    private static func detect(_ names: [String], in folder: String, pattern: Pattern) throws(CalibrationError) -> [CalibrationView] {
        let layout = try TargetLayout(pattern)
        let detector: MarkerDetector
        do {
            detector = try MarkerDetector(pattern: pattern)
        } catch {
            throw .unreadableInput(path: pattern.description, reason: "\(error)")
        }
        let results = Mutex([Result<CalibrationView, CalibrationError>?](repeating: nil, count: names.count))
        DispatchQueue.concurrentPerform(iterations: names.count) { index in
            let path = (folder as NSString).appendingPathComponent(names[index])
            let outcome: Result<CalibrationView, CalibrationError>
            do {
                let detection = try detector.detect(ImageFile.read(path))
                outcome = .success(layout.view(named: names[index], detection))
            } catch {
                outcome = .failure(.unreadableInput(path: path, reason: "\(error)"))
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
