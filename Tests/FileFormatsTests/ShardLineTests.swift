@testable import FileFormats
import Foundation
import Testing

/// The lines of a shard file: each written as `process --shard` writes it and read back to the same
/// value, a frame's whole row made again byte for byte as `process` writes it, and hostile lines
/// refused before anything is made of them.
@Suite struct ShardLineTests {
    static let header = ShardLine.Header(
        name: "charuco-session", folder: "/data/charuco-session", path: "Samples/charuco-session", timing: "timestamps from manifest.jsonl",
        frames: 120, frameList: "fnv1a64:0123456789abcdef",
        options: .init(pattern: "charuco:5x7:DICT_6X6_250", detect: "fast", minMarkers: 4, minCorners: 6, minSharpness: 50,
                       holdNanoseconds: 300_000_000, pixelLimit: 100_000_000),
        shard: 1, shards: 4, first: 30, end: 60, list: nil, listIndex: nil, listCount: nil, task: 1, tasks: 4)

    @Test func aHeaderIsWrittenWithItsKeysSortedAndReadBack() throws {
        let line = Self.header.line
        #expect(line.hasPrefix(#"{"end":60,"first":30,"folder":"/data/charuco-session","#))
        #expect(line.contains(#""marker_shutter_shard":1"#) && line.contains(#""hold_ns":300000000"#))
        #expect(try ShardLine(parsing: line) == .header(Self.header))
    }

    /// Each row of `process` (read from the fixture) becomes a frame's line and back, and the row
    /// made again from it with the shutter is the row `process` wrote, byte for byte.
    @Test func aFramesLineGivesBackTheProcessRowByteForByte() throws {
        for text in try Fixtures.lines(Fixtures.before + "/rows.jsonl") {
            let row = try ProcessRow(parsing: text)
            var shutter = "", held: Int?
            if case .detected(let detected) = row.outcome {
                shutter = detected.shutter
                held = detected.heldIndex
            }
            let frame = ShardLine.Frame(row: row, nanoseconds: Int64((row.t * 1e9).rounded()))
            #expect(!frame.text.contains("\"shutter\"") && frame.text.hasSuffix(",\"t_ns\":\(frame.nanoseconds)}"))
            let read = try ShardLine.Frame(parsing: frame.text)
            #expect(read.nanoseconds == frame.nanoseconds)
            #expect(read.row(shutter: shutter, heldIndex: held).text == text)
            #expect(read.text == frame.text)
        }
    }

    @Test func aTrailerIsReadBack() throws {
        let trailer = ShardLine.Trailer(shard: 1, rows: 30, seconds: 0.41, cpuSeconds: 0.78, jobs: 2)
        #expect(trailer.line == #"{"cpu_seconds":0.78,"jobs":2,"marker_shutter_shard_end":1,"rows":30,"seconds":0.41}"#)
        #expect(try ShardLine(parsing: trailer.line) == .trailer(trailer))
    }

    @Test(arguments: [
        (#"{"index":30,"file":"a.jpg","t":1,"valid":true,"markers":[],"corners":[],"sharpness":1,"detect_ms":1}"#,
         "no t_ns (the frame's time in nanoseconds) from -1e18 to 1e18"),
        (#"{"index":30,"file":"a.jpg","t":1,"valid":true,"markers":[],"corners":[],"sharpness":1,"detect_ms":1,"why":["x"],"t_ns":1}"#,
         "a valid frame with why"),
        (#"{"index":30,"file":"a.jpg","t":1,"valid":true,"markers":[],"corners":[],"sharpness":1,"detect_ms":1,"shutter":"held","t_ns":1}"#,
         "a frame's line with the shutter's fields"),
        (#"{"index":-1,"file":"a.jpg","t":1,"error":"x","t_ns":1}"#, "frame index -1 out of range"),
        (#"{"index":3,"file":"a.jpg","t":1,"error":"x","t_ns":1e300}"#, "no t_ns (the frame's time in nanoseconds) from -1e18 to 1e18"),
        (#"{"index":3,"file":"a.jpg""#, "not a JSON object"),
    ])
    func aHostileFrameLineIsRefused(line: String, message: String) {
        let error = #expect(throws: ShardLineError.self) { try ShardLine(parsing: line) }
        #expect(error?.description == message)
    }

    @Test func aHeaderWithImpossibleNumbersIsRefused() throws {
        var frames = Self.header
        frames.frames = Int.max - 10
        frames.end = Int.max - 20
        var hold = Self.header
        hold.options.holdNanoseconds = Int64.max
        var shard = Self.header
        shard.shard = 4
        var list = Self.header
        list.listIndex = 3
        for (header, message) in [(frames, "a shard header with impossible numbers"), (hold, "a shard header with impossible options"),
                                  (shard, "a shard header with impossible numbers"),
                                  (list, "a shard header with an impossible place in its folder list")] {
            let error = #expect(throws: ShardLineError.self) { try ShardLine.Header(parsing: header.line) }
            #expect(error?.description == message)
        }
        #expect(throws: ShardLineError.otherFormat(2)) {
            try ShardLine.Header(parsing: Self.header.line.replacingOccurrences(of: #""marker_shutter_shard":1"#, with: #""marker_shutter_shard":2"#))
        }
        #expect(throws: ShardLineError.notAShard) { try ShardLine.Header(parsing: #"{"index":0}"#) }
    }
}
