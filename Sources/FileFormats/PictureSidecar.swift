public import Foundation

/// A picture's JSON sidecar: `live` writes one beside each picture (`capture_0001.png` with
/// `capture_0001.json`), `calibrate` reads them back as input that may have been written by anyone:
/// every field it uses is checked against a stated range before it is used.
///
/// ```
/// {"image":"capture_0001.png","pattern":"charuco:5x7:DICT_6X6_250","trigger":"auto","frame_index":12,
///  "t":0.400261,"sequence":5222,"source_file":"frame_000012.jpg","shutter":"held","hold_age_s":0.100069,
///  "width":640,"height":480,"valid":true,"markers":[{"id":3,"corners":[[x,y],[x,y],[x,y],[x,y]]}, ...],
///  "corners":[{"id":0,"xy":[244.4,94.2]}, ...],"sharpness":402.17,"controls":{"gain":10}}
/// ```
///
/// The keys are written in that order, `null` for a value that is not known; `controls` only when
/// camera controls were set.
///
/// The ranges a sidecar is read with:
/// - the file: at most ``maximumBytes`` (16 MiB);
/// - `"image"`: a file name in the picture folder: not empty, at most 255 bytes, no `/`, no `..`,
///   no NUL;
/// - `"pattern"`: a string of at most ``maximumPatternBytes`` bytes (parsed by the caller);
/// - `"width"` and `"height"`: whole numbers in ``imageSides`` (1...16384 pixels);
/// - `"corners"`: at most ``maximumCorners`` (65,536), `"markers"`: at most ``maximumMarkers``
///   (16,384), each with an `"id"` in ``ids`` (0...1,048,575);
/// - every point: finite, `x` from -1 to `width` and `y` from -1 to `height` (the image, whose
///   pixel centres run from 0 to `width - 1`, with a pixel of margin for corners refined at its edge).
///
/// The other fields (`"trigger"`, `"sharpness"`, the camera's controls, ...) are read when they
/// have their type and are `nil` otherwise: nothing depends on them.
///
/// This target depends on Foundation alone, so that `Fuzz/build` can compile it by itself into the
/// sidecar fuzzing harness.
public struct PictureSidecar: Sendable, Equatable {
    /// A point in the picture, in pixels.
    public typealias Point = RecordedDetection.Point
    /// A board corner: its id on the target and where it was seen.
    public typealias Corner = RecordedDetection.Corner
    /// A marker: its id and its four corners, clockwise from its top-left.
    public typealias Marker = RecordedDetection.Marker

    /// Why a sidecar was refused: the field (when one is to blame) and what is wrong with it.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// The field, as a JSON path (`"corners[3].xy"`), or `nil` for the file as a whole.
        public var field: String?
        /// What is wrong.
        public var reason: String

        public var description: String {
            guard let field else { return reason }
            return "field \"\(field)\" \(reason)"
        }
    }

    /// The picture's file name.
    public var image: String
    /// The pattern string the picture was detected with.
    public var pattern: String
    /// Whether a request or `--auto` took the picture (`"request"`, `"auto"`).
    public var trigger: String?
    /// The frame's position in the stream, from 0.
    public var frameIndex: Int?
    /// When the frame was captured, in seconds (written with six decimals).
    public var t: Double?
    /// The camera's sequence number, when known.
    public var sequence: UInt64?
    /// The file the frame came from, when it came from a folder.
    public var sourceFile: String?
    /// The shutter's state when the picture was taken (`"held"`, ...).
    public var shutter: String?
    /// How long the shutter had held the view, in seconds (six decimals).
    public var holdAgeSeconds: Double?
    /// The picture's width, in pixels.
    public var width: Int
    /// The picture's height, in pixels.
    public var height: Int
    /// Whether the detection passed the validity rule.
    public var valid: Bool?
    /// The board corners found.
    public var corners: [Corner]
    /// The markers found.
    public var markers: [Marker]
    /// The detection's sharpness (two decimals).
    public var sharpness: Double?
    /// The camera controls set for the frame, by their `v4l2-ctl` names; `nil` when none were set.
    public var controls: [String: Int64]?

    /// The largest sidecar read, in bytes (16 MiB: a sidecar of the most corners and markers
    /// allowed is under 6 MB).
    public static let maximumBytes = 16 << 20
    /// The widths and heights a picture may have, in pixels.
    public static let imageSides: ClosedRange<Int> = 1...16_384
    /// The most corners a sidecar may list.
    public static let maximumCorners = 65_536
    /// The most markers a sidecar may list.
    public static let maximumMarkers = 16_384
    /// The ids a corner or marker may have.
    public static let ids: ClosedRange<Int> = 0...1_048_575
    /// How far outside the image a point may lie, in pixels.
    public static let edgeMargin = 1.0
    /// The longest file name, in bytes (`NAME_MAX` on Linux).
    public static let maximumNameBytes = 255
    /// The longest pattern string, in bytes.
    public static let maximumPatternBytes = 1024

    /// Makes a sidecar to write.
    public init(image: String, pattern: String, trigger: String? = nil, frameIndex: Int? = nil, t: Double? = nil,
                sequence: UInt64? = nil, sourceFile: String? = nil, shutter: String? = nil, holdAgeSeconds: Double? = nil,
                width: Int, height: Int, valid: Bool? = nil, detection: RecordedDetection, sharpness: Double? = nil,
                controls: [String: Int64]? = nil) {
        self.image = image
        self.pattern = pattern
        self.trigger = trigger
        self.frameIndex = frameIndex
        self.t = t
        self.sequence = sequence
        self.sourceFile = sourceFile
        self.shutter = shutter
        self.holdAgeSeconds = holdAgeSeconds
        self.width = width
        self.height = height
        self.valid = valid
        self.corners = detection.corners
        self.markers = detection.markers
        self.sharpness = sharpness
        self.controls = controls
    }

    /// The sidecar's text, keys in their fixed order, ending in a newline.
    public var text: String {
        var object = JSONObjectText()
        object.add("image", image)
        object.add("pattern", pattern)
        object.add("trigger", trigger)
        object.add("frame_index", frameIndex)
        object.add("t", t, decimals: 6)
        object.add("sequence", sequence)
        object.add("source_file", sourceFile)
        object.add("shutter", shutter)
        object.add("hold_age_s", holdAgeSeconds, decimals: 6)
        object.add("width", width)
        object.add("height", height)
        object.add("valid", valid)
        let detection = RecordedDetection(markers: markers, corners: corners)
        object.add("markers", raw: detection.markersText)
        object.add("corners", raw: detection.cornersText)
        object.add("sharpness", sharpness, decimals: 2)
        if let controls { object.add("controls", raw: JSONObjectText.controls(controls)) }
        return object.text + "\n"
    }

    /// Reads a sidecar's bytes.
    ///
    /// - Throws: ``Problem`` naming the field that is missing, of the wrong type or out of its
    ///   range, or the file when it is not a JSON object or too large.
    public init(parsing data: Data) throws(Problem) {
        guard data.count <= Self.maximumBytes else {
            throw Problem(field: nil, reason: "is \(data.count) bytes long, more than the \(Self.maximumBytes) a sidecar may have")
        }
        guard let document = try? JSONValue(parsing: data), let fields = document.object else {
            throw Problem(field: nil, reason: "not a JSON object")
        }
        guard let pattern = fields["pattern"]?.string else { throw Problem(field: nil, reason: "no \"pattern\" string") }
        guard pattern.utf8.count <= Self.maximumPatternBytes else {
            throw Problem(field: "pattern", reason: "is \(pattern.utf8.count) bytes long, more than \(Self.maximumPatternBytes)")
        }
        guard let width = fields["width"]?.integer, let height = fields["height"]?.integer, width > 0, height > 0 else {
            throw Problem(field: nil, reason: "no positive \"width\" and \"height\"")
        }
        for (name, value) in [("width", width), ("height", height)] where !Self.imageSides.contains(value) {
            throw Problem(field: name, reason: "is \(value), outside the \(Self.imageSides) pixels a picture may have")
        }
        guard let image = fields["image"]?.string else { throw Problem(field: nil, reason: "no \"image\" name") }
        if let problem = Self.nameProblem(image) { throw Problem(field: "image", reason: problem) }
        guard let cornerList = fields["corners"]?.array, let markerList = fields["markers"]?.array else {
            throw Problem(field: nil, reason: "no \"corners\" and \"markers\" lists")
        }
        guard cornerList.count <= Self.maximumCorners else {
            throw Problem(field: "corners", reason: "has \(cornerList.count) entries, more than the \(Self.maximumCorners) a sidecar may list")
        }
        guard markerList.count <= Self.maximumMarkers else {
            throw Problem(field: "markers", reason: "has \(markerList.count) entries, more than the \(Self.maximumMarkers) a sidecar may list")
        }
        func point(_ value: JSONValue?, field: String) throws(Problem) -> Point? {
            guard let pair = value?.array, pair.count == 2, let x = pair[0].real, let y = pair[1].real else { return nil }
            let across = -Self.edgeMargin...(Double(width) - 1 + Self.edgeMargin)
            let down = -Self.edgeMargin...(Double(height) - 1 + Self.edgeMargin)
            guard x.isFinite, y.isFinite, across.contains(x), down.contains(y) else {
                throw Problem(
                    field: field,
                    reason: "is [\(x), \(y)], outside the \(width)x\(height) picture (x from \(Self.number(across.lowerBound)) to "
                        + "\(Self.number(across.upperBound)), y from \(Self.number(down.lowerBound)) to \(Self.number(down.upperBound)))")
            }
            return Point(x: x, y: y)
        }
        func identifier(_ value: JSONValue?, field: String) throws(Problem) -> Int? {
            guard let id = value?.integer else { return nil }
            guard Self.ids.contains(id) else { throw Problem(field: field, reason: "is \(id), outside the ids \(Self.ids)") }
            return id
        }
        var corners: [Corner] = []
        corners.reserveCapacity(cornerList.count)
        for (index, entry) in cornerList.enumerated() {
            guard let entry = entry.object, let id = try identifier(entry["id"], field: "corners[\(index)].id"),
                  let xy = try point(entry["xy"], field: "corners[\(index)].xy") else {
                throw Problem(field: nil, reason: "corner \(index) is not {\"id\": integer, \"xy\": [x, y]}")
            }
            corners.append(Corner(id: id, point: xy))
        }
        var markers: [Marker] = []
        markers.reserveCapacity(markerList.count)
        for (index, entry) in markerList.enumerated() {
            guard let entry = entry.object, let id = try identifier(entry["id"], field: "markers[\(index)].id"),
                  let list = entry["corners"]?.array, list.count == 4 else {
                throw Problem(field: nil, reason: "marker \(index) is not {\"id\": integer, \"corners\": [4 points]}")
            }
            var points: [Point] = []
            for (corner, value) in list.enumerated() {
                guard let xy = try point(value, field: "markers[\(index)].corners[\(corner)]") else {
                    throw Problem(field: nil, reason: "marker \(index) has a corner that is not [x, y]")
                }
                points.append(xy)
            }
            markers.append(Marker(id: id, corners: points))
        }
        self.image = image
        self.pattern = pattern
        self.width = width
        self.height = height
        self.corners = corners
        self.markers = markers
        trigger = fields["trigger"]?.string
        frameIndex = fields["frame_index"]?.integer
        t = fields["t"]?.real
        sequence = fields["sequence"]?.integer.flatMap { $0 >= 0 ? UInt64($0) : nil }
        sourceFile = fields["source_file"]?.string
        shutter = fields["shutter"]?.string
        holdAgeSeconds = fields["hold_age_s"]?.real
        valid = fields["valid"]?.bool
        sharpness = fields["sharpness"]?.real
        controls = JSONObjectText.controls(fields["controls"])
    }

    /// Why `name` is not a file name in the picture folder, or `nil` when it is.
    public static func nameProblem(_ name: String) -> String? {
        let shown = "\"" + (name.count > 40 ? String(name.prefix(40)) + "..." : name) + "\""
        if name.isEmpty { return "is empty: a picture's name must be a file name in the folder" }
        if name.utf8.count > maximumNameBytes {
            return "is \(name.utf8.count) bytes long, more than the \(maximumNameBytes) a file name can have"
        }
        if name.contains("/") { return "is \(shown), which has a path separator: a picture's name must be a file name in the folder" }
        if name.contains("..") { return "is \(shown), which holds \"..\": a picture's name must be a file name in the folder" }
        if name == "." { return "is \".\": a picture's name must be a file name in the folder" }
        if name.utf8.contains(0) { return "holds a NUL byte: a picture's name must be a file name in the folder" }
        return nil
    }

    /// A bound as text: `-1`, `640`, `639.5`.
    private static func number(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
    }
}
