import FileFormats
import Foundation
import MarkerDetection
import Testing

/// `marker-shutter live --replay` of a bag: one topic replayed at the pace of its stamps, its pictures
/// the bag's frames with the stamps as their times; two topics a rig, told to the rig shutter as
/// `process` tells it; the options that do not go with a bag refused.
@Suite(.serialized) struct LiveReplayBagTests {
    static let origin: Int64 = 1_700_000_000_000_000_000
    static let topic = "/camera/image_raw/compressed"

    /// Real frames (the Gloworm chessboard recording, its 25 frames at 30 fps) as an MCAP file of
    /// JPEGs, and the same JPEGs as files.
    static let fixture: Result<(root: String, bag: String, frames: [TestBags.Frame]), any Error> = Result {
        let root = try TestBags.temporaryFolder("LiveReplayBag")
        let frames = try TestBags.recordingFrames("gloworm-chessboard-8x6-960x720", count: 25, start: origin)
        let bag = "\(root)/gloworm.mcap"
        try TestBags.write(bag, container: "mcap", compression: "zstd",
                           topics: [TestBags.Topic(name: topic, encoding: "jpeg", frames: frames, folder: "\(root)/folder")],
                           others: [("/imu", frames.map { $0.stamp + 1_000_000 })])
        return (root, bag, frames)
    }

    static func sidecar(_ path: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    @Test func oneTopicIsReplayedAtItsStampsAndItsPicturesAreTheBagsFrames() throws {
        let (root, bag, frames) = try Self.fixture.get()
        let out = "\(root)/picks"
        let result = try BagCommandTests.run(["live", "--replay", bag, "--topic", Self.topic, "--pattern", "chessboard:8x6", "--auto",
                                              "--out", out])
        #expect(result.status == 0, "\(result.error)")
        #expect(frames.count == 25)
        #expect(result.error.contains("replaying \(bag): 25 frames, timestamps from the header stamps of \(Self.topic); pattern chessboard:8x6"),
                "\(result.error)")
        #expect(result.error.contains("stopped (end of frames): 25 frames received, "), "\(result.error)")
        let pictures = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasSuffix(".png") }.sorted()
        #expect(!pictures.isEmpty, "\(result.output)\n\(result.error)")
        let stamps = Dictionary(uniqueKeysWithValues: frames.map { ("\($0.stamp).jpg", $0.stamp) })
        for picture in pictures {
            let stem = (picture as NSString).deletingPathExtension
            let fields = try Self.sidecar("\(out)/\(stem).json")
            // The picture is the bag's frame: its name, its stamp as its time, its pixels those of the JPEG.
            let source = try #require(fields["source_file"] as? String)
            let stamp = try #require(stamps[source], "\(picture): source \(source)")
            let t = try #require(fields["t"] as? Double)
            #expect(abs(t - Double(stamp) / 1e9) < 1e-6, "\(picture): t \(t), stamp \(stamp)")
            let saved = try ImageFile.read("\(out)/\(picture)")
            let original = try ImageFile.read("\(root)/folder/\(source)")
            #expect(saved.width == original.width && saved.height == original.height)
            #expect((0..<saved.height).allSatisfy { saved.row($0) == original.row($0) }, "\(picture): pixels differ from \(source)")
        }
        print("live --replay of \(bag): \(pictures.count) pictures, each a frame of the bag at its stamp")
    }

    @Test(.enabled(if: RigBagTests.available, "OpenCV's stereo sample is not installed (Debian's opencv-doc)"))
    func twoTopicsAreARigToldAsProcessTellsIt() throws {
        let (root, bags) = try RigBagTests.fixture.get()
        let bag = bags[1]
        let rigOptions = ["--pattern", "chessboard:9x6", "--sync-tolerance", "10", "--max-motion", "off", "--hold", "1"]
        let topics = ["--topic", "/stereo/left/image_raw", "--topic", "/stereo/right/image_raw"]
        let out = "\(root)/live-sets"
        let replay = try BagCommandTests.run(["live", "--replay", bag] + topics + rigOptions + ["--auto", "--out", out])
        #expect(replay.status == 0, "\(replay.error)")
        #expect(replay.error.contains("replaying the rig recorded in \(bag): 27 frames of left, right, timestamps from the header stamps of "
            + "/stereo/left/image_raw, /stereo/right/image_raw"), "\(replay.error)")
        #expect(replay.error.contains("stopped: end of frames"), "\(replay.error)")
        let process = try BagCommandTests.run(["process", bag] + topics + rigOptions)
        #expect(process.status == 0, "\(process.error)")
        // The rig is told the same frames in the same order: it is enabled and disabled as often.
        let changes = replay.error.split(separator: "\n").filter { $0.hasPrefix("rig enabled: ") || $0.hasPrefix("rig disabled: ") }
        let rows = process.rows.filter { ["enabled", "disabled"].contains($0["rig"] as? String) }
        #expect(changes.filter { $0.hasPrefix("rig enabled: ") }.count == rows.filter { $0["rig"] as? String == "enabled" }.count,
                "replay: \(changes)\nprocess: \(rows)")
        #expect(changes.count == rows.count, "replay: \(changes)\nprocess: \(rows)")
        #expect(!changes.isEmpty)
        // The sets are a left and a right frame of the bag 3 ms apart, their times the stamps.
        let left = Set(RigBagTests.frames("left").map(\.stamp)), right = Set(RigBagTests.frames("right").map(\.stamp))
        let sets = try FileManager.default.contentsOfDirectory(atPath: "\(out)/left").filter { $0.hasSuffix(".json") }.sorted()
        #expect(!sets.isEmpty, "\(replay.output)\n\(replay.error)")
        for set in sets {
            let leftTime = try #require(try Self.sidecar("\(out)/left/\(set)")["t"] as? Double)
            let rightTime = try #require(try Self.sidecar("\(out)/right/\(set)")["t"] as? Double)
            #expect(left.contains { abs(Double($0) / 1e9 - leftTime) < 1e-6 }, "\(set): left t \(leftTime)")
            #expect(right.contains { abs(Double($0) / 1e9 - rightTime) < 1e-6 }, "\(set): right t \(rightTime)")
            #expect(abs(rightTime - leftTime - 0.003) < 1e-6, "\(set): \(leftTime), \(rightTime)")
        }
        print("live --replay of the rig in \(bag): \(changes.count) rig changes as process gives them, \(sets.count) sets")
    }

    @Test func theOptionsThatDoNotGoWithABagAreRefused() throws {
        let (root, bag, _) = try Self.fixture.get()
        let noReplay = try BagCommandTests.run(["live", "--topic", Self.topic, "--out", "\(root)/x"])
        #expect(noReplay.status == 64)
        #expect(noReplay.error.contains("--topic goes with --replay of a ROS bag"), "\(noReplay.error)")
        let folder = try BagCommandTests.run(["live", "--replay", "\(root)/folder", "--topic", Self.topic, "--out", "\(root)/x"])
        #expect(folder.status == 64)
        #expect(folder.error.contains("--topic goes with a ROS bag (.bag, .mcap or a rosbag2 folder); \(root)/folder is a folder of frames"),
                "\(folder.error)")
        let missing = try BagCommandTests.run(["live", "--replay", bag, "--topic", "/nothing", "--out", "\(root)/x"])
        #expect(missing.status == 1)
        #expect(missing.error.contains("Error: \(bag): it has no topic /nothing; its image topics: \(Self.topic)"), "\(missing.error)")
        let notImages = try BagCommandTests.run(["live", "--replay", bag, "--topic", "/imu", "--out", "\(root)/x"])
        #expect(notImages.status == 1)
        #expect(notImages.error.contains("topic /imu carries sensor_msgs/msg/Imu, not images"), "\(notImages.error)")
        let rigRecord = try BagCommandTests.run(["live", "--replay", bag, "--topic", Self.topic, "--topic", "/imu", "--record", "\(root)/r",
                                                 "--out", "\(root)/x"])
        #expect(rigRecord.status == 64)
        #expect(rigRecord.error.contains("--record: not available with --replay of a rig's recording"), "\(rigRecord.error)")
        // The bag is an input: --out into it is refused.
        let onto = try BagCommandTests.run(["live", "--replay", bag, "--out", bag])
        #expect(onto.status == 1, "\(onto.error)")
        for path in ["\(root)/x", "\(root)/r"] { #expect(!FileManager.default.fileExists(atPath: path), "\(path) was made") }
    }
}
