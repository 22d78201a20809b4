import Foundation

/// One frame's line in a shard file: its `process` row without the shutter's two fields (which
/// only the merge, seeing every frame before it, can decide), with the frame's timestamp in whole
/// nanoseconds appended as `t_ns`, so that the merge replays the shutter on exactly the times one
/// machine would (the row's `t` keeps six decimals only).
///
/// ```
/// {"index":30,"file":"frame_000030.jpg","t":1.001,...,"detect_ms":3.1,"why":["no markers"],"t_ns":1001000000}
/// {"index":31,"file":"frame_000031.jpg","t":1.034367,"error":"...","t_ns":1034367000}
/// ```
///
/// The rows are put back together from these pieces by the code that writes `process`'s rows
/// (``FrameRow``), so a merged row is byte for byte the row one machine writes.
enum ShardRecord {
    /// What a line holds.
    enum Kind {
        /// A frame read and detected.
        case detected(FrameRow.Detected, valid: Bool)
        /// A frame that could not be read: its whole `process` row.
        case unreadable(row: Substring)
    }

    /// The line of a frame that was read.
    static func line(for observation: FrameObservation) -> String {
        let detected = FrameRow.detected(observation)
        return String(detected.head) + (detected.why.map { ",\"why\":" + $0 } ?? "")
            + ",\"t_ns\":\(observation.time.nanoseconds)}"
    }

    /// The line of a frame that could not be read.
    static func errorLine(index: Int, file: String, time: FrameTime, reason: String) -> String {
        String(FrameRow.errorRow(index: index, file: file, time: time, reason: reason).dropLast()) + ",\"t_ns\":\(time.nanoseconds)}"
    }

    /// A line taken apart: its frame index, timestamp and contents.
    struct Parsed {
        let index: Int
        let nanoseconds: Int64
        let kind: Kind
    }

    /// Takes a line apart, or says what is wrong with it.
    ///
    /// The markers are found by their keys: a key in quotes cannot occur inside a JSON string,
    /// whose quotes are escaped, so the first `,"valid":` is the key and the last `,"t_ns":` and
    /// `,"why":[` are the last fields.
    static func parse(_ line: Substring) -> Result<Parsed, Malformed> {
        let prefix = "{\"index\":"
        guard line.hasPrefix(prefix), line.hasSuffix("}") else { return .failure(Malformed("not a frame line")) }
        let digits = line.dropFirst(prefix.count).prefix { $0.isASCII && $0.isNumber }
        guard let index = Int(digits), line.dropFirst(prefix.count + digits.count).hasPrefix(",") else {
            return .failure(Malformed("no frame index"))
        }
        guard let time = line.lastRange(of: ",\"t_ns\":"),
              let nanoseconds = Int64(line[time.upperBound..<line.index(before: line.endIndex)]) else {
            return .failure(Malformed("no t_ns (the frame's time in nanoseconds) at its end"))
        }
        let body = line[..<time.lowerBound]
        let valid: Bool
        if body.firstRange(of: ",\"valid\":true,") != nil {
            valid = true
        } else if body.firstRange(of: ",\"valid\":false,") != nil {
            valid = false
        } else if body.firstRange(of: ",\"error\":\"") != nil {
            return .success(Parsed(index: index, nanoseconds: nanoseconds, kind: .unreadable(row: line[..<time.lowerBound])))
        } else {
            return .failure(Malformed("neither valid nor error"))
        }
        var detected = FrameRow.Detected(head: body, why: nil)
        if let why = body.lastRange(of: ",\"why\":[") {
            detected.head = body[..<why.lowerBound]
            detected.why = body[body.index(before: why.upperBound)...]
        }
        guard valid == (detected.why == nil) else { return .failure(Malformed(valid ? "a valid frame with why" : "an invalid frame without why")) }
        return .success(Parsed(index: index, nanoseconds: nanoseconds, kind: .detected(detected, valid: valid)))
    }

    /// What is wrong with a line.
    struct Malformed: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }
}

/// The last line of a shard file: the shard is complete, and what it cost.
///
/// ```
/// {"marker_shutter_shard_end":1,"rows":30,"seconds":0.41,"cpu_seconds":0.78,"jobs":2}
/// ```
struct ShardTrailer: Codable, Sendable, Equatable {
    /// The shard this ends (its key marks the end of a shard file).
    public var shard: Int
    /// Frame lines written.
    public var rows: Int
    /// Wall time of the shard's processing.
    public var seconds: Double
    /// Processor time the task used (user and system) while processing it.
    var cpuSeconds: Double
    /// Threads that detected.
    public var jobs: Int

    enum CodingKeys: String, CodingKey {
        case shard = "marker_shutter_shard_end"
        case rows, seconds
        case cpuSeconds = "cpu_seconds"
        case jobs
    }

    /// The trailer as one line of JSON (keys sorted).
    var line: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try! encoder.encode(self), as: UTF8.self)
    }
}

extension Substring {
    /// The first place `needle` occurs, compared byte for byte (UTF-8).
    fileprivate func firstRange(of needle: String) -> Range<Index>? { range(of: needle, backwards: false) }

    /// The last place `needle` occurs, compared byte for byte (UTF-8).
    fileprivate func lastRange(of needle: String) -> Range<Index>? { range(of: needle, backwards: true) }

    private func range(of needle: String, backwards: Bool) -> Range<Index>? {
        let pattern = Array(needle.utf8)
        func search(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
            guard !pattern.isEmpty, bytes.count >= pattern.count else { return nil }
            let last = bytes.count - pattern.count
            var start = backwards ? last : 0
            while start >= 0, start <= last {
                if bytes[start] == pattern[0] {
                    var matched = 1
                    while matched < pattern.count, bytes[start + matched] == pattern[matched] { matched += 1 }
                    if matched == pattern.count { return start }
                }
                start += backwards ? -1 : 1
            }
            return nil
        }
        let offset = utf8.withContiguousStorageIfAvailable(search) ?? Array(utf8).withUnsafeBufferPointer(search)
        guard let offset else { return nil }
        let lower = utf8.index(utf8.startIndex, offsetBy: offset)
        return lower..<utf8.index(lower, offsetBy: pattern.count)
    }
}
