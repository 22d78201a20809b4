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
/// images is detected with the pattern given, or, when none is, with the one ``PatternIdentifier``
/// finds in its first pictures.
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
    /// What identification found, when the pattern was identified from the pictures.
    public let identification: PatternIdentification?
    /// One view per picture in which the target was found, in name order, copies left out.
    public let views: [CalibrationView]
    /// Pictures in which the target was not found, and copies of an earlier view.
    public let empty: [RejectedView]
    /// Every picture in which the target was found, copies too, in name order: the pictures
    /// `--undistort` writes.
    public let withTarget: [String]
    /// The folder's image files by name.
    private let files: [String: FolderEntry]
    /// The pictures read on demand, by name, when they are no files of a folder (``init(source:pictures:pattern:)``).
    private var given: [String: Picture] = [:]

    /// A picture that is not a file of a folder (a frame of a bag), read on demand from any thread.
    public struct Picture: Sendable {
        /// Its name (a view's name; unique in the set).
        public let name: String
        /// Decodes it.
        public let read: @Sendable () throws(CalibrationError) -> PixelBuffer

        /// A picture named `name`, decoded by `read`.
        public init(name: String, read: @escaping @Sendable () throws(CalibrationError) -> PixelBuffer) {
            self.name = name
            self.read = read
        }
    }

    /// The image files detection reads.
    public static let imageExtensions: Set<String> = ["jpg", "jpeg", "png", "bmp", "tif", "tiff"]

    /// Reads the views of `folder`.
    ///
    /// - Parameters:
    ///   - folder: The folder of pictures.
    ///   - pattern: The target, checked against the sidecars' own pattern when there are some; for
    ///     a folder without sidecars, `nil` identifies it from the first
    ///     ``PatternIdentifier/typicalFrameCount`` pictures (in name order) that can be read.
    /// - Throws: ``CalibrationError/unreadableInput(path:reason:)`` for a missing folder, a corrupted
    ///   sidecar, an unreadable image, a pattern that disagrees with the sidecars or a target that
    ///   cannot be identified without doubt;
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
            identification = nil
            source = .sidecars
            let resized = pattern.map { $0 != stored } ?? false
            let all = found.map { sidecar in resized ? layout.view(named: sidecar.2.name, sidecar.3) : sidecar.2 }
            (views, empty, withTarget) = Self.sorted(all, notFound: "no target corners")
            files = Dictionary(images.map { ($0.text, $0) }, uniquingKeysWith: { first, _ in first })
            try Self.checkSizes(found.map { (sidecar: $0.0, picture: $0.2.name, size: $0.3.imageSize) }, files: files, in: folder)
        } else {
            guard !images.isEmpty else { throw .unreadableInput(path: folder, reason: "it holds no JPEG, PNG, BMP or TIFF images") }
            if let pattern {
                identification = nil
                self.pattern = pattern
            } else {
                let found = try Self.identify(images, in: folder)
                guard let identified = found.pattern else {
                    throw .unreadableInput(path: folder, reason: "it has no sidecars and its target cannot be identified: \(found); name it with --pattern")
                }
                identification = found
                self.pattern = identified
            }
            let pattern = self.pattern
            source = .detected
            let detected = try Self.detect(names: images.map(\.text), in: folder, pattern: pattern) { index throws(CalibrationError) in
                try images[index].image(in: folder)
            }
            (views, empty, withTarget) = Self.sorted(detected, notFound: "target not found")
            files = Dictionary(images.map { ($0.text, $0) }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// Detects `pattern` in pictures that are no files of a folder (the frames of a bag's topic), on
    /// all cores, as in a folder without sidecars.
    ///
    /// - Parameters:
    ///   - source: What holds them, as messages name it (``folder``).
    ///   - pictures: The pictures, in order, their names unique.
    ///   - pattern: The target.
    /// - Throws: ``CalibrationError/unreadableInput(path:reason:)`` for no pictures or one that
    ///   cannot be read; ``CalibrationError/patternWithoutLayout(_:)`` for loose markers.
    public init(source: String, pictures: [Picture], pattern: Pattern) throws(CalibrationError) {
        guard !pictures.isEmpty else { throw .unreadableInput(path: source, reason: "it holds no pictures") }
        folder = source
        self.pattern = pattern
        identification = nil
        self.source = .detected
        let detected = try Self.detect(names: pictures.map(\.name), in: source, pattern: pattern) { index throws(CalibrationError) in
            try pictures[index].read()
        }
        (views, empty, withTarget) = Self.sorted(detected, notFound: "target not found")
        files = [:]
        given = Dictionary(pictures.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The views a solve may use, and those set aside: pictures without the target (`notFound` says
    /// why) and copies. A view whose every point lies exactly where an earlier one's does is that
    /// picture again (a file copied, a frame saved twice): counted as two, it would halve the
    /// intervals it adds to without adding anything.
    static func sorted(_ all: [CalibrationView], notFound: String)
        -> (views: [CalibrationView], setAside: [RejectedView], withTarget: [String])
    {
        var views: [CalibrationView] = []
        var setAside: [RejectedView] = []
        var first: [[CalibrationView.Correspondence]: String] = [:]
        for view in all {
            if view.points.isEmpty {
                setAside.append(RejectedView(name: view.name, reason: notFound))
            } else if let original = first[view.points] {
                setAside.append(RejectedView(name: view.name, reason: "the same view as \(original) (a copy counts once)"))
            } else {
                first[view.points] = view.name
                views.append(view)
            }
        }
        return (views, setAside, all.filter { !$0.points.isEmpty }.map(\.name))
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
        if let picture = given[name] { return try picture.read() }
        return try (files[name] ?? FolderEntry(text: name, bytes: nil)).image(in: folder)
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

    /// Checks that each sidecar gives its picture's own width and height, as the picture's header
    /// says them, so that no calibration is made for a size its pictures do not have. A picture
    /// that is missing, or whose header cannot be read, is not compared (the sidecar alone is used).
    ///
    /// - Throws: ``CalibrationError/unreadableInput(path:reason:)`` naming the sidecar and both sizes.
    private static func checkSizes(_ sidecars: [(sidecar: String, picture: String, size: ImageSize)],
                                   files: [String: FolderEntry], in folder: String) throws(CalibrationError)
    {
        for (sidecar, picture, size) in sidecars {
            guard let entry = files[picture],
                  let bytes = try? entry.contents(in: folder, limit: ImageFile.fileByteLimit),
                  let header = try? ImageFile.header(of: [UInt8](bytes)) else { continue }
            guard header.width == size.width, header.height == size.height else {
                throw .unreadableInput(
                    path: (folder as NSString).appendingPathComponent(sidecar),
                    reason: "corrupted sidecar: it gives \(picture) as \(size.width)x\(size.height) pixels, "
                        + "but the picture is \(header.width)x\(header.height)")
            }
        }
    }

    /// The target the first pictures that can be read show.
    private static func identify(_ names: [FolderEntry], in folder: String) throws(CalibrationError) -> PatternIdentification {
        var images: [PixelBuffer] = []
        for name in names where images.count < PatternIdentifier.typicalFrameCount {
            if let image = try? name.image(in: folder, channels: .gray) { images.append(image) }
        }
        guard !images.isEmpty else {
            throw .unreadableInput(
                path: folder, reason: "it has no sidecars and none of its pictures can be read to identify its target; name it with --pattern")
        }
        do {
            return try PatternIdentifier().identify(images)
        } catch {
            throw .unreadableInput(path: folder, reason: "its target cannot be identified: \(error)")
        }
    }

    /// Detects `pattern` in every picture (`read` decodes the one at an index), on all cores; views
    /// keep the names' order.
    private static func detect(
        names: [String], in folder: String, pattern: Pattern, read: @Sendable (Int) throws(CalibrationError) -> PixelBuffer
    ) throws(CalibrationError) -> [CalibrationView] {
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
                let image = try read(index)
                do {
                    outcome = .success(layout.view(named: names[index], try detector.detect(image)))
                } catch {
                    outcome = .failure(.unreadableInput(path: (folder as NSString).appendingPathComponent(names[index]), reason: "\(error)"))
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
