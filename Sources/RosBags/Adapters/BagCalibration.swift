public import Calibration
import FileFormats
import Foundation
public import MarkerDetection

extension PictureSet {
    /// Detects `pattern` in every frame of one topic of a bag (``BagIndex``), on all cores: the
    /// views are named by the frames' file names (``BagIndex/Entry/fileName``).
    ///
    /// - Throws: What ``PictureSet/init(source:pictures:pattern:)`` throws; a frame that cannot be
    ///   read is ``CalibrationError/unreadableInput(path:reason:)`` naming the bag, the topic and the frame.
    public init(_ index: BagIndex, topic: Int = 0, pattern: Pattern) throws(CalibrationError) {
        try self.init(index, topic: topic, names: index.entries[topic].map(\.fileName), pattern: pattern)
    }

    /// The frames of `topic`, each named by `names` (one a frame).
    init(_ index: BagIndex, topic: Int, names: [String], pattern: Pattern) throws(CalibrationError) {
        let pictures = zip(index.entries[topic], names).map { entry, name in
            PictureSet.Picture(name: name) { () throws(CalibrationError) in
                do {
                    return try index.message(entry).pixels()
                } catch let error as BagError {
                    throw .unreadableInput(path: index.displayPath(of: entry), reason: error.reason)
                } catch {
                    throw .unreadableInput(path: index.displayPath(of: entry), reason: "\(error)")
                }
            }
        }
        try self.init(source: "\(index.bag.path):\(index.topics[topic].name)", pictures: pictures, pattern: pattern)
    }
}

extension RigPictureSet {
    /// The frames of a rig's topics in a bag, each topic a camera, detected on all cores; frames of
    /// different topics whose stamps are within `syncTolerance` of each other are one set (each
    /// frame in at most one set, the nearest in time first), named by the first topic's frame; the
    /// others are views of their camera alone.
    ///
    /// - Parameters:
    ///   - index: The bag's messages, two topics or more.
    ///   - names: The cameras' names, one a topic.
    ///   - pattern: The target.
    ///   - syncTolerance: The most the stamps of a set may differ; half the longest frame interval
    ///     (``BagIndex/frameInterval(of:)``) when `nil`.
    /// - Throws: What ``PictureSet/init(_:topic:pattern:)`` and ``RigPictureSet/init(names:pictures:)`` throw.
    public init(_ index: BagIndex, names: [String], pattern: Pattern, syncTolerance: Duration? = nil) throws(CalibrationError) {
        let tolerance = syncTolerance ?? index.topics.indices.map { index.frameInterval(of: $0) }.max()! / 2
        let viewNames = Self.setNames(index, tolerance: tolerance, cameras: names)
        var pictures: [PictureSet] = []
        for topic in index.topics.indices {
            pictures.append(try PictureSet(index, topic: topic, names: viewNames[topic], pattern: pattern))
        }
        try self.init(names: names, pictures: pictures)
    }

    /// Each topic's view names: a frame in a set has the name of the set's frame of the first topic
    /// (its stamp), others their own stamp after their camera's name (`right-1700000000033333333`).
    static func setNames(_ index: BagIndex, tolerance: Duration, cameras: [String]) -> [[String]] {
        let reference = index.entries[0]
        var names = index.entries.enumerated().map { topic, entries in
            entries.map { topic == 0 ? String($0.stamp) : "\(cameras[topic])-\($0.stamp)" }
        }
        let limit = Int64(tolerance.components.seconds) * 1_000_000_000 + tolerance.components.attoseconds / 1_000_000_000
        for topic in index.topics.indices.dropFirst() {
            let entries = index.entries[topic]
            // Every pair within the tolerance, nearest first; each frame taken once.
            var pairs: [(difference: Int64, reference: Int, frame: Int)] = []
            var start = 0
            for (frame, entry) in entries.enumerated() {
                while start < reference.count && reference[start].stamp < entry.stamp - limit { start += 1 }
                var candidate = start
                while candidate < reference.count && reference[candidate].stamp <= entry.stamp + limit {
                    pairs.append((abs(reference[candidate].stamp - entry.stamp), candidate, frame))
                    candidate += 1
                }
            }
            var takenReference = Set<Int>()
            var takenFrame = Set<Int>()
            for pair in pairs.sorted(by: { ($0.difference, $0.reference) < ($1.difference, $1.reference) })
            where !takenReference.contains(pair.reference) && !takenFrame.contains(pair.frame) {
                takenReference.insert(pair.reference)
                takenFrame.insert(pair.frame)
                names[topic][pair.frame] = names[0][pair.reference]
            }
        }
        return names
    }
}

extension CalibrationJob {
    /// `calibrate` of one topic of a bag: checks the destination, detects `pattern` in every frame
    /// (``PictureSet/init(_:topic:pattern:)``), solves, describes and writes the files, as
    /// ``run(pictures:pattern:model:cameraName:undistort:replacing:crossValidate:onRead:)`` does for
    /// a folder.
    ///
    /// - Returns: The report and the paths written.
    /// - Throws: What that method throws.
    public func run(
        bag index: BagIndex, topic: Int = 0, pattern: Pattern, model: CameraModel, cameraName: String = "camera",
        undistort: Bool = false, replacing: Bool = false, crossValidate: Bool? = nil, onRead: (PictureSet) -> Void = { _ in }
    ) throws(CalibrationError) -> (report: CalibrationReport, paths: [String]) {
        do {
            try SafeOutput.Folder.check(path: destination, input: input, replacing: replacing)
        } catch {
            throw .output(error)
        }
        let pictures = try PictureSet(index, topic: topic, pattern: pattern)
        onRead(pictures)
        var report = CalibrationReport(result: try pictures.calibrate(model), pattern: pattern.description, cameraName: cameraName)
        report.crossValidate(crossValidate)
        return (report, try write(report, undistorting: undistort ? pictures : nil))
    }

    /// `calibrate` of a rig of a bag's topics: checks the destination, reads the sets
    /// (``RigPictureSet/init(_:names:pattern:syncTolerance:)``), solves the rig, describes it and
    /// writes its files with the rectified pairs, as
    /// ``runRig(cameras:rigFolder:pattern:models:model:rectify:replacing:onRead:)`` does for folders.
    ///
    /// - Returns: The report and the paths written.
    /// - Throws: What that method throws.
    public func runRig(
        bag index: BagIndex, names: [String], pattern: Pattern, syncTolerance: Duration? = nil, models: [String: CameraModel] = [:],
        model: CameraModel = .pinhole, rectify: Bool = true, replacing: Bool = false, onRead: (RigPictureSet) -> Void = { _ in }
    ) throws(CalibrationError) -> (report: RigReport, paths: [String]) {
        do {
            try SafeOutput.Folder.check(path: destination, input: input, replacing: replacing)
        } catch {
            throw .output(error)
        }
        for name in models.keys where !names.contains(name) {
            throw .rigInput("--model names camera \(name), which the rig does not have (\(names.joined(separator: ", ")))")
        }
        let pictures = try RigPictureSet(index, names: names, pattern: pattern, syncTolerance: syncTolerance)
        onRead(pictures)
        let result = try RigCalibration.calibrate(pictures.cameras(models: models, model: model))
        let report = RigReport(result: result, pattern: pattern.description)
        return (report, try writeRig(report, rectifying: rectify ? pictures : nil))
    }
}
