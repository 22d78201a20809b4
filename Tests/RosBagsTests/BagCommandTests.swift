import Foundation
import Testing

/// `marker-shutter process` and `calibrate` run on bags: what they print, write and exit with.
@Suite(.serialized) struct BagCommandTests {
    struct Result {
        let status: Int32
        let output: String
        let error: String
        var rows: [[String: Any]] {
            output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }
    }

    /// Runs the built marker-shutter (next to the test bundle).
    static func run(_ arguments: [String]) throws -> Result {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        let scratch = try TestBags.temporaryFolder("run")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let process = Process()
        process.executableURL = folder.appendingPathComponent("marker-shutter")
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        #expect(FileManager.default.createFile(atPath: "\(scratch)/out", contents: nil))
        #expect(FileManager.default.createFile(atPath: "\(scratch)/err", contents: nil))
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: "\(scratch)/out"))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: "\(scratch)/err"))
        try process.run()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: try String(contentsOfFile: "\(scratch)/out", encoding: .utf8),
                      error: try String(contentsOfFile: "\(scratch)/err", encoding: .utf8))
    }

    static var bags: (root: String, bags: [String]) { get throws { try RigBagTests.fixture.get() } }

    @Test(.enabled(if: RigBagTests.available, "OpenCV's stereo sample is not installed (Debian's opencv-doc)"))
    func processOneTopic() throws {
        let (root, bags) = try Self.bags
        let bag = bags[0]
        let result = try Self.run(["process", bag, "--topic", "/stereo/left/image_raw/compressed", "--pattern", "chessboard:9x6",
                                   "--select", "\(root)/picks"])
        #expect(result.status == 0, "\(result.error)")
        let rows = result.rows
        #expect(rows.count == 14)
        #expect(rows.first?["file"] as? String == "1700000000000000000.jpg")
        #expect((rows.first?["t"] as? Double).map { abs($0 - 1_700_000_000) < 1e-6 } == true)
        #expect(rows.filter { $0["valid"] as? Bool == true }.count >= 12)
        #expect(result.error.contains("\(bag): 14 frames, timestamps from the header stamps of /stereo/left/image_raw/compressed"))
        // --select copies the frames as they are in the bag: the JPEGs themselves.
        let picks = try FileManager.default.contentsOfDirectory(atPath: "\(root)/picks")
        #expect(!picks.isEmpty && picks.allSatisfy { $0.hasSuffix(".jpg") })
        let first = try #require(picks.sorted().first)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: "\(root)/picks/\(first)"))
        #expect(bytes.prefix(2) == Data([0xFF, 0xD8]))
        try? FileManager.default.removeItem(atPath: "\(root)/picks")
    }

    @Test(.enabled(if: RigBagTests.available, "OpenCV's stereo sample is not installed (Debian's opencv-doc)"))
    func processARigOfTopics() throws {
        let (_, bags) = try Self.bags
        let result = try Self.run(["process", bags[1], "--topic", "/stereo/left/image_raw", "--topic", "r=/stereo/right/image_raw",
                                   "--pattern", "chessboard:9x6", "--sync-tolerance", "10", "--max-motion", "off"])
        #expect(result.status == 0, "\(result.error)")
        let cameras = Set(result.rows.compactMap { $0["camera"] as? String })
        #expect(cameras == ["left", "r"])
        // Frames half a second apart move too far for the motion rule: it is off, as for a rig triggered together.
        #expect(result.rows.contains { $0["rig"] as? String == "enabled" })
        #expect(result.error.contains("rig of 2 cameras (left, r), 27 frames"))
    }

    @Test(.enabled(if: RigBagTests.available, "OpenCV's stereo sample is not installed (Debian's opencv-doc)"))
    func topicsThatAreNotThereOrNotImagesAreErrors() throws {
        let (root, bags) = try Self.bags
        let bag = bags[2]
        let none = try Self.run(["process", bag, "--pattern", "chessboard:9x6"])
        #expect(none.status == 1)
        #expect(none.error.contains("Error: \(bag): it has 2 image topics: choose with --topic (/stereo/left/image_raw (sensor_msgs/msg/Image, 14 messages), "))
        let missing = try Self.run(["process", bag, "--topic", "/nothing", "--pattern", "chessboard:9x6"])
        #expect(missing.status == 1)
        #expect(missing.error.contains("Error: \(bag): it has no topic /nothing; its image topics: /stereo/left/image_raw"))
        let calibrate = try Self.run(["calibrate", bag, "--topic", "/nothing", "--pattern", "chessboard:9x6", "--out", "\(root)/none"])
        #expect(calibrate.status == 1)
        #expect(calibrate.error.contains("\(bag): it has no topic /nothing"))
        #expect(!FileManager.default.fileExists(atPath: "\(root)/none"))
        // The options of a rig or of folders with the wrong input: usage errors.
        let rigOption = try Self.run(["process", bag, "--topic", "/stereo/left/image_raw", "--pattern", "chessboard:9x6", "--require", "2"])
        #expect(rigOption.status == 64)
        #expect(rigOption.error.contains("--require goes with a rig: name two topics or more with --topic"))
        let folderTopic = try Self.run(["process", root, "--topic", "/x"])
        #expect(folderTopic.status == 64)
    }

    /// `--pattern auto`, and `calibrate` without --pattern, identify the target from the topics'
    /// first frames, read from the bag (OpenCV's stereo sample: a 9x6 chessboard), and go on as
    /// with the pattern given.
    @Test(.enabled(if: RigBagTests.available, "OpenCV's stereo sample is not installed (Debian's opencv-doc)"))
    func theTargetIsIdentifiedFromABagsFrames() throws {
        let (root, bags) = try Self.bags
        let bag = bags[0]
        let left = ["--topic", "/stereo/left/image_raw/compressed"]
        let given = try Self.run(["process", bag] + left + ["--pattern", "chessboard:9x6"])
        let identified = try Self.run(["process", bag] + left + ["--pattern", "auto"])
        #expect(identified.status == 0, "\(identified.error)")
        #expect(identified.error.hasPrefix("\(bag): found chessboard:9x6 in 5 of 5 frames\n"), "\(identified.error)")
        func withoutTimes(_ rows: [[String: Any]]) throws -> [Data] {
            try rows.map { row in try JSONSerialization.data(withJSONObject: row.filter { $0.key != "detect_ms" }, options: [.sortedKeys]) }
        }
        #expect(try withoutTimes(identified.rows) == withoutTimes(given.rows), "the same rows as with the pattern given")
        #expect(identified.rows.count == 14)

        let rig = try Self.run(["calibrate", bag, "--topic", "/stereo/left/image_raw/compressed", "--topic",
                                "/stereo/right/image_raw/compressed", "--out", "\(root)/identified-rig"])
        #expect(rig.status == 0, "\(rig.error)")
        #expect(rig.error.hasPrefix("\(bag): found chessboard:9x6 in 5 of 5 frames\n"), "\(rig.error)")
        #expect(rig.error.contains("detected chessboard:9x6 in 14 frames"), "\(rig.error)")
        #expect(FileManager.default.fileExists(atPath: "\(root)/identified-rig/rig.yaml"))
    }

    @Test(.enabled(if: RigBagTests.available, "OpenCV's stereo sample is not installed (Debian's opencv-doc)"))
    func aTruncatedBagIsAnErrorAndTheBagIsNeverWritten() throws {
        let (root, bags) = try Self.bags
        let bytes = try Data(contentsOf: URL(fileURLWithPath: bags[0]))
        let cut = "\(root)/cut.bag"
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: cut))
        let result = try Self.run(["process", cut, "--pattern", "chessboard:9x6"])
        #expect(result.status == 1)
        #expect(result.error.contains("Error: \(cut): truncated: its index should start at offset"))
        // The bag is an input: --output onto it is refused, even with --force, and it is left as it was.
        let onto = try Self.run(["process", bags[0], "--topic", "/stereo/left/image_raw/compressed", "--pattern", "chessboard:9x6",
                                 "--output", bags[0], "--force"])
        #expect(onto.status == 1, "\(onto.error)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: bags[0])) == bytes)
    }

    @Test(.enabled(if: RigBagTests.available, "OpenCV's stereo sample is not installed (Debian's opencv-doc)"))
    func calibrateATopicAndARig() throws {
        let (root, bags) = try Self.bags
        let one = try Self.run(["calibrate", bags[0], "--topic", "/stereo/left/image_raw/compressed", "--pattern", "chessboard:9x6",
                                "--out", "\(root)/left-calibration", "--no-cross-validate"])
        #expect(one.status == 0, "\(one.error)")
        #expect(one.error.contains("\(bags[0]):/stereo/left/image_raw/compressed: detected chessboard:9x6 in 14 frames, target in 14"))
        #expect(one.output.contains("\(root)/left-calibration/calibration.yaml"))
        // Kalibr's camchain.yaml needs a model it holds and a pattern with a size; without a size it is left out, saying why.
        let rig = try Self.run(["calibrate", bags[0], "--topic", "/stereo/left/image_raw/compressed", "--topic", "/stereo/right/image_raw/compressed",
                                "--pattern", "chessboard:9x6:square=25mm", "--model", "pinhole-radtan", "--out", "\(root)/rig-calibration",
                                "--sync-tolerance", "50"])
        #expect(rig.status == 0, "\(rig.error)")
        #expect(rig.error.contains("left (\(bags[0]):/stereo/left/image_raw/compressed): detected chessboard:9x6:square=25mm in 14 frames, target in 14"),
                "\(rig.error)")
        #expect(FileManager.default.fileExists(atPath: "\(root)/rig-calibration/rig.yaml"))
        #expect(FileManager.default.fileExists(atPath: "\(root)/rig-calibration/camchain.yaml"))
        let unsized = try Self.run(["calibrate", bags[0], "--topic", "/stereo/left/image_raw/compressed", "--topic", "/stereo/right/image_raw/compressed",
                                    "--pattern", "chessboard:9x6", "--out", "\(root)/rig-unsized", "--sync-tolerance", "50"])
        #expect(unsized.status == 0, "\(unsized.error)")
        #expect(FileManager.default.fileExists(atPath: "\(root)/rig-unsized/rig.yaml"))
        #expect(!FileManager.default.fileExists(atPath: "\(root)/rig-unsized/camchain.yaml"))
        #expect((unsized.output + unsized.error).contains("camchain.yaml left out: "), "\(unsized.output)\n\(unsized.error)")
    }
}
