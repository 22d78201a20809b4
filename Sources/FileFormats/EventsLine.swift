import Foundation

/// One line of a rig's recording's `events.jsonl`: one thing the rig's machine was told, in order,
/// so that a replay reaches the same decisions.
///
/// ```
/// {"arrived":"left","t":5321.046411}               a frame arrived, before detection
/// {"arrived":"right","t":5321.050524,"dropped":2}  ... with frames lost before it
/// {"observed":"left","file":"frame_000000.jpg"}    the manifest's next frame, after detection
/// {"advance":5321.2}                               time moved on with no frame
/// {"advance_arrivals":5321.2}                      ... for stalls only, frames waiting for detection
/// {"lost":"right"}                                 the camera is gone
/// ```
///
/// Written by ``text`` (`t` in microseconds without trailing zeros, as the manifest writes it);
/// read by ``init(parsing:)`` as untrusted input: a camera's name as ``RigPictureLayout`` allows,
/// a file's plain name, a time from 0 to 1e9 s, a count of frames lost from 0 to 1,000,000. Whether
/// the camera is the rig's and the file the manifest's next is the reader of the recording's to say.
public enum EventsLine: Sendable, Equatable {
    /// Camera `camera`'s frame arrived at `t` (seconds, the frame's kernel timestamp), with `dropped` frames lost before it.
    case arrived(camera: String, t: Double, dropped: Int)
    /// Camera `camera`'s frame `file` (the manifest's next) after detection.
    case observed(camera: String, file: String)
    /// Time moved on to `t` with no frame.
    case advance(t: Double)
    /// Time moved on to `t` for arrivals only, frames waiting for detection.
    case advanceArrivals(t: Double)
    /// The camera is gone.
    case lost(camera: String)

    /// The file's name in a rig's recording.
    public static let fileName = "events.jsonl"
    /// The times a line may give, in seconds.
    public static let times: ClosedRange<Double> = 0...1e9
    /// The counts of frames lost an arrival may give.
    public static let droppedCounts: ClosedRange<Int> = 0...1_000_000
    /// The longest line read, in bytes: far more than any line written.
    public static let maximumLineBytes = 4096

    /// What every line is, for messages.
    static let expected = "expected {\"arrived\": camera, \"t\": s[, \"dropped\": n]}, {\"observed\": camera, \"file\": name}, "
        + "{\"advance\": s}, {\"advance_arrivals\": s} or {\"lost\": camera}"

    /// The line's text, newline included.
    public var text: String {
        switch self {
        case .arrived(let camera, let t, let dropped):
            "{\"arrived\":\(JSONObjectText.string(camera)),\"t\":\(ManifestLine.secondsText(t))" + (dropped > 0 ? ",\"dropped\":\(dropped)" : "") + "}\n"
        case .observed(let camera, let file): "{\"observed\":\(JSONObjectText.string(camera)),\"file\":\(JSONObjectText.string(file))}\n"
        case .advance(let t): "{\"advance\":\(ManifestLine.secondsText(t))}\n"
        case .advanceArrivals(let t): "{\"advance_arrivals\":\(ManifestLine.secondsText(t))}\n"
        case .lost(let camera): "{\"lost\":\(JSONObjectText.string(camera))}\n"
        }
    }

    fileprivate struct Stored: Decodable {
        let arrived: String?
        let t: Double?
        let dropped: Int?
        let observed: String?
        let file: String?
        let advance: Double?
        let advance_arrivals: Double?
        let lost: String?
    }

    /// Reads one line (without its line break).
    ///
    /// - Throws: ``EventsLineError`` naming what is wrong.
    public init(parsing line: some StringProtocol) throws(EventsLineError) {
        guard line.utf8.count <= Self.maximumLineBytes else {
            throw EventsLineError("a line of \(line.utf8.count) bytes, more than \(Self.maximumLineBytes)")
        }
        guard let stored = Self.written(Array(line.utf8)) ?? (try? JSONDecoder().decode(Stored.self, from: Data(line.utf8))) else {
            throw EventsLineError(Self.expected)
        }
        func camera(_ name: String) throws(EventsLineError) -> String {
            if let problem = RigPictureLayout.cameraNameProblem(name) {
                throw EventsLineError("camera name \(JSONObjectText.string(name)) \(problem)")
            }
            return name
        }
        func time(_ seconds: Double) throws(EventsLineError) -> Double {
            guard seconds.isFinite, Self.times.contains(seconds) else { throw EventsLineError("\(seconds) is not a timestamp from 0 to 1e9 seconds") }
            return seconds
        }
        if let name = stored.arrived, let t = stored.t {
            let dropped = stored.dropped ?? 0
            guard Self.droppedCounts.contains(dropped) else {
                throw EventsLineError("dropped \(dropped) is not a count of frames from 0 to \(Self.droppedCounts.upperBound)")
            }
            self = .arrived(camera: try camera(name), t: try time(t), dropped: dropped)
        } else if let name = stored.observed, let file = stored.file {
            guard !file.isEmpty, !file.contains("/"), file != ".", file != "..", !file.unicodeScalars.contains("\0"), file.utf8.count <= 255 else {
                throw EventsLineError("file \(JSONObjectText.string(file)) is not a plain name")
            }
            self = .observed(camera: try camera(name), file: file)
        } else if let t = stored.advance {
            self = .advance(t: try time(t))
        } else if let t = stored.advance_arrivals {
            self = .advanceArrivals(t: try time(t))
        } else if let name = stored.lost {
            self = .lost(camera: try camera(name))
        } else {
            throw EventsLineError(Self.expected)
        }
    }
}

extension EventsLine {
    /// A line exactly as ``text`` writes it (names without escapes, times and counts as plain
    /// decimals), read without a JSON decoder: a recording holds millions of them. Anything else
    /// is `nil`, for the JSON decoder to read (or refuse); both give the same fields.
    private static func written(_ line: [UInt8]) -> Stored? {
        var position = 0
        func take(_ literal: StaticString) -> Bool {
            let count = literal.utf8CodeUnitCount
            guard line.count - position >= count else { return false }
            let matches = literal.withUTF8Buffer { expected in
                expected.indices.allSatisfy { expected[$0] == line[position + $0] }
            }
            if matches { position += count }
            return matches
        }
        /// A string's characters up to its closing quote, none of them a quote, backslash or control.
        func string() -> String? {
            let start = position
            while position < line.count, line[position] != UInt8(ascii: "\"") {
                guard line[position] != UInt8(ascii: "\\"), line[position] >= 0x20 else { return nil }
                position += 1
            }
            guard position < line.count else { return nil }
            defer { position += 1 }
            return String(validating: line[start..<position], as: UTF8.self)
        }
        /// Digits, then a point and digits, as a JSON number without sign or exponent.
        func number() -> Double? {
            let start = position
            func digits() -> Bool {
                let first = position
                while position < line.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(line[position]) { position += 1 }
                return position > first && position - first <= 20
            }
            guard digits() else { return nil }
            if position < line.count, line[position] == UInt8(ascii: ".") {
                position += 1
                guard digits() else { return nil }
            }
            return Double(String(decoding: line[start..<position], as: UTF8.self))
        }
        var stored = Stored(arrived: nil, t: nil, dropped: nil, observed: nil, file: nil, advance: nil, advance_arrivals: nil, lost: nil)
        if take("{\"advance\":") {
            guard let t = number() else { return nil }
            stored = Stored(arrived: nil, t: nil, dropped: nil, observed: nil, file: nil, advance: t, advance_arrivals: nil, lost: nil)
        } else if take("{\"advance_arrivals\":") {
            guard let t = number() else { return nil }
            stored = Stored(arrived: nil, t: nil, dropped: nil, observed: nil, file: nil, advance: nil, advance_arrivals: t, lost: nil)
        } else if take("{\"arrived\":\"") {
            guard let camera = string(), take(",\"t\":"), let t = number() else { return nil }
            var dropped: Int?
            if take(",\"dropped\":") {
                // A whole number of digits only; anything else is the JSON decoder's to read.
                let start = position
                guard let count = number(), !line[start..<position].contains(UInt8(ascii: ".")), count <= Double(Int32.max) else { return nil }
                dropped = Int(count)
            }
            stored = Stored(arrived: camera, t: t, dropped: dropped, observed: nil, file: nil, advance: nil, advance_arrivals: nil, lost: nil)
        } else if take("{\"observed\":\"") {
            guard let camera = string(), take(",\"file\":\""), let file = string() else { return nil }
            stored = Stored(arrived: nil, t: nil, dropped: nil, observed: camera, file: file, advance: nil, advance_arrivals: nil, lost: nil)
        } else if take("{\"lost\":\"") {
            guard let camera = string() else { return nil }
            stored = Stored(arrived: nil, t: nil, dropped: nil, observed: nil, file: nil, advance: nil, advance_arrivals: nil, lost: camera)
        } else {
            return nil
        }
        guard take("}"), position == line.count else { return nil }
        return stored
    }
}

/// A line of `events.jsonl` that cannot be read, and why.
public struct EventsLineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    public let description: String

    init(_ description: String) { self.description = description }
}
