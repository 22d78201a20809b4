import Foundation

/// A line of a shard file, the part of a folder one task of `process --shard` writes and `merge`
/// puts back together: a ``Header`` first, one ``Frame`` line per frame of the shard, a ``Trailer``
/// last.
///
/// ```
/// {"marker_shutter_shard":1,"end":60,"first":30,"folder":"/data/charuco-session",...,"shard":1,"shards":4,...}
/// {"index":30,"file":"frame_000030.jpg","t":1.001,...,"detect_ms":3.1,"why":["no markers"],"t_ns":1001000000}
/// {"index":31,"file":"frame_000031.jpg","t":1.034367,"error":"not an image","t_ns":1034367000}
/// {"cpu_seconds":0.78,"jobs":2,"marker_shutter_shard_end":1,"rows":30,"seconds":0.41}
/// ```
///
/// Written by ``text``; read by ``init(parsing:)`` as untrusted input, the whole line parsed as JSON
/// and every number checked against the range it may have before anything is made of it. Which
/// header belongs with which (one folder, one set of options, each shard once) is `merge`'s to check.
public enum ShardLine: Sendable, Equatable {
    /// The first line: which folder, which options, which shard.
    case header(Header)
    /// A frame's line.
    case frame(Frame)
    /// The last line: the shard is complete, and what it cost.
    case trailer(Trailer)

    /// The version of the shard file format this package writes and reads.
    public static let formatVersion = 1
    /// The most shards (and tasks) one folder may be cut into.
    public static let maximumShards = 1_000_000
    /// The most frames a folder may have.
    public static let maximumFrames = 100_000_000
    /// The longest hold a shard's options may give: an hour, as `--hold` allows.
    public static let maximumHoldNanoseconds: Int64 = 3_600_000_000_000
    /// The frames' timestamps, in nanoseconds: about ±31 years, as a manifest's.
    public static let frameNanoseconds: ClosedRange<Int64> = -1_000_000_000_000_000_000...1_000_000_000_000_000_000

    /// The line's text, without its line break.
    public var text: String {
        switch self {
        case .header(let header): header.line
        case .frame(let frame): frame.text
        case .trailer(let trailer): trailer.line
        }
    }

    /// Reads a line (without its line break), by its first key: `marker_shutter_shard`, `index` or
    /// `marker_shutter_shard_end`.
    ///
    /// - Throws: ``ShardLineError`` naming what is wrong.
    public init(parsing line: some StringProtocol) throws(ShardLineError) {
        if line.hasPrefix("{\"index\":") {
            self = .frame(try Frame(parsing: line))
        } else if line.contains("\"marker_shutter_shard_end\"") {
            self = .trailer(try Trailer(parsing: line))
        } else {
            self = .header(try Header(parsing: line))
        }
    }

    // MARK: - Header

    /// The first line of a shard file: which folder (its path and a digest of its frame list), which
    /// options, which shard of how many, and which frames.
    public struct Header: Codable, Sendable, Equatable {
        /// The format version (``ShardLine/formatVersion``); its key, `marker_shutter_shard`, marks a shard file.
        public var format: Int
        /// The recording's name: the name of its merged file, `NAME.jsonl`, in a folder of timelines.
        public var name: String
        /// The folder's absolute path, links resolved.
        public var folder: String
        /// The folder as the command was given it (the summary's first word).
        public var path: String
        /// Where the timestamps came from, as the summary says it.
        public var timing: String
        /// Frames in the whole folder.
        public var frames: Int
        /// A digest of the folder's frame list.
        public var frameList: String
        /// What detection and the shutter were asked for.
        public var options: Options
        /// This shard, from 0.
        public var shard: Int
        /// How many shards the folder was cut into.
        public var shards: Int
        /// The shard's first frame.
        public var first: Int
        /// The frame after its last.
        public var end: Int
        /// The folder list this recording came from (`process --folders`), else `nil`.
        public var list: String?
        /// The recording's position in that list, from 0.
        public var listIndex: Int?
        /// How many folders the list names.
        public var listCount: Int?
        /// The task that wrote this shard.
        public var task: Int
        /// How many tasks the job had.
        public var tasks: Int

        enum CodingKeys: String, CodingKey {
            case format = "marker_shutter_shard"
            case name, folder, path, timing, frames
            case frameList = "frame_list"
            case options, shard, shards, first, end, list
            case listIndex = "list_index"
            case listCount = "list_count"
            case task, tasks
        }

        /// The options a shard was made with, which every shard of a folder must share.
        public struct Options: Codable, Sendable, Equatable {
            /// The pattern in its canonical form.
            public var pattern: String
            /// `fast` or `full`.
            public var detect: String
            /// Markers a valid detection needs.
            public var minMarkers: Int
            /// Board corners a valid detection needs.
            public var minCorners: Int
            /// Sharpness a valid detection needs.
            public var minSharpness: Double
            /// The hold, in nanoseconds (exactly, for the merge's replay of the shutter).
            public var holdNanoseconds: Int64
            /// Images claiming more pixels than this are refused.
            public var pixelLimit: Int

            enum CodingKeys: String, CodingKey {
                case pattern, detect
                case minMarkers = "min_markers"
                case minCorners = "min_corners"
                case minSharpness = "min_sharpness"
                case holdNanoseconds = "hold_ns"
                case pixelLimit = "pixel_limit"
            }

            /// Options of plain values.
            public init(pattern: String, detect: String, minMarkers: Int, minCorners: Int, minSharpness: Double,
                        holdNanoseconds: Int64, pixelLimit: Int) {
                self.pattern = pattern
                self.detect = detect
                self.minMarkers = minMarkers
                self.minCorners = minCorners
                self.minSharpness = minSharpness
                self.holdNanoseconds = holdNanoseconds
                self.pixelLimit = pixelLimit
            }

            /// The hold as a duration.
            public var hold: Duration { .nanoseconds(holdNanoseconds) }

            /// The first option that differs from `other`'s, as `name a vs b`, or `nil` when none does.
            public func difference(from other: Options) -> String? {
                let pairs: [(String, String, String)] = [
                    ("pattern", pattern, other.pattern), ("detect", detect, other.detect),
                    ("min-markers", "\(minMarkers)", "\(other.minMarkers)"), ("min-corners", "\(minCorners)", "\(other.minCorners)"),
                    ("min-sharpness", "\(minSharpness)", "\(other.minSharpness)"),
                    ("hold", "\(Double(holdNanoseconds) / 1e9) s", "\(Double(other.holdNanoseconds) / 1e9) s"),
                    ("pixel limit", "\(pixelLimit)", "\(other.pixelLimit)"),
                ]
                return pairs.first { $0.1 != $0.2 }.map { "\($0.0) \($0.1) vs \($0.2)" }
            }
        }

        /// A header of plain values.
        public init(format: Int = ShardLine.formatVersion, name: String, folder: String, path: String, timing: String, frames: Int,
                    frameList: String, options: Options, shard: Int, shards: Int, first: Int, end: Int, list: String?,
                    listIndex: Int?, listCount: Int?, task: Int, tasks: Int) {
            self.format = format
            self.name = name
            self.folder = folder
            self.path = path
            self.timing = timing
            self.frames = frames
            self.frameList = frameList
            self.options = options
            self.shard = shard
            self.shards = shards
            self.first = first
            self.end = end
            self.list = list
            self.listIndex = listIndex
            self.listCount = listCount
            self.task = task
            self.tasks = tasks
        }

        /// The recording this shard belongs to: folder and frame list.
        public var recording: String { folder + "\u{0}" + frameList }

        /// The header as one line of JSON (keys sorted).
        public var line: String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            // Strings, numbers and nested objects of them always encode.
            return String(decoding: try! encoder.encode(self), as: UTF8.self)
        }

        /// Reads a header line, and checks it holds a shard that can be: its format, the counts, its
        /// frames among the folder's, a hold an hour at most, a list position in the list.
        ///
        /// - Throws: ``ShardLineError/notAShard`` for a line that is no shard header;
        ///   ``ShardLineError/otherFormat(_:)`` for another version; ``ShardLineError/malformed(_:)`` for numbers
        ///   that cannot be.
        public init(parsing line: some StringProtocol) throws(ShardLineError) {
            guard line.utf8.count <= 1 << 20, let header = try? JSONDecoder().decode(Header.self, from: Data(line.utf8)) else {
                if let format = (try? JSONValue(parsing: Data(line.utf8)))?.object?["marker_shutter_shard"]?.integer, format != ShardLine.formatVersion {
                    throw .otherFormat(format)
                }
                throw .notAShard
            }
            guard header.format == ShardLine.formatVersion else { throw .otherFormat(header.format) }
            let shards = 1...ShardLine.maximumShards
            guard (0...ShardLine.maximumFrames).contains(header.frames), shards.contains(header.shards),
                  (0..<header.shards).contains(header.shard), shards.contains(header.tasks), (0..<header.tasks).contains(header.task),
                  header.first >= 0, header.first <= header.end, header.end <= header.frames else {
                throw .malformed("a shard header with impossible numbers")
            }
            guard (0...ShardLine.maximumHoldNanoseconds).contains(header.options.holdNanoseconds),
                  header.options.minMarkers >= 0, header.options.minCorners >= 0, header.options.minSharpness.isFinite,
                  header.options.pixelLimit > 0 else {
                throw .malformed("a shard header with impossible options")
            }
            if header.list != nil || header.listIndex != nil || header.listCount != nil {
                guard let index = header.listIndex, let count = header.listCount, (1...ShardLine.maximumShards).contains(count),
                      (0..<count).contains(index), header.list != nil else {
                    throw .malformed("a shard header with an impossible place in its folder list")
                }
            }
            self = header
        }
    }

    // MARK: - Frame

    /// A frame's line: its `process` row without the shutter's two fields (which only the merge,
    /// seeing every frame before it, can decide), with the frame's timestamp in whole nanoseconds
    /// appended as `t_ns` (the row's `t` keeps six decimals only), so that the merge replays the
    /// shutter on exactly the times one machine would.
    public struct Frame: Sendable, Equatable {
        /// The row, its `shutter` and `held_index` left out.
        public var row: ProcessRow
        /// The frame's timestamp, in nanoseconds.
        public var nanoseconds: Int64

        /// A frame's line.
        public init(row: ProcessRow, nanoseconds: Int64) {
            self.row = row
            self.nanoseconds = nanoseconds
        }

        /// The frame's index.
        public var index: Int { row.index }

        /// Whether the frame was read and its detection passes the rule; `nil` for a frame that could not be read.
        public var isValid: Bool? {
            if case .detected(let detected) = row.outcome { return detected.valid }
            return nil
        }

        /// The line's text: the row's from `{` to its `detect_ms` (or `error`), its `why`, and `t_ns`.
        public var text: String {
            switch row.outcome {
            case .detected(let detected):
                return ProcessRow.head(index: row.index, file: row.file, t: row.t, detected)
                    + (ProcessRow.whyText(detected.why).map { ",\"why\":" + $0 } ?? "") + ",\"t_ns\":\(nanoseconds)}"
            case .unreadable(let reason):
                return String(ProcessRow.errorText(index: row.index, file: row.file, t: row.t, reason: reason).dropLast())
                    + ",\"t_ns\":\(nanoseconds)}"
            }
        }

        /// The whole `process` row of the frame, with the shutter after it: `"enabled"`, `"held"` or
        /// `"disabled"`, and the frame whose detection is held.
        public func row(shutter: String, heldIndex: Int?) -> ProcessRow {
            guard case .detected(var detected) = row.outcome else { return row }
            detected.shutter = shutter
            detected.heldIndex = heldIndex
            return ProcessRow(index: row.index, file: row.file, t: row.t, outcome: .detected(detected))
        }

        /// Reads a frame's line.
        ///
        /// - Throws: ``ShardLineError/malformed(_:)`` naming what is wrong.
        public init(parsing line: some StringProtocol) throws(ShardLineError) {
            guard let document = try? JSONValue(parsing: Data(line.utf8)), let fields = document.object else {
                throw .malformed("not a JSON object")
            }
            guard let nanoseconds = fields["t_ns"]?.integer.map(Int64.init), ShardLine.frameNanoseconds.contains(nanoseconds) else {
                throw .malformed("no t_ns (the frame's time in nanoseconds) from -1e18 to 1e18")
            }
            guard fields["shutter"] == nil, fields["held_index"] == nil else { throw .malformed("a frame's line with the shutter's fields") }
            do {
                row = try ProcessRow(fields: fields, shutter: false)
            } catch {
                throw .malformed(error.reason)
            }
            guard (0..<ShardLine.maximumFrames).contains(row.index) else { throw .malformed("frame index \(row.index) out of range") }
            if case .detected(let detected) = row.outcome, detected.valid != (detected.why == nil) {
                throw .malformed(detected.valid ? "a valid frame with why" : "an invalid frame without why")
            }
            self.nanoseconds = nanoseconds
        }
    }

    // MARK: - Trailer

    /// The last line of a shard file: the shard is complete, and what it cost.
    public struct Trailer: Codable, Sendable, Equatable {
        /// The shard this ends (its key marks the end of a shard file).
        public var shard: Int
        /// Frame lines written.
        public var rows: Int
        /// Wall time of the shard's processing, in seconds.
        public var seconds: Double
        /// Processor time the task used (user and system) while processing it, in seconds.
        public var cpuSeconds: Double
        /// Threads that detected.
        public var jobs: Int

        enum CodingKeys: String, CodingKey {
            case shard = "marker_shutter_shard_end"
            case rows, seconds
            case cpuSeconds = "cpu_seconds"
            case jobs
        }

        /// A trailer of plain values.
        public init(shard: Int, rows: Int, seconds: Double, cpuSeconds: Double, jobs: Int) {
            self.shard = shard
            self.rows = rows
            self.seconds = seconds
            self.cpuSeconds = cpuSeconds
            self.jobs = jobs
        }

        /// The trailer as one line of JSON (keys sorted).
        public var line: String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return String(decoding: try! encoder.encode(self), as: UTF8.self)
        }

        /// Reads a trailer line.
        ///
        /// - Throws: ``ShardLineError/malformed(_:)`` for a line that is no trailer or holds
        ///   impossible numbers.
        public init(parsing line: some StringProtocol) throws(ShardLineError) {
            guard line.utf8.count <= 4096, let trailer = try? JSONDecoder().decode(Trailer.self, from: Data(line.utf8)) else {
                throw .malformed("not the end of a shard")
            }
            guard (0..<ShardLine.maximumShards).contains(trailer.shard), (0...ShardLine.maximumFrames).contains(trailer.rows),
                  trailer.seconds.isFinite, trailer.seconds >= 0, trailer.cpuSeconds.isFinite, trailer.cpuSeconds >= 0,
                  (1...1_000_000).contains(trailer.jobs) else {
                throw .malformed("the end of a shard with impossible numbers")
            }
            self = trailer
        }
    }
}

/// A shard file's line that cannot be read, and why.
public enum ShardLineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The line is no shard header: the file is no shard.
    case notAShard
    /// A shard header of another format version.
    case otherFormat(Int)
    /// A line that cannot be what it claims, and why.
    case malformed(String)

    public var description: String {
        switch self {
        case .notAShard: "not a shard file"
        case .otherFormat(let format): "a shard file of format \(format); this marker-shutter reads format \(ShardLine.formatVersion)"
        case .malformed(let reason): reason
        }
    }
}
