import Foundation
import MarkerDetection
import MarkerShutter
import Pixels

/// Writes the sample session into a folder and checks every frame written against the script.
struct SessionWriter {
    /// The board the session shows.
    static let pattern = "charuco:5x7:DICT_6X6_250"
    /// The frames' JPEG quality.
    static let jpegQuality = 80
    /// How long the shutter holds a lost detection, for the timeline printed at the end.
    static let hold = Duration.milliseconds(300)

    /// What one frame became.
    struct FrameReport: Sendable {
        let entry: FrameManifest.Entry
        let index: Int
        let bytes: Int
        let event: SessionScript.Event?
        let detection: Detection
        let shortfalls: [ValidityRule.Shortfall]
        /// Whether the whole board, paper included, lies inside the frame.
        let boardInside: Bool
        var isValid: Bool { shortfalls.isEmpty }
        /// Whether the frame is what the script means: the whole board in view and detected, or,
        /// during an event, not detected.
        var asScripted: Bool {
            SessionScript.showsBoard(atFrame: index) ? isValid && boardInside : !isValid
        }
    }

    /// What the whole session became.
    struct Summary: Sendable {
        let folder: String
        let frames: [FrameReport]
        let manifestBytes: Int
        let stretches: [EnabledStretch]
        var totalBytes: Int { frames.map(\.bytes).reduce(manifestBytes, +) }
        var disagreements: [Int] { frames.filter { !$0.asScripted }.map(\.index) }
    }

    let folder: String
    let replace: Bool

    /// Makes the folder ready: creates it, or, when it has files and `replace` is set, removes the
    /// frames and manifest a previous run wrote.
    ///
    /// - Throws: ``SessionMakerError`` when the folder has files and `replace` is not set, or it
    ///   cannot be made or cleared.
    func prepareFolder() throws(SessionMakerError) {
        let files = FileManager.default
        var isFolder: ObjCBool = false
        if files.fileExists(atPath: folder, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw .notAFolder(folder) }
            let names: [String]
            do { names = try files.contentsOfDirectory(atPath: folder) } catch { throw .cannotWrite(folder, reason: "\(error.localizedDescription)") }
            guard !names.isEmpty else { return }
            guard replace else { throw .notEmpty(folder, count: names.count) }
            for name in names where Self.isOurs(name) {
                let path = (folder as NSString).appendingPathComponent(name)
                do { try files.removeItem(atPath: path) } catch { throw .cannotWrite(path, reason: "\(error.localizedDescription)") }
            }
        } else {
            do {
                try files.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw .cannotWrite(folder, reason: "\(error.localizedDescription)")
            }
        }
    }

    /// Renders, writes and detects every frame, then writes the manifest.
    ///
    /// - Parameter progress: Called with each frame once it is written and checked.
    /// - Throws: ``SessionMakerError`` when a file cannot be written, or what rendering and
    ///   detection throw.
    func write(progress: (FrameReport) -> Void) throws -> Summary {
        let pattern = try Pattern(parsing: Self.pattern)
        let detector = try MarkerDetector(pattern: pattern)
        let rule = ValidityRule(defaultsFor: pattern)
        let renderer = try SceneRenderer(pattern: pattern, seed: SessionScript.seed)
        var timeline = ShutterTimeline<Int>(hold: Self.hold)
        var reports: [FrameReport] = []
        for (index, t) in SessionScript.timestamps().enumerated() {
            let entry = FrameManifest.Entry(
                file: String(format: "frame_%06d.jpg", index), t: t, sequence: SessionScript.firstSequence + UInt64(index))
            let image = try renderer.frame(at: t, noiseSeed: SessionScript.seed &+ UInt64(index + 1) &* 0x2545_F491_4F6C_DD1D)
            let jpeg = try ImageFile.encode(image, as: .jpeg(quality: Self.jpegQuality))
            try save(Data(jpeg), as: entry.file)
            // Check what was written, as a reader of the folder will see it.
            let detection = try detector.detect(try ImageFile.decode(jpeg))
            let report = FrameReport(
                entry: entry, index: index, bytes: jpeg.count, event: SessionScript.event(atFrame: index),
                detection: detection, shortfalls: rule.shortfalls(of: detection),
                boardInside: SessionScript.boardPose(at: t).map(renderer.isInside) ?? false)
            _ = timeline.observe(index: index, snapshot: index, isValid: report.isValid, at: FrameTime(seconds: t))
            reports.append(report)
            progress(report)
        }
        let manifest = FrameManifest(entries: reports.map(\.entry)).text
        try save(Data(manifest.utf8), as: FrameManifest.fileName)
        return Summary(folder: folder, frames: reports, manifestBytes: manifest.utf8.count, stretches: timeline.stretches)
    }

    private func save(_ data: Data, as name: String) throws(SessionMakerError) {
        let path = (folder as NSString).appendingPathComponent(name)
        do { try data.write(to: URL(fileURLWithPath: path), options: .atomic) } catch {
            throw .cannotWrite(path, reason: "\(error.localizedDescription)")
        }
    }

    /// Whether `name` is a file this program writes.
    static func isOurs(_ name: String) -> Bool {
        if name == FrameManifest.fileName { return true }
        guard name.hasPrefix("frame_"), name.hasSuffix(".jpg") else { return false }
        let digits = name.dropFirst("frame_".count).dropLast(".jpg".count)
        return digits.count == 6 && digits.allSatisfy(\.isASCII) && digits.allSatisfy(\.isNumber)
    }
}

/// Why the session could not be written.
enum SessionMakerError: Error, CustomStringConvertible {
    case notEmpty(String, count: Int)
    case notAFolder(String)
    case cannotWrite(String, reason: String)

    var description: String {
        switch self {
        case .notEmpty(let path, let count):
            "\(path) already holds \(count) file\(count == 1 ? "" : "s"); give --replace to write the session over it, or another --output"
        case .notAFolder(let path): "\(path) is a file, not a folder; give a folder with --output"
        case .cannotWrite(let path, let reason): "cannot write \(path): \(reason)"
        }
    }
}
