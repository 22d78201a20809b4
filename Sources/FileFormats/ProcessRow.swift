import Foundation

/// The JSON Lines row `marker-shutter process` writes for each frame.
///
/// A frame that was read: `index`, `file`, `t` (seconds), `sequence`, `valid`, `markers`
/// (`[{"id", "corners": [[x,y] x4]}]`), `corners` (board corners, `[{"id", "xy": [x,y]}]`),
/// `sharpness`, `detect_ms`, `shutter` (`"enabled"`, `"held"` or `"disabled"`), `held_index` (the
/// frame whose detection is held, or null) and, for an invalid frame, `why` (what the validity rule
/// missed). A frame that could not be read: `index`, `file`, `t`, `error`.
///
/// ```
/// {"index":3,"file":"frame_000003.jpg","t":0.100067,"sequence":5213,"valid":false,"markers":[],"corners":[],"sharpness":null,"detect_ms":4.122,"shutter":"disabled","held_index":null,"why":["no markers"]}
/// {"index":4,"file":"frame_000004.jpg","t":0.133422,"error":"not an image"}
/// ```
///
/// Written by ``text`` with the keys in that order (`t` with six decimals, points with three,
/// `sharpness` with two, `detect_ms` with three); read back by ``init(parsing:)``.
public struct ProcessRow: Sendable, Equatable {
    /// What became of the frame.
    public enum Outcome: Sendable, Equatable {
        /// It was read and detected.
        case detected(Detected)
        /// It could not be read, for this reason.
        case unreadable(reason: String)
    }

    /// The fields of a frame that was read and detected.
    public struct Detected: Sendable, Equatable {
        /// The camera's sequence number, when known.
        public var sequence: UInt64?
        /// Whether the detection passes the validity rule.
        public var valid: Bool
        /// What was found.
        public var detection: RecordedDetection
        /// The detection's sharpness, when measured.
        public var sharpness: Double?
        /// How long detection took, in milliseconds.
        public var detectMilliseconds: Double
        /// The shutter after this frame: `"enabled"`, `"held"` or `"disabled"`.
        public var shutter: String
        /// The frame whose detection is held, or `nil`.
        public var heldIndex: Int?
        /// What the validity rule missed (an invalid frame); `nil` for a valid one.
        public var why: [String]?

        /// Makes the fields of a detected frame.
        public init(sequence: UInt64?, valid: Bool, detection: RecordedDetection, sharpness: Double?,
                    detectMilliseconds: Double, shutter: String, heldIndex: Int?, why: [String]?) {
            self.sequence = sequence
            self.valid = valid
            self.detection = detection
            self.sharpness = sharpness
            self.detectMilliseconds = detectMilliseconds
            self.shutter = shutter
            self.heldIndex = heldIndex
            self.why = why
        }
    }

    /// Why a line is not a row: what is wrong with it.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong.
        public var reason: String

        public var description: String { reason }
    }

    /// The frame's position in the folder, from 0.
    public var index: Int
    /// The frame's file name (`nil` for a frame from no file).
    public var file: String?
    /// The frame's timestamp, in seconds.
    public var t: Double
    /// What became of it.
    public var outcome: Outcome

    /// Makes a row.
    public init(index: Int, file: String?, t: Double, outcome: Outcome) {
        self.index = index
        self.file = file
        self.t = t
        self.outcome = outcome
    }

    /// The row's text, keys in their fixed order, without a line break.
    public var text: String {
        switch outcome {
        case .detected(let detected):
            Self.text(head: Self.head(index: index, file: file, t: t, detected), shutter: detected.shutter,
                      heldIndex: detected.heldIndex, why: Self.whyText(detected.why))
        case .unreadable(let reason):
            Self.errorText(index: index, file: file, t: t, reason: reason)
        }
    }

    /// A detected frame's row from `{` to its `detect_ms` field, without the closing brace: the
    /// part that does not depend on the frames before it.
    package static func head(index: Int, file: String?, t: Double, _ detected: Detected) -> String {
        var object = JSONObjectText()
        object.add("index", index)
        object.add("file", file)
        object.add("t", t, decimals: 6)
        object.add("sequence", detected.sequence)
        object.add("valid", detected.valid)
        object.add("markers", raw: detected.detection.markersText)
        object.add("corners", raw: detected.detection.cornersText)
        object.add("sharpness", detected.sharpness, decimals: 2)
        object.add("detect_ms", detected.detectMilliseconds, decimals: 3)
        return object.openText
    }

    /// The `why` list as JSON text, or `nil` for a valid frame.
    package static func whyText(_ why: [String]?) -> String? {
        why.map { "[" + $0.map(JSONObjectText.string).joined(separator: ",") + "]" }
    }

    /// A whole detected row from its ``head(index:file:t:_:)``, the shutter after the frame and
    /// the `why` text.
    package static func text(head: some StringProtocol, shutter: String, heldIndex: Int?, why: (some StringProtocol)?) -> String {
        var text = String(head)
        text += ",\"shutter\":" + JSONObjectText.string(shutter) + ",\"held_index\":" + (heldIndex.map(String.init) ?? "null")
        if let why { text += ",\"why\":" + why }
        return text + "}"
    }

    /// The row of a frame that could not be read.
    package static func errorText(index: Int, file: String?, t: Double, reason: String) -> String {
        var object = JSONObjectText()
        object.add("index", index)
        object.add("file", file)
        object.add("t", t, decimals: 6)
        object.add("error", reason)
        return object.text
    }

    /// Reads a row.
    ///
    /// - Throws: ``Problem`` naming the field that is missing or of the wrong type.
    public init(parsing line: some StringProtocol) throws(Problem) {
        guard let document = try? JSONValue(parsing: Data(line.utf8)), let fields = document.object else {
            throw Problem(reason: "not a JSON object")
        }
        try self.init(fields: fields, shutter: true)
    }

    /// Reads a row's fields; without `shutter`, a detected frame's `shutter` and `held_index` are
    /// not read (a shard's frame line has none: only the frames before it decide them).
    init(fields: [String: JSONValue], shutter withShutter: Bool) throws(Problem) {
        guard let index = fields["index"]?.integer else { throw Problem(reason: "no whole \"index\"") }
        guard let t = fields["t"]?.real else { throw Problem(reason: "no \"t\" in seconds") }
        let file = fields["file"]?.string
        guard file != nil || fields["file"] == .null else { throw Problem(reason: "\"file\" is neither a string nor null") }
        self.index = index
        self.file = file
        self.t = t
        if let reason = fields["error"]?.string {
            outcome = .unreadable(reason: reason)
            return
        }
        guard let valid = fields["valid"]?.bool else { throw Problem(reason: "neither \"valid\" nor \"error\"") }
        let shutter = fields["shutter"]?.string ?? ""
        if withShutter, fields["shutter"]?.string == nil { throw Problem(reason: "no \"shutter\" string") }
        guard let milliseconds = fields["detect_ms"]?.real else { throw Problem(reason: "no \"detect_ms\" number") }
        func point(_ value: JSONValue) throws(Problem) -> RecordedDetection.Point {
            guard let pair = value.array, pair.count == 2, let x = pair[0].real, let y = pair[1].real else {
                throw Problem(reason: "a point that is not [x, y]")
            }
            return RecordedDetection.Point(x: x, y: y)
        }
        guard let markerList = fields["markers"]?.array, let cornerList = fields["corners"]?.array else {
            throw Problem(reason: "no \"markers\" and \"corners\" lists")
        }
        var markers: [RecordedDetection.Marker] = []
        for entry in markerList {
            guard let id = entry.object?["id"]?.integer, let list = entry.object?["corners"]?.array else {
                throw Problem(reason: "a marker that is not {\"id\": integer, \"corners\": [points]}")
            }
            var points: [RecordedDetection.Point] = []
            for value in list { points.append(try point(value)) }
            markers.append(RecordedDetection.Marker(id: id, corners: points))
        }
        var corners: [RecordedDetection.Corner] = []
        for entry in cornerList {
            guard let id = entry.object?["id"]?.integer, let xy = entry.object?["xy"] else {
                throw Problem(reason: "a corner that is not {\"id\": integer, \"xy\": [x, y]}")
            }
            corners.append(RecordedDetection.Corner(id: id, point: try point(xy)))
        }
        var why: [String]?
        if let list = fields["why"] {
            guard let texts = list.array?.compactMap(\.string), texts.count == list.array?.count else {
                throw Problem(reason: "\"why\" is not a list of strings")
            }
            why = texts
        }
        outcome = .detected(Detected(
            sequence: fields["sequence"]?.integer.flatMap { $0 >= 0 ? UInt64($0) : nil }, valid: valid,
            detection: RecordedDetection(markers: markers, corners: corners), sharpness: fields["sharpness"]?.real,
            detectMilliseconds: milliseconds, shutter: shutter, heldIndex: withShutter ? fields["held_index"]?.integer : nil, why: why))
    }
}
