import Foundation
package import MarkerDetection

/// The first line of a shard file (`process --shard`): which folder, which options, which shard.
///
/// `merge` puts shards together only when their folder (its path and a digest of its frame list:
/// files, timestamps and sequence numbers), their options and their count agree, and each shard's
/// frames are the ones ``FolderProcessor/shardRanges(frames:shards:)`` gives it.
///
/// ```
/// {"marker_shutter_shard":1,"name":"charuco-session","folder":"/data/charuco-session",...,"shard":1,"shards":4,"first":30,"end":60}
/// ```
package struct ShardHeader: Codable, Sendable, Equatable {
    /// The version of the shard file format this header starts.
    static let formatVersion = 1

    /// The format version (``formatVersion``); its key, `marker_shutter_shard`, marks a shard file.
    package var format: Int
    /// The recording's name: the name of its merged file, `NAME.jsonl`, in a folder of timelines.
    package var name: String
    /// The folder's absolute path, links resolved.
    package var folder: String
    /// The folder as the command was given it (the summary's first word).
    package var path: String
    /// Where the timestamps came from, as the summary says it.
    package var timing: String
    /// Frames in the whole folder.
    package var frames: Int
    /// A digest of the folder's frame list (``FrameFolder/listDigest``).
    var frameList: String
    /// What detection and the shutter were asked for.
    package var options: ShardOptions
    /// This shard, from 0.
    package var shard: Int
    /// How many shards the folder was cut into.
    package var shards: Int
    /// The shard's first frame.
    package var first: Int
    /// The frame after its last.
    package var end: Int
    /// The folder list this recording came from (`process --folders`), else `nil`.
    package var list: String?
    /// The recording's position in that list, from 0.
    var listIndex: Int?
    /// How many folders the list names.
    var listCount: Int?
    /// The task that wrote this shard and how many tasks the job had (they differ from
    /// `shard`/`shards` for a folder list).
    package var task: Int
    /// How many tasks the job had.
    package var tasks: Int

    enum CodingKeys: String, CodingKey {
        case format = "marker_shutter_shard"
        case name, folder, path, timing, frames
        case frameList = "frame_list"
        case options, shard, shards, first, end, list
        case listIndex = "list_index"
        case listCount = "list_count"
        case task, tasks
    }

    /// The recording this shard belongs to: folder and frame list.
    package var recording: String { folder + "\u{0}" + frameList }

    /// The header as one line of JSON (keys sorted).
    package var line: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Strings, numbers and nested objects of them always encode.
        return String(decoding: try! encoder.encode(self), as: UTF8.self)
    }
}

/// The options a shard was made with, which every shard of a folder must share: the pattern, the
/// search, the validity rule, the hold and the pixel limit.
package struct ShardOptions: Codable, Sendable, Equatable {
    /// The pattern in its canonical form.
    package var pattern: String
    /// `fast` or `full`.
    package var detect: String
    /// Markers a valid detection needs.
    var minMarkers: Int
    /// Board corners a valid detection needs.
    var minCorners: Int
    /// Sharpness a valid detection needs.
    var minSharpness: Double
    /// The hold, in nanoseconds (exactly, for the merge's replay of the shutter).
    var holdNanoseconds: Int64
    /// Images claiming more pixels than this are refused.
    package var pixelLimit: Int

    enum CodingKeys: String, CodingKey {
        case pattern, detect
        case minMarkers = "min_markers"
        case minCorners = "min_corners"
        case minSharpness = "min_sharpness"
        case holdNanoseconds = "hold_ns"
        case pixelLimit = "pixel_limit"
    }

    /// The options of a processor.
    package init(detector: MarkerDetector, rule: ValidityRule, options: FolderProcessor.Options) {
        pattern = detector.pattern.description
        detect = detector.mode.rawValue
        minMarkers = rule.minimumMarkers
        minCorners = rule.minimumBoardCorners
        minSharpness = rule.minimumSharpness
        let (seconds, attoseconds) = options.hold.components
        holdNanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        pixelLimit = options.pixelLimit
    }

    /// The hold as a duration.
    package var hold: Duration { .nanoseconds(holdNanoseconds) }

    /// The first option that differs from `other`'s, as `name a vs b`, or `nil` when none does.
    package func difference(from other: ShardOptions) -> String? {
        let pairs: [(String, String, String)] = [
            ("pattern", pattern, other.pattern), ("detect", detect, other.detect),
            ("min-markers", "\(minMarkers)", "\(other.minMarkers)"), ("min-corners", "\(minCorners)", "\(other.minCorners)"),
            ("min-sharpness", "\(minSharpness)", "\(other.minSharpness)"),
            ("hold", "\(hold.inSeconds) s", "\(other.hold.inSeconds) s"), ("pixel limit", "\(pixelLimit)", "\(other.pixelLimit)"),
        ]
        return pairs.first { $0.1 != $0.2 }.map { "\($0.0) \($0.1) vs \($0.2)" }
    }
}

extension FrameFolder {
    /// A digest of the frame list: each frame's file, timestamp (nanoseconds) and sequence number,
    /// in order (64-bit FNV-1a, as `fnv1a64:` and 16 hex digits). Shards of one recording share it.
    var listDigest: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(_ text: String) {
            for byte in text.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01b3
            }
        }
        for frame in frames {
            add(frame.file)
            add("\t\(frame.time.nanoseconds)\t\(frame.sequence.map(String.init) ?? "-")\n")
        }
        let hex = String(hash, radix: 16)
        return "fnv1a64:" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The folder's absolute path with links resolved: the same for every task given it.
    var resolvedPath: String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
}

extension FrameTime {
    /// The instant in whole nanoseconds since the origin (how shard files keep it exactly).
    package var nanoseconds: Int64 {
        let (seconds, attoseconds) = offset.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
