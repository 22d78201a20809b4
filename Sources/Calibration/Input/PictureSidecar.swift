public import Foundation

/// A picture's JSON sidecar, as `live` writes it beside each picture, read as input that may have
/// been written by anyone: every field is checked against a stated range before it is used.
///
/// ```
/// {"image":"capture_0001.png","pattern":"charuco:5x7:DICT_6X6_250","width":640,"height":480,
///  "corners":[{"id":0,"xy":[244.4,94.2]}, ...],"markers":[{"id":3,"corners":[[x,y],[x,y],[x,y],[x,y]]}, ...]}
/// ```
///
/// The ranges:
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
/// Other fields (`"trigger"`, `"sharpness"`, the camera's controls, ...) are passed over.
///
/// This file depends on Foundation alone, so that `Fuzz/build` can compile it by itself into the
/// sidecar fuzzing harness.
public struct PictureSidecar: Sendable, Equatable {
    /// A point in the picture, in pixels.
    public struct Point: Sendable, Equatable {
        /// Across, from the left pixel's centre.
        public var x: Double
        /// Down, from the top pixel's centre.
        public var y: Double

        /// Makes a point.
        public init(x: Double, y: Double) {
            self.x = x
            self.y = y
        }
    }

    /// A board corner: its id on the target and where it was seen.
    public struct Corner: Sendable, Equatable {
        /// The corner's id.
        public var id: Int
        /// Where it was seen.
        public var point: Point

        /// Makes a corner.
        public init(id: Int, point: Point) {
            self.id = id
            self.point = point
        }
    }

    /// A marker: its id and its four corners, clockwise from its top-left.
    public struct Marker: Sendable, Equatable {
        /// The marker's id.
        public var id: Int
        /// Its four corners.
        public var corners: [Point]

        /// Makes a marker.
        public init(id: Int, corners: [Point]) {
            self.id = id
            self.corners = corners
        }
    }

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
    /// The picture's width, in pixels.
    public var width: Int
    /// The picture's height, in pixels.
    public var height: Int
    /// The board corners found.
    public var corners: [Corner]
    /// The markers found.
    public var markers: [Marker]

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

    /// Reads a sidecar's bytes.
    ///
    /// - Throws: ``Problem`` naming the field that is missing, of the wrong type or out of its
    ///   range, or the file when it is not a JSON object or too large.
    public init(parsing data: Data) throws(Problem) {
        guard data.count <= Self.maximumBytes else {
            throw Problem(field: nil, reason: "is \(data.count) bytes long, more than the \(Self.maximumBytes) a sidecar may have")
        }
        guard let object = try? JSONSerialization.jsonObject(with: data), let fields = object as? [String: Any] else {
            throw Problem(field: nil, reason: "not a JSON object")
        }
        guard let pattern = fields["pattern"] as? String else { throw Problem(field: nil, reason: "no \"pattern\" string") }
        guard pattern.utf8.count <= Self.maximumPatternBytes else {
            throw Problem(field: "pattern", reason: "is \(pattern.utf8.count) bytes long, more than \(Self.maximumPatternBytes)")
        }
        guard let width = Self.integer(fields["width"]), let height = Self.integer(fields["height"]), width > 0, height > 0 else {
            throw Problem(field: nil, reason: "no positive \"width\" and \"height\"")
        }
        for (name, value) in [("width", width), ("height", height)] where !Self.imageSides.contains(value) {
            throw Problem(field: name, reason: "is \(value), outside the \(Self.imageSides) pixels a picture may have")
        }
        guard let image = fields["image"] as? String else { throw Problem(field: nil, reason: "no \"image\" name") }
        if let problem = Self.nameProblem(image) { throw Problem(field: "image", reason: problem) }
        guard let cornerList = fields["corners"] as? [Any], let markerList = fields["markers"] as? [Any] else {
            throw Problem(field: nil, reason: "no \"corners\" and \"markers\" lists")
        }
        guard cornerList.count <= Self.maximumCorners else {
            throw Problem(field: "corners", reason: "has \(cornerList.count) entries, more than the \(Self.maximumCorners) a sidecar may list")
        }
        guard markerList.count <= Self.maximumMarkers else {
            throw Problem(field: "markers", reason: "has \(markerList.count) entries, more than the \(Self.maximumMarkers) a sidecar may list")
        }
        func point(_ value: Any?, field: String) throws(Problem) -> Point? {
            guard let pair = value as? [Any], pair.count == 2, let x = Self.real(pair[0]), let y = Self.real(pair[1]) else { return nil }
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
        func identifier(_ value: Any?, field: String) throws(Problem) -> Int? {
            guard let id = Self.integer(value) else { return nil }
            guard Self.ids.contains(id) else { throw Problem(field: field, reason: "is \(id), outside the ids \(Self.ids)") }
            return id
        }
        var corners: [Corner] = []
        corners.reserveCapacity(cornerList.count)
        for (index, entry) in cornerList.enumerated() {
            guard let entry = entry as? [String: Any], let id = try identifier(entry["id"], field: "corners[\(index)].id"),
                  let xy = try point(entry["xy"], field: "corners[\(index)].xy") else {
                throw Problem(field: nil, reason: "corner \(index) is not {\"id\": integer, \"xy\": [x, y]}")
            }
            corners.append(Corner(id: id, point: xy))
        }
        var markers: [Marker] = []
        markers.reserveCapacity(markerList.count)
        for (index, entry) in markerList.enumerated() {
            guard let entry = entry as? [String: Any], let id = try identifier(entry["id"], field: "markers[\(index)].id"),
                  let list = entry["corners"] as? [Any], list.count == 4 else {
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

    /// A JSON number that is a whole number a 64-bit integer holds exactly, or `nil` (`true`, `1.5`, `1e300`, text).
    private static func integer(_ value: Any?) -> Int? {
        guard let value, !isBoolean(value), let number = value as? NSNumber else { return nil }
        if let exact = value as? Int { return exact }
        let double = number.doubleValue
        guard double.isFinite, double.rounded() == double, abs(double) <= 9_007_199_254_740_992 else { return nil }
        return Int(double)
    }

    /// A JSON number as a `Double`, or `nil` (`true`, text, a list).
    private static func real(_ value: Any) -> Double? {
        guard !isBoolean(value), let number = value as? NSNumber else { return nil }
        return number.doubleValue
    }

    /// Whether a JSON value is `true` or `false` (which Foundation gives as an `NSNumber` of type `c`).
    private static func isBoolean(_ value: Any) -> Bool {
        if value is Bool, !(value is Int) { return true }
        guard let number = value as? NSNumber else { return false }
        return String(cString: number.objCType) == "c"
    }

    /// A bound as text: `-1`, `640`, `639.5`.
    private static func number(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
    }
}
