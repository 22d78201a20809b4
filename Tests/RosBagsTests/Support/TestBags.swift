import Foundation
import Synchronization

/// Recordings for the tests, written by well-kept writers: `Python/make_bags.py` with the `rosbags`
/// package (ROS 1 bags, rosbag2 folders) and Foxglove's `mcap` package (MCAP files with lz4 and zstd
/// chunks), both installed by Scripts/install-dependencies into a Python environment of their own.
enum TestBags {
    /// The project's folder.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path
    /// The shared images.
    static let images = (root as NSString).appendingPathComponent("../shared/images")
    /// The real recordings (PhotonVision's, see their README).
    static let recordings = (images as NSString).appendingPathComponent("recordings")
    static let script = (root as NSString).appendingPathComponent("Tests/RosBagsTests/Python/make_bags.py")

    /// The Python that imports rosbags and mcap: $MARKER_SHUTTER_TEST_PYTHON, the environment
    /// Scripts/install-dependencies makes, or /usr/bin/python3.
    static let python: String? = {
        var candidates: [String] = []
        if let given = ProcessInfo.processInfo.environment["MARKER_SHUTTER_TEST_PYTHON"] { candidates.append(given) }
        let home = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
        let data = ProcessInfo.processInfo.environment["XDG_DATA_HOME"] ?? "\(home)/.local/share"
        candidates += ["\(data)/marker-shutter/test-python/bin/python3", "/usr/bin/python3"]
        return candidates.first { (try? run($0, ["-c", "import rosbags, mcap, cv2"])) != nil }
    }()

    static let missingPython = "no Python imports rosbags, mcap and cv2: run Scripts/install-dependencies "
        + "(it makes ~/.local/share/marker-shutter/test-python), or set MARKER_SHUTTER_TEST_PYTHON"

    /// One frame: an image file and its stamp.
    struct Frame {
        var image: String
        var stamp: Int64
        var receive: Int64?
    }

    /// One topic of a recording.
    struct Topic {
        var name: String
        var encoding: String
        var frames: [Frame]
        var rowPadding = 0
        /// Where the same frames are written as files, with a manifest of their stamps.
        var folder: String?
    }

    /// Writes a recording at `output`.
    ///
    /// - Parameters:
    ///   - container: `ros1`, `rosbag2-sqlite3`, `rosbag2-mcap` or `mcap`.
    ///   - compression: `none`, `bz2`, `lz4`, `zstd` or `message-zstd`.
    ///   - others: Topics of `sensor_msgs/Imu` messages, with their stamps.
    static func write(
        _ output: String, container: String, compression: String = "none", topics: [Topic], others: [(String, [Int64])] = [],
        mcapEncoding: String = "cdr", chunkSize: Int? = nil
    ) throws {
        guard let python else { throw TestBagError(message: missingPython) }
        var spec: [String: Any] = [
            "output": output, "container": container, "compression": compression, "mcap_encoding": mcapEncoding,
            "topics": topics.map { topic -> [String: Any] in
                var entry: [String: Any] = [
                    "name": topic.name, "encoding": topic.encoding, "row_padding": topic.rowPadding,
                    "frames": topic.frames.map { frame -> [String: Any] in
                        var item: [String: Any] = ["image": frame.image, "stamp_ns": frame.stamp]
                        if let receive = frame.receive { item["receive_ns"] = receive }
                        return item
                    },
                ]
                if let folder = topic.folder { entry["folder"] = folder }
                return entry
            },
            "other_topics": others.map { ["name": $0.0, "stamps_ns": $0.1] },
        ]
        if let chunkSize { spec["chunk_size"] = chunkSize }
        let specPath = NSTemporaryDirectory() + "bag-spec-\(UUID().uuidString.prefix(8)).json"
        try JSONSerialization.data(withJSONObject: spec).write(to: URL(fileURLWithPath: specPath))
        defer { try? FileManager.default.removeItem(atPath: specPath) }
        _ = try run(python, [script, specPath])
    }

    /// The first `count` frames of a real recording (in natural order), `interval` apart from `start`.
    static func recordingFrames(_ folder: String, count: Int, start: Int64 = 1_700_000_000_000_000_000,
                                interval: Int64 = 33_333_333) throws -> [Frame] {
        let path = (recordings as NSString).appendingPathComponent(folder)
        let names = try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasSuffix(".jpg") }
            .sorted { $0.compare($1, options: .numeric) == .orderedAscending }
        return names.prefix(count).enumerated().map { index, name in
            Frame(image: (path as NSString).appendingPathComponent(name), stamp: start + Int64(index) * interval)
        }
    }

    /// Runs a program; its standard output, or an error with its standard error.
    @discardableResult
    static func run(_ program: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let errorData = Mutex(Data())
        let reader = Thread { errorData.withLock { $0 = error.fileHandleForReading.readDataToEndOfFile() } }
        reader.start()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while reader.isExecuting || !reader.isFinished { usleep(1000) }
        guard process.terminationStatus == 0 else {
            throw TestBagError(message: "\(program) \(arguments.joined(separator: " ")): " + String(decoding: errorData.withLock { $0 }, as: UTF8.self))
        }
        return String(decoding: outputData, as: UTF8.self)
    }

    /// A fresh folder under the system's temporary folder, removed when the test process ends (the
    /// suites' recordings are written once and shared by their tests).
    static func temporaryFolder(_ name: String = #function) throws -> String {
        let safe = name.filter { $0.isLetter || $0.isNumber }
        let path = NSTemporaryDirectory() + "rosbags-tests-\(safe)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let first = made.withLock { folders in
            folders.append(path)
            return folders.count == 1
        }
        if first { atexit { for folder in TestBags.made.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: folder) } } }
        return path
    }

    /// The folders ``temporaryFolder(_:)`` made.
    static let made = Mutex<[String]>([])
}

struct TestBagError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
