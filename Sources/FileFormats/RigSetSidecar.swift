public import Foundation

/// The sidecar of one set a rig took: `PICTURES/<stem>.json` beside the cameras' folders (see
/// ``RigPictureLayout``). Per camera it names the device, the frame's timestamp, its detection (in
/// brief: each camera's own ``PictureSidecar`` has the corners) and the board's motion; for the set,
/// the largest time difference between its frames, with the rules it was taken under.
///
/// ```
/// {"set":"set_0001","trigger":"request","largest_difference_s":0.01,"sync_tolerance_s":0.016667,
///  "max_motion_px_per_frame":0.5,"cameras":[
///   {"name":"left","device":"/dev/video0","image":"left/set_0001.png","sidecar":"left/set_0001.json",
///    "frame_index":12,"t":0.400261,"sequence":5222,"valid":true,"markers":17,"corners":48,"motion_px_per_frame":0.12},
///   {"name":"right", ...}]}
/// ```
///
/// The keys are written in that order, on one line, `null` for a value not known
/// (`max_motion_px_per_frame` is `null` with `--max-motion off`). Read back with the same care as
/// a ``PictureSidecar``: the set's name, the cameras' names and the paths are checked, and every
/// path must be that camera's frame or sidecar of this set, so that a sidecar written by anyone
/// names no file outside the picture folder.
public struct RigSetSidecar: Sendable, Equatable {
    /// One camera's frame in the set.
    public struct Camera: Sendable, Equatable {
        /// The camera's name (its folder in the picture folder).
        public var name: String
        /// The camera's device (`/dev/video0`) or, replayed, the recording it came from.
        public var device: String?
        /// The frame's index among that camera's frames.
        public var frameIndex: Int?
        /// The frame's kernel timestamp, in seconds (six decimals).
        public var t: Double
        /// The camera's sequence number, when known.
        public var sequence: UInt64?
        /// Whether the frame's detection passed the validity rule.
        public var valid: Bool
        /// How many markers were found.
        public var markers: Int
        /// How many board corners were found.
        public var corners: Int
        /// The board's motion in the frame, in pixels per frame (three decimals); `nil` when not known.
        public var motion: Double?

        /// Describes one camera's frame.
        public init(name: String, device: String?, frameIndex: Int?, t: Double, sequence: UInt64?, valid: Bool,
                    markers: Int, corners: Int, motion: Double?) {
            self.name = name
            self.device = device
            self.frameIndex = frameIndex
            self.t = t
            self.sequence = sequence
            self.valid = valid
            self.markers = markers
            self.corners = corners
            self.motion = motion
        }
    }

    /// The set's name: the stem of its files (`set_0001`).
    public var set: String
    /// Who took it (`"request"`, `"auto"`).
    public var trigger: String?
    /// The sync tolerance it was taken under, in seconds.
    public var syncTolerance: Double?
    /// The motion limit it was taken under, in pixels per frame; `nil` when off.
    public var maxMotion: Double?
    /// The cameras' frames, in the rig's order.
    public var cameras: [Camera]

    /// The most cameras a set may have.
    public static let maximumCameras = 8
    /// The largest set sidecar read, in bytes.
    public static let maximumBytes = 64 << 10

    /// Makes a set's sidecar.
    public init(set: String, trigger: String?, syncTolerance: Double?, maxMotion: Double?, cameras: [Camera]) {
        self.set = set
        self.trigger = trigger
        self.syncTolerance = syncTolerance
        self.maxMotion = maxMotion
        self.cameras = cameras
    }

    /// The largest time difference between two frames of the set, in seconds.
    public var largestDifference: Double {
        guard let first = cameras.map(\.t).min(), let last = cameras.map(\.t).max() else { return 0 }
        return last - first
    }

    /// The sidecar's text, keys in their fixed order, ending in a newline.
    public var text: String {
        var object = JSONObjectText()
        object.add("set", set)
        object.add("trigger", trigger)
        object.add("largest_difference_s", largestDifference, decimals: 6)
        object.add("sync_tolerance_s", syncTolerance, decimals: 6)
        object.add("max_motion_px_per_frame", maxMotion, decimals: 3)
        let list = cameras.map { camera in
            var entry = JSONObjectText()
            entry.add("name", camera.name)
            entry.add("device", camera.device)
            entry.add("image", RigPictureLayout.relativeImage(camera: camera.name, stem: set))
            entry.add("sidecar", RigPictureLayout.relativeSidecar(camera: camera.name, stem: set))
            entry.add("frame_index", camera.frameIndex)
            entry.add("t", camera.t, decimals: 6)
            entry.add("sequence", camera.sequence)
            entry.add("valid", camera.valid)
            entry.add("markers", camera.markers)
            entry.add("corners", camera.corners)
            entry.add("motion_px_per_frame", camera.motion, decimals: 3)
            return entry.text
        }
        object.add("cameras", raw: "[" + list.joined(separator: ",") + "]")
        return object.text + "\n"
    }

    /// Reads a set sidecar's bytes.
    ///
    /// - Throws: ``PictureSidecar/Problem`` naming the field that is missing, of the wrong type or
    ///   out of its range, or the file when it is not a JSON object or too large.
    public init(parsing data: Data) throws(PictureSidecar.Problem) {
        typealias Problem = PictureSidecar.Problem
        guard data.count <= Self.maximumBytes else {
            throw Problem(field: nil, reason: "is \(data.count) bytes long, more than the \(Self.maximumBytes) a set sidecar may have")
        }
        guard let document = try? JSONValue(parsing: data), let fields = document.object else {
            throw Problem(field: nil, reason: "not a JSON object")
        }
        guard let set = fields["set"]?.string else { throw Problem(field: nil, reason: "no \"set\" name") }
        if let problem = PictureSidecar.nameProblem(set + ".png") { throw Problem(field: "set", reason: problem) }
        guard let list = fields["cameras"]?.array else { throw Problem(field: nil, reason: "no \"cameras\" list") }
        guard (2...Self.maximumCameras).contains(list.count) else {
            throw Problem(field: "cameras", reason: "has \(list.count) entries, not the 2 to \(Self.maximumCameras) a set has")
        }
        var cameras: [Camera] = []
        var names = Set<String>()
        for (index, value) in list.enumerated() {
            let field = "cameras[\(index)]"
            guard let entry = value.object else { throw Problem(field: field, reason: "is not an object") }
            guard let name = entry["name"]?.string else { throw Problem(field: field + ".name", reason: "is missing or not a string") }
            if let problem = RigPictureLayout.cameraNameProblem(name) { throw Problem(field: field + ".name", reason: problem) }
            guard names.insert(name).inserted else { throw Problem(field: field + ".name", reason: "is \"\(name)\", named twice") }
            for (key, expected) in [("image", RigPictureLayout.relativeImage(camera: name, stem: set)),
                                    ("sidecar", RigPictureLayout.relativeSidecar(camera: name, stem: set))] {
                guard let path = entry[key]?.string, path == expected else {
                    throw Problem(field: field + "." + key, reason: "is not \"\(expected)\", the camera's \(key) of this set")
                }
            }
            guard let t = entry["t"]?.real, t.isFinite else { throw Problem(field: field + ".t", reason: "is missing or not a finite number") }
            guard let markers = entry["markers"]?.integer, markers >= 0, let corners = entry["corners"]?.integer, corners >= 0 else {
                throw Problem(field: field, reason: "has no whole \"markers\" and \"corners\" counts")
            }
            let motion = entry["motion_px_per_frame"]?.real
            if let motion, !(motion.isFinite && motion >= 0) {
                throw Problem(field: field + ".motion_px_per_frame", reason: "is \(motion), not a motion of 0 or more")
            }
            cameras.append(Camera(name: name, device: entry["device"]?.string, frameIndex: entry["frame_index"]?.integer, t: t,
                                  sequence: entry["sequence"]?.integer.flatMap { $0 >= 0 ? UInt64($0) : nil },
                                  valid: entry["valid"]?.bool ?? false, markers: markers, corners: corners, motion: motion))
        }
        self.set = set
        self.cameras = cameras
        trigger = fields["trigger"]?.string
        syncTolerance = fields["sync_tolerance_s"]?.real
        maxMotion = fields["max_motion_px_per_frame"]?.real
    }
}
