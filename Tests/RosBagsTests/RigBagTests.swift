import Calibration
import FileFormats
import Foundation
import MarkerDetection
import MarkerShutter
import RosBags
import Testing

/// OpenCV's stereo sample (left01..14, right01..14 but 10: a 9x6 chessboard) recorded as a rig of two
/// topics: the rig calibrated from the bag has the baseline of the rig calibrated from the same
/// pictures as folders (within 0.5%), its sets matched by the header stamps; `process` of the two
/// topics gives each camera's rows and the rig's changes.
@Suite(.serialized) struct RigBagTests {
    static let data = "/usr/share/doc/opencv-doc/examples/data"
    static let numbers = ["01", "02", "03", "04", "05", "06", "07", "08", "09", "11", "12", "13", "14"]
    static let available = numbers.allSatisfy { FileManager.default.fileExists(atPath: "\(data)/right\($0).jpg") }
    static let pattern = "chessboard:9x6"
    static let start: Int64 = 1_700_000_000_000_000_000

    /// The left camera's frames half a second apart; the right's 3 ms later (the sets), but for one
    /// right frame 120 ms later (no set: a view of the right camera alone) and an extra left frame
    /// with no right one.
    static func frames(_ side: String) -> [TestBags.Frame] {
        var frames = numbers.enumerated().map { index, number in
            TestBags.Frame(image: "\(data)/\(side)\(number).jpg",
                           stamp: start + Int64(index) * 500_000_000 + (side == "right" ? (index == 4 ? 120_000_000 : 3_000_000) : 0))
        }
        if side == "left" { frames.append(TestBags.Frame(image: "\(data)/left01.jpg", stamp: start + 13 * 500_000_000)) }
        return frames
    }

    static let fixture: Result<(root: String, bags: [String]), any Error> = Result {
        let root = try TestBags.temporaryFolder("RigBag")
        var bags: [String] = []
        for (name, kind, compression, encoding) in [("stereo.bag", "ros1", "lz4", "jpeg"), ("stereo.mcap", "mcap", "zstd", "mono8"),
                                                    ("stereo-rosbag2", "rosbag2-sqlite3", "none", "bgr8")] {
            let suffix = encoding == "jpeg" ? "/compressed" : ""
            try TestBags.write("\(root)/\(name)", container: kind, compression: compression, topics: [
                TestBags.Topic(name: "/stereo/left/image_raw\(suffix)", encoding: encoding, frames: frames("left")),
                TestBags.Topic(name: "/stereo/right/image_raw\(suffix)", encoding: encoding, frames: frames("right")),
            ])
            bags.append("\(root)/\(name)")
        }
        // The folders: the same pictures, a set's two pictures of one name.
        for side in ["left", "right"] {
            try FileManager.default.createDirectory(atPath: "\(root)/\(side)", withIntermediateDirectories: true)
            for number in numbers {
                try FileManager.default.createSymbolicLink(atPath: "\(root)/\(side)/\(number).jpg", withDestinationPath: "\(data)/\(side)\(number).jpg")
            }
        }
        return (root, bags)
    }

    @Test(.enabled(if: available, "OpenCV's stereo sample is not installed (Debian's opencv-doc)"))
    func theBaselineIsTheFolderRigs() throws {
        let (root, bags) = try Self.fixture.get()
        let pattern = try Pattern(parsing: Self.pattern)
        let folders = try RigPictureSet(cameras: [("left", "\(root)/left"), ("right", "\(root)/right")], pattern: pattern)
        let folderRig = try RigCalibration.calibrate(folders.cameras(models: [:], model: .pinhole))
        let folderBaseline = Self.length(folderRig.cameras[1].extrinsics.pose.translation)
        for path in bags {
            let bag = try ImageBag(path: path)
            let topics = try bag.imageTopics(named: bag.imageTopics.map(\.name))
            let index = try BagIndex(bag: bag, topics: topics)
            let names = BagCameraNames.names(for: topics.map(\.name))
            #expect(names == ["left", "right"])
            // Within the default tolerance (half the frame interval, 250 ms) the right frame 120 ms
            // late is in a set: 13 sets; within 50 ms it is a view of the right camera alone: 12.
            // The left frame without a right one is in none.
            let pictures = try RigPictureSet(index, names: names, pattern: pattern)
            #expect(Self.sets(pictures) == 13, "\(path)")
            let strict = try RigPictureSet(index, names: names, pattern: pattern, syncTolerance: .milliseconds(50))
            #expect(Self.sets(strict) == 12, "\(path)")
            #expect(strict.pictures[1].views.contains { $0.name == "right-\(Self.start + 4 * 500_000_000 + 120_000_000)" })
            let rig = try RigCalibration.calibrate(pictures.cameras(models: [:], model: .pinhole))
            let baseline = Self.length(rig.cameras[1].extrinsics.pose.translation)
            let apart = abs(baseline - folderBaseline) / folderBaseline
            print("\(path): baseline \(baseline) against the folders' \(folderBaseline) (\(apart * 100)% apart); sets \(rig.sets.count)")
            #expect(apart < 0.005, "\(path): baseline \(baseline), folders' \(folderBaseline)")
        }
    }

    static func sets(_ pictures: RigPictureSet) -> Int {
        Set(pictures.pictures[0].views.map(\.name)).intersection(pictures.pictures[1].views.map(\.name)).count
    }

    static func length(_ vector: [Double]) -> Double { vector.map { $0 * $0 }.reduce(0, +).squareRoot() }

    @Test(.enabled(if: available, "OpenCV's stereo sample is not installed (Debian's opencv-doc)"))
    func processGivesEachCamerasRowsAndTheRigsChanges() throws {
        let (root, bags) = try Self.fixture.get()
        let bag = try ImageBag(path: bags[0])
        let index = try BagIndex(bag: bag, topics: try bag.imageTopics(named: bag.imageTopics.map(\.name)))
        let recording = try RigRecording(index, names: ["left", "right"])
        #expect(recording.frames.count == 27)
        #expect(recording.cameras.map(\.frameInterval) == [.milliseconds(500), .milliseconds(500)])
        let pattern = try Pattern(parsing: Self.pattern)
        let rig = try RigShutterMachine.Configuration(cameras: recording.cameras, require: .all, syncTolerance: .milliseconds(10),
                                                      maxMotion: .off, hold: .milliseconds(300))
        var configuration = RigProcessRun.Configuration(recording: recording, rig: rig, detector: try MarkerDetector(pattern: pattern),
                                                        rule: ValidityRule(defaultsFor: pattern))
        configuration.output = .replacing("\(root)/rig-rows.jsonl")
        let result = try RigProcessRun(configuration).run()
        #expect(result.exit == .complete, "\(result.description)")
        #expect(result.description.hasPrefix("\(bags[0]): rig of 2 cameras (left, right), 27 frames, timestamps from the header stamps of "
            + "/stereo/left/image_raw/compressed, /stereo/right/image_raw/compressed"))
        let lines = try String(contentsOfFile: "\(root)/rig-rows.jsonl", encoding: .utf8).split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let rows = lines.filter { $0["camera"] != nil }
        #expect(rows.count == 27)
        #expect(rows.filter { $0["camera"] as? String == "left" }.compactMap { $0["file"] as? String }
            == index.entries[0].map(\.fileName))
        // Sets within 10 ms: the rig is enabled with sets of a left and a right frame 3 ms apart.
        let enabled = lines.filter { $0["rig"] as? String == "enabled" }
        #expect(!enabled.isEmpty)
        for line in enabled {
            let difference = try #require(line["largest_difference_s"] as? Double)
            #expect(abs(difference - 0.003) < 1e-6)
        }
    }
}
