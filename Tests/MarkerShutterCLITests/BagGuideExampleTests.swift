import Foundation
import Testing

/// The guide's ROS bag examples, run as the guide shows them on bags written with Python's rosbags
/// (Tests/RosBagsTests/Python/make_bags.py, in the environment Scripts/install-dependencies makes):
/// the sample session as a ROS 1 bag of its JPEGs, and OpenCV's stereo sample as two topics.
@Suite struct BagGuideExampleTests {
    /// The Python that imports rosbags and mcap (see RosBagsTests' TestBags).
    static let python: String? = {
        let home = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
        let data = ProcessInfo.processInfo.environment["XDG_DATA_HOME"] ?? "\(home)/.local/share"
        let candidates = [ProcessInfo.processInfo.environment["MARKER_SHUTTER_TEST_PYTHON"], "\(data)/marker-shutter/test-python/bin/python3",
                          "/usr/bin/python3"].compactMap { $0 }
        return candidates.first { candidate in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: candidate)
            process.arguments = ["-c", "import rosbags, mcap, cv2"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            guard (try? process.run()) != nil else { return false }
            process.waitUntilExit()
            return process.terminationStatus == 0
        }
    }()

    /// Writes a bag from `spec` (make_bags.py's JSON).
    static func write(_ spec: [String: Any], in folder: String) throws {
        let python = try #require(Self.python, "no Python imports rosbags, mcap and cv2: run Scripts/install-dependencies")
        let path = "\(folder)/spec.json"
        try JSONSerialization.data(withJSONObject: spec).write(to: URL(fileURLWithPath: path))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [MarkerShutterBinary.packageRoot + "/Tests/RosBagsTests/Python/make_bags.py", path]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    static func example(_ prefix: String) throws -> DocumentedExample {
        let guide = try String(contentsOfFile: MarkerShutterBinary.packageRoot + "/Docs/guide.md", encoding: .utf8)
        return try #require(DocumentedExample.parse(guide).first { $0.command.hasPrefix(prefix) })
    }

    @Test func theSampleSessionAsABagGivesTheGuidesSummary() throws {
        let folder = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let sample = MarkerShutterBinary.packageRoot + "/Samples/charuco-session"
        let frames = try String(contentsOfFile: sample + "/manifest.jsonl", encoding: .utf8).split(separator: "\n").map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let t = try #require(object["t"] as? Double)
            return ["image": "\(sample)/\(try #require(object["file"] as? String))", "stamp_ns": 1_700_000_000_000_000_000 + Int64((t * 1e9).rounded())]
        }
        try Self.write(["output": "\(folder)/charuco-session.bag", "container": "ros1", "compression": "none",
                        "topics": [["name": "/camera/image_raw/compressed", "encoding": "jpeg", "frames": frames]]], in: folder)
        let example = try Self.example("marker-shutter process charuco-session.bag")
        let result = try DocsExamplesTests.shell(example.command, in: folder)
        #expect(result.status == 0, "\(result.standardError)")
        let mismatch = DocsExamplesTests.mismatch(documented: try #require(example.output), printed: result.standardError)
        #expect(mismatch == nil, "\(mismatch ?? "")\n--- printed:\n\(result.standardError)")
        let rows = try String(contentsOfFile: "\(folder)/bag-rows.jsonl", encoding: .utf8).split(separator: "\n")
        #expect(rows.count == 120)
        #expect(rows.first?.hasPrefix("{\"index\":0,\"file\":\"1700000000000000000.jpg\",\"t\":1700000000,\"sequence\":null,\"valid\":true,") == true)
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/share/doc/opencv-doc/examples/data/right14.jpg"),
                   "OpenCV's stereo sample is not installed (Debian's opencv-doc)"))
    func aBagOfTwoImageTopicsAsksForOne() throws {
        let folder = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let data = "/usr/share/doc/opencv-doc/examples/data"
        let numbers = ["01", "02", "03", "04", "05", "06", "07", "08", "09", "11", "12", "13", "14"]
        let start: Int64 = 1_700_000_000_000_000_000
        let left = numbers.enumerated().map { ["image": "\(data)/left\($1).jpg", "stamp_ns": start + Int64($0) * 500_000_000] as [String: Any] }
            + [["image": "\(data)/left01.jpg", "stamp_ns": start + 13 * 500_000_000]]
        let right = numbers.enumerated().map { ["image": "\(data)/right\($1).jpg", "stamp_ns": start + 3_000_000 + Int64($0) * 500_000_000] as [String: Any] }
        try Self.write(["output": "\(folder)/stereo.bag", "container": "ros1", "compression": "lz4",
                        "topics": [["name": "/stereo/left/image_raw", "encoding": "mono8", "frames": left],
                                   ["name": "/stereo/right/image_raw", "encoding": "mono8", "frames": right]]], in: folder)
        let guide = try String(contentsOfFile: MarkerShutterBinary.packageRoot + "/Docs/guide.md", encoding: .utf8)
        let example = try #require(DocumentedExample.parse(guide).first { $0.command == "marker-shutter process stereo.bag --pattern chessboard:9x6" })
        let result = try DocsExamplesTests.shell(example.command, in: folder)
        #expect(result.status == 1)
        #expect(result.standardOutput.isEmpty)
        let documented = try #require(example.output)
        #expect(result.standardError == documented + "\n", "\(result.standardError)")
    }
}
