import Foundation
import Testing

/// Hostile input, one surface at a time, each case held to the same three rules: the command fails
/// with a message that says what is wrong (never a crash, never status 0), and it writes nothing at
/// all: every file of its working folder, the input included, is byte for byte as before, and no
/// file or folder appears. Each surface's own suite checks its messages in detail; this table grows
/// with every surface, so that no new one escapes the rules.
@Suite struct HostileSurfaceTests {
    struct Case: CustomStringConvertible, Sendable {
        let description: String
        /// Makes the hostile input in the working folder.
        let make: @Sendable (String) throws -> Void
        /// The command's arguments, run in the working folder.
        let arguments: [String]
        /// The exit status it must end with.
        let status: Int32
        /// What its message must say.
        let message: String
    }

    static let chessboard = MarkerShutterBinary.sharedImages + "/chessboard"

    /// `input/`: two chessboard photos and their manifest.
    static func frames(_ folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder + "/input", withIntermediateDirectories: true)
        for (index, name) in ["left01.jpg", "left02.jpg"].enumerated() {
            try FileManager.default.copyItem(atPath: chessboard + "/" + name, toPath: folder + "/input/" + name)
            try FileHandle.append("{\"file\":\"\(name)\",\"t\":\(index)}\n", to: folder + "/input/manifest.jsonl")
        }
    }

    /// `input/`: four pictures' sidecars of a 9x6 chessboard, the first picture a real 640x480
    /// photo whose sidecar says 1280x960, the others empty stand-ins (read from their sidecars).
    static func sidecarsOfAnotherSize(_ folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder + "/input", withIntermediateDirectories: true)
        for index in 1...4 {
            let stem = String(format: "capture_%04d", index)
            if index == 1 {
                try FileManager.default.copyItem(atPath: chessboard + "/left01.jpg", toPath: folder + "/input/\(stem).jpg")
            } else {
                #expect(FileManager.default.createFile(atPath: folder + "/input/\(stem).jpg", contents: Data()))
            }
            let corners = (0..<54).map { "{\"id\":\($0),\"xy\":[\(100 + 20 * ($0 % 9) + index),\(100 + 20 * ($0 / 9))]}" }
            try ("{\"image\":\"\(stem).jpg\",\"pattern\":\"chessboard:9x6\",\"width\":1280,\"height\":960,\"valid\":true,"
                + "\"markers\":[],\"corners\":[\(corners.joined(separator: ","))]}")
                .write(toFile: folder + "/input/\(stem).json", atomically: true, encoding: .utf8)
        }
    }

    /// `input/`: a rig's recording of one frame a camera (`left`, `right`) whose `events.jsonl`
    /// has left's second arrival earlier than its first, which no live rig writes.
    static func rigWithArrivalsGoingBack(_ folder: String) throws {
        for camera in ["left", "right"] {
            try FileManager.default.createDirectory(atPath: folder + "/input/" + camera, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: chessboard + "/left01.jpg", toPath: folder + "/input/\(camera)/frame_000000.jpg")
            try FileHandle.append("{\"camera\":\"\(camera)\",\"file\":\"frame_000000.jpg\",\"t\":10.1}\n", to: folder + "/input/manifest.jsonl")
        }
        try "{\"cameras\":[{\"name\":\"left\",\"fps\":30},{\"name\":\"right\",\"fps\":30}]}\n"
            .write(toFile: folder + "/input/cameras.json", atomically: true, encoding: .utf8)
        try "{\"arrived\":\"left\",\"t\":10.1}\n{\"arrived\":\"left\",\"t\":10}\n"
            .write(toFile: folder + "/input/events.jsonl", atomically: true, encoding: .utf8)
    }

    /// Two calibration.json files for `compare`: `good.json`, and `tiny.json` whose fx is 1e-300.
    static func cameraThatCannotBeMeasured(_ folder: String) throws {
        for (name, fx) in [("good", "800.0"), ("tiny", "1e-300")] {
            try ("{\"camera_matrix\":[\(fx),0,320,0,800,240,0,0,1],\"distortion_coefficients\":[0.1,-0.2,0,0,0.05],"
                + "\"distortion_model\":\"pinhole\",\"image_height\":480,\"image_width\":640}")
                .write(toFile: folder + "/\(name).json", atomically: true, encoding: .utf8)
        }
    }

    static let cases: [Case] = [
        Case(description: "process: rows written inside the input folder", make: frames,
             arguments: ["process", "input", "--pattern", "chessboard:9x6", "--output", "input/rows.jsonl"], status: 1,
             message: "input/rows.jsonl is inside the input folder input, which is never written into"),
        Case(description: "process: annotations inside the input folder, through a link", make: { folder in
                 try frames(folder)
                 try FileManager.default.createSymbolicLink(atPath: folder + "/alias", withDestinationPath: "input")
             },
             arguments: ["process", "input", "--pattern", "chessboard:9x6", "--annotate", "alias/annotated"], status: 1,
             message: "--annotate alias/annotated is inside the input folder input"),
        Case(description: "process: a manifest time that overflows", make: { folder in
                 try frames(folder)
                 try "{\"file\":\"left01.jpg\",\"t\":1e300}\n".write(toFile: folder + "/input/manifest.jsonl", atomically: true, encoding: .utf8)
             },
             arguments: ["process", "input", "--pattern", "chessboard:9x6", "--output", "rows.jsonl"], status: 1,
             message: "manifest.jsonl line 1: t must be -1000000000 to 1000000000 seconds"),
        Case(description: "live: a replay's pictures inside the replayed folder", make: frames,
             arguments: ["live", "--replay", "input", "--pattern", "chessboard:9x6", "--out", "input/sets"], status: 1,
             message: "--out input/sets is inside the input folder input"),
        Case(description: "process --folders: a list line that is not UTF-8", make: { folder in
                 try frames(folder)
                 try Data("input\n".utf8 + [0x62, 0xFF, 0x0A]).write(to: URL(fileURLWithPath: folder + "/list.txt"))
             },
             arguments: ["process", "--folders", "list.txt", "--shard", "0/1", "--output", "shards"], status: 1,
             message: "list.txt line 2, b\\xFF, is not UTF-8"),
        Case(description: "calibrate: a sidecar whose size is not its picture's", make: sidecarsOfAnotherSize,
             arguments: ["calibrate", "input", "--out", "calibration"], status: 1,
             message: "corrupted sidecar: it gives capture_0001.jpg as 1280x960 pixels, but the picture is 640x480"),
        Case(description: "calibrate: one folder given as two cameras, under two names", make: { folder in
                 try frames(folder)
                 try FileManager.default.createSymbolicLink(atPath: folder + "/alias", withDestinationPath: "input")
             },
             arguments: ["calibrate", "--camera", "a=input", "--camera", "b=alias", "--pattern", "chessboard:9x6", "--out", "rig"],
             status: 1, message: "cameras a and b name one folder (input and alias)"),
        Case(description: "merge: the merged file inside the folder the shards were made from", make: { folder in
                 try frames(folder)
                 let shard = try MarkerShutterBinary.run(
                     ["process", "input", "--pattern", "chessboard:9x6", "--shard", "0/1", "--output", "shards"], in: folder)
                 try #require(shard.status == 0, "\(shard.standardError)")
             },
             arguments: ["merge", "shards", "--output", "input/merged.jsonl", "--force"], status: 1,
             message: "input/merged.jsonl is inside the input folder"),
        Case(description: "process: a rig recording whose events go back in time", make: rigWithArrivalsGoingBack,
             arguments: ["process", "input", "--pattern", "chessboard:9x6", "--output", "rows.jsonl"], status: 1,
             message: "events.jsonl line 2: left's arrival at t=10 s is earlier than its arrival before it (t=10.1 s)"),
        Case(description: "compare: a camera whose focal length is no camera's", make: cameraThatCannotBeMeasured,
             arguments: ["compare", "good.json", "tiny.json"], status: 1,
             message: "tiny.json: its focal length fx is 1e-300 pixels: a camera's is from 1 to 10000000 pixels"),
    ]

    /// Every name under `folder` (links not followed) with its bytes, or what it is.
    static func snapshot(_ folder: String) throws -> [String: Data] {
        var result: [String: Data] = [:]
        let enumerator = try #require(FileManager.default.enumerator(atPath: folder))
        while let name = enumerator.nextObject() as? String {
            let path = folder + "/" + name
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            switch attributes[.type] as? FileAttributeType {
            case .typeSymbolicLink?: result[name] = Data(("link " + (try FileManager.default.destinationOfSymbolicLink(atPath: path))).utf8)
            case .typeDirectory?: result[name] = Data("folder".utf8)
            default: result[name] = try Data(contentsOf: URL(fileURLWithPath: path))
            }
        }
        return result
    }

    @Test(arguments: cases)
    func isRefusedSayingWhyAndWritesNothing(_ hostile: Case) throws {
        let folder = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try hostile.make(folder)
        let before = try Self.snapshot(folder)
        let result = try MarkerShutterBinary.run(hostile.arguments, in: folder)
        #expect(result.status == hostile.status, "\(hostile): status \(result.status): \(result.standardError)")
        #expect(result.standardError.contains(hostile.message), "\(hostile): \(result.standardError)")
        #expect(result.standardOutput.isEmpty, "\(hostile): \(result.standardOutput)")
        #expect(try Self.snapshot(folder) == before, "\(hostile): the folder changed")
    }
}

extension FileHandle {
    /// Appends `text` to the file at `path`, made if missing.
    static func append(_ text: String, to path: String) throws {
        if !FileManager.default.fileExists(atPath: path) { #expect(FileManager.default.createFile(atPath: path, contents: nil)) }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
    }
}
