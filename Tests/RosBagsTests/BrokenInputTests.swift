import Foundation
import MarkerDetection
import Pixels
@testable import RosBags
import Testing

/// Recordings cut off at many places, with lengths and bytes corrupted, topics that are not there
/// or carry no images, a path that is a FIFO: each a ``BagError`` naming the file or the topic, and
/// never a crash (a crash would end the test process).
@Suite(.serialized) struct BrokenInputTests {
    /// Three small frames as PNG files, and one small recording of each kind (two image topics and
    /// an IMU topic).
    static let fixture: Result<(root: String, bags: [String: String]), any Error> = Result {
        let root = try TestBags.temporaryFolder("BrokenInput")
        var frames: [TestBags.Frame] = []
        for number in 0..<3 {
            let image = try PixelBuffer(width: 40, height: 30, format: .bgr24) { bytes in
                for index in bytes.indices { bytes[index] = UInt8((index * 7 + number * 31) % 251) }
            }
            let path = "\(root)/frame\(number).png"
            try Data(try ImageFile.encode(image, as: .png)).write(to: URL(fileURLWithPath: path))
            frames.append(TestBags.Frame(image: path, stamp: 1_700_000_000_000_000_000 + Int64(number) * 50_000_000))
        }
        let topics = [TestBags.Topic(name: "/camera/image_raw", encoding: "bgr8", frames: frames),
                      TestBags.Topic(name: "/camera/image_raw/compressed", encoding: "jpeg", frames: frames)]
        let imu = [("/imu", frames.map { $0.stamp + 1_000 })]
        var bags: [String: String] = [:]
        for (name, kind, compression) in [("ros1.bag", "ros1", "none"), ("ros1-bz2.bag", "ros1", "bz2"), ("ros1-lz4.bag", "ros1", "lz4"),
                                          ("plain.mcap", "mcap", "none"), ("zstd.mcap", "mcap", "zstd"), ("lz4.mcap", "mcap", "lz4"),
                                          ("sqlite", "rosbag2-sqlite3", "none"), ("rosbag2-mcap", "rosbag2-mcap", "zstd")] {
            try TestBags.write("\(root)/\(name)", container: kind, compression: compression, topics: topics, others: imu, chunkSize: 4000)
            bags[name] = "\(root)/\(name)"
        }
        return (root, bags)
    }

    /// Opens `path`, lists every image topic's messages and decodes every frame; the frames read.
    @discardableResult
    static func readAll(_ path: String) throws -> Int {
        let bag = try ImageBag(path: path)
        let index = try BagIndex(bag: bag, topics: try bag.imageTopics(named: bag.imageTopics.map(\.name)))
        var frames = 0
        for entries in index.entries {
            for entry in entries {
                _ = try index.message(entry).pixels()
                frames += 1
            }
        }
        let walk = try bag.frames(of: index.topics)
        while let frame = try walk.next() { _ = try frame.message.pixels() }
        return frames
    }

    /// The file of a recording whose bytes are cut or changed: the file itself, or a rosbag2
    /// folder's one storage file.
    static func storageFile(_ path: String) throws -> String {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else { return path }
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: path).first { $0.hasSuffix(".db3") || $0.hasSuffix(".mcap") })
        return "\(path)/\(name)"
    }

    /// A copy of the recording at `path` whose storage file is `bytes`.
    static func copy(_ path: String, with bytes: Data, into folder: String, name: String) throws -> (copy: String, file: String) {
        let copy = "\(folder)/\(name)-\((path as NSString).lastPathComponent)"
        try? FileManager.default.removeItem(atPath: copy)
        let file = try storageFile(path)
        if file == path {
            try bytes.write(to: URL(fileURLWithPath: copy))
            return (copy, copy)
        }
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        let inside = "\(copy)/\((file as NSString).lastPathComponent)"
        try bytes.write(to: URL(fileURLWithPath: inside))
        return (copy, inside)
    }

    @Test func theRecordingsAreWhole() throws {
        let (_, bags) = try Self.fixture.get()
        for (name, path) in bags {
            #expect(try Self.readAll(path) == 6, "\(name)")
        }
    }

    @Test(arguments: ["ros1.bag", "ros1-bz2.bag", "ros1-lz4.bag", "plain.mcap", "zstd.mcap", "lz4.mcap", "sqlite", "rosbag2-mcap"])
    func aRecordingCutOffAnywhereIsAnErrorNamingIt(_ name: String) throws {
        let (root, bags) = try Self.fixture.get()
        let path = try #require(bags[name])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: try Self.storageFile(path)))
        let folder = "\(root)/cut"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // About 200 places over the file, and every one of its last 64 bytes.
        var offsets = Set(stride(from: 0, to: bytes.count, by: max(1, bytes.count / 200)))
        offsets.formUnion(max(0, bytes.count - 64)..<bytes.count)
        var refused = 0
        for offset in offsets.sorted() {
            let (copy, file) = try Self.copy(path, with: bytes.prefix(offset), into: folder, name: "cut")
            do {
                let frames = try Self.readAll(copy)
                Issue.record("\(name) cut at \(offset) of \(bytes.count) bytes read \(frames) frames without an error")
            } catch let error as BagError {
                refused += 1
                #expect(error.description.hasPrefix(copy) || error.description.hasPrefix(file), "\(name) at \(offset): \(error)")
            }
        }
        #expect(refused == offsets.count)
        print("\(name): cut at \(offsets.count) places of \(bytes.count) bytes, each refused")
    }

    @Test(arguments: ["ros1.bag", "ros1-bz2.bag", "ros1-lz4.bag", "plain.mcap", "zstd.mcap", "lz4.mcap", "sqlite", "rosbag2-mcap"])
    func changedBytesAreReadOrRefusedNeverACrash(_ name: String) throws {
        let (root, bags) = try Self.fixture.get()
        let path = try #require(bags[name])
        let original = try Data(contentsOf: URL(fileURLWithPath: try Self.storageFile(path)))
        let folder = "\(root)/changed"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var generator = SplitMix(seed: UInt64(name.utf8.reduce(0) { $0 &* 31 &+ Int($1) }))
        var outcomes = (read: 0, refused: 0)
        for _ in 0..<150 {
            var bytes = original
            // One to four bytes set to a value that makes a length huge, zero or odd.
            for _ in 0..<(1 + Int(generator.next() % 4)) {
                let position = Int(generator.next() % UInt64(bytes.count))
                bytes[position] = [0xFF, 0x00, 0x7F, 0x80, UInt8(truncatingIfNeeded: generator.next())][Int(generator.next() % 5)]
            }
            let (copy, file) = try Self.copy(path, with: bytes, into: folder, name: "changed")
            do {
                try Self.readAll(copy)
                outcomes.read += 1
            } catch let error as BagError {
                outcomes.refused += 1
                #expect(error.description.hasPrefix(copy) || error.description.hasPrefix(file), "\(name): \(error)")
            } catch let error as ImageMessageError {
                outcomes.refused += 1  // pixels that no longer decode (a JPEG's bytes changed)
                #expect(!error.reason.isEmpty)
            }
        }
        #expect(outcomes.refused > 0)
        print("\(name): 150 copies with bytes changed: \(outcomes.read) read, \(outcomes.refused) refused")
    }

    /// Writes `value` little-endian at `offset`.
    static func poke<T: FixedWidthInteger>(_ bytes: inout Data, _ offset: Int, _ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.replaceSubrange(offset..<(offset + MemoryLayout<T>.size), with: $0) }
    }

    static func peek32(_ bytes: Data, _ offset: Int) -> Int {
        Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 24
    }

    @Test func corruptLengthsOfABagAreRefusedBeforeAnythingIsAllocated() throws {
        let (root, bags) = try Self.fixture.get()
        let original = try Data(contentsOf: URL(fileURLWithPath: try #require(bags["ros1-lz4.bag"])))
        // The bag header record at 13, padded to 4096 bytes; the first chunk record after it.
        let chunk = 13 + 4096
        let chunkHeader = Self.peek32(original, chunk)
        let indexPosition = try #require(original.prefix(200).range(of: Data("index_pos=".utf8))).upperBound
        let cases: [(String, (inout Data) -> Void, String)] = [
            ("index_pos far past the end", { Self.poke(&$0, indexPosition, UInt64(1) << 62) }, "truncated"),
            ("a chunk's header of 4 GiB", { Self.poke(&$0, chunk, UInt32.max) }, "more than the"),
            ("a chunk's data of 4 GiB", { Self.poke(&$0, chunk + 4 + chunkHeader, UInt32.max) }, "runs past"),
            ("a header field of 4 GiB", { Self.poke(&$0, chunk + 4, UInt32.max) }, "claims"),
        ]
        for (what, change, words) in cases {
            var bytes = original
            change(&bytes)
            let path = "\(root)/lengths.bag"
            try bytes.write(to: URL(fileURLWithPath: path))
            #expect {
                try Self.readAll(path)
            } throws: { error in
                guard let error = error as? BagError else { return false }
                return error.path == path && error.description.contains(words)
            }
            _ = what
        }
    }

    @Test func corruptLengthsOfAnMCAPFileAreRefused() throws {
        let (root, bags) = try Self.fixture.get()
        let original = try Data(contentsOf: URL(fileURLWithPath: try #require(bags["zstd.mcap"])))
        // The header record at 8: opcode, length, then the first record of the data section.
        let header = 8
        let headerLength = Self.peek32(original, header + 1)
        let first = header + 9 + headerLength
        #expect(original[first] == 0x06, "the data section starts with a chunk")
        let cases: [(String, (inout Data) -> Void)] = [
            ("the header's length", { Self.poke(&$0, header + 1, UInt64(1) << 63) }),
            ("the first record's length", { Self.poke(&$0, first + 1, UInt64.max - 3) }),
            ("the footer's summary start", { Self.poke(&$0, $0.count - 8 - 20, UInt64($0.count) * 2) }),
            ("the first chunk's uncompressed size", { Self.poke(&$0, first + 9 + 16, UInt64.max) }),
            ("the first chunk's compression's length", { Self.poke(&$0, first + 9 + 28, UInt32.max) }),
            ("the first chunk's records' length", { Self.poke(&$0, first + 9 + 32 + 4, UInt64(1) << 40) }),
        ]
        for (what, change) in cases {
            var bytes = original
            change(&bytes)
            let path = "\(root)/lengths.mcap"
            try bytes.write(to: URL(fileURLWithPath: path))
            #expect(throws: BagError.self, "\(what)") { try Self.readAll(path) }
        }
    }

    @Test func topicsThatAreNotThereOrNotImagesAreNamed() throws {
        let (_, bags) = try Self.fixture.get()
        for path in bags.values {
            let bag = try ImageBag(path: path)
            #expect {
                try bag.imageTopics(named: ["/left/image_raw"])
            } throws: { error in
                (error as? BagError)?.kind == .missingTopic && "\(error)".hasPrefix(path)
                    && "\(error)".contains("no topic /left/image_raw") && "\(error)".contains("/camera/image_raw (")
            }
            #expect {
                try bag.imageTopics(named: ["/imu"])
            } throws: { error in
                (error as? BagError)?.kind == .notImages && "\(error)".contains("topic /imu carries sensor_msgs")
            }
            // With no topic named and two image topics, the choice is asked for.
            #expect {
                try bag.imageTopics(named: [])
            } throws: { error in
                "\(error)".contains("it has 2 image topics: choose with --topic")
            }
        }
    }

    @Test func aFIFOOrAFolderIsRefusedWithoutWaiting() throws {
        let (root, _) = try Self.fixture.get()
        let fifo = "\(root)/fifo.bag"
        try? FileManager.default.removeItem(atPath: fifo)
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: BagError(.unreadable, path: fifo, "is a FIFO, not a regular file")) { try ImageBag(path: fifo) }
        #expect(throws: BagError(.unreadable, path: root, "is a folder without metadata.yaml: not a rosbag2 folder")) {
            try ImageBag(path: root)
        }
        #expect(throws: BagError(.unreadable, path: "\(root)/none.bag", "no such file or folder")) { try ImageBag(path: "\(root)/none.bag") }
    }
}

/// A small deterministic generator (SplitMix64), so that the changed bytes are the same every run.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
