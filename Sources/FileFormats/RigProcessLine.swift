import Foundation

/// A line of the JSON Lines `marker-shutter process` writes for a rig's recording: a camera's frame
/// row, or a change of the rig shutter, in the order the rig's machine took them.
///
/// A camera's frame: `camera` (its name) first, then exactly the keys and values of a single
/// camera's ``ProcessRow`` (`index` is the frame's place in that camera's folder; `shutter` and
/// `held_index` are that camera's own debounce). A change of the rig: `rig` (`"enabled"` or
/// `"disabled"`), `t` (seconds, the time the machine reached with the step that changed it), for an
/// enabled rig `largest_difference_s` (seconds between the set's earliest and latest frames) and
/// `set` (`[{"camera", "index"}]`, one frame per camera by its place in the camera's folder), for a
/// disabled one `why` (the words the live terminal prints), then `cameras`
/// (`[{"camera", "shutter"}]`: each camera's own shutter, `enabled`, `held`, `disabled`, `stalled`
/// or `lost`).
///
/// ```
/// {"camera":"left","index":0,"file":"frame_000000.jpg","t":10,"sequence":null,"valid":true,...,"shutter":"enabled","held_index":0}
/// {"rig":"disabled","t":10.004,"why":"board motion unknown in left","cameras":[{"camera":"left","shutter":"enabled"},{"camera":"right","shutter":"enabled"}]}
/// {"rig":"enabled","t":10.044,"largest_difference_s":0.010667,"set":[{"camera":"left","index":1},{"camera":"right","index":1}],"cameras":[...]}
/// ```
///
/// Written by ``text`` with the keys in that order (`t` and `largest_difference_s` with six
/// decimals); read back by ``init(parsing:)``.
public enum RigProcessLine: Sendable, Equatable {
    /// A change of the rig shutter.
    public struct Change: Sendable, Equatable {
        /// One camera's frame in the set.
        public struct Member: Sendable, Equatable {
            /// The camera's name.
            public var camera: String
            /// The frame's place in the camera's folder, from 0.
            public var index: Int

            /// Makes a member.
            public init(camera: String, index: Int) {
                self.camera = camera
                self.index = index
            }
        }

        /// One camera's own shutter at the change.
        public struct CameraShutter: Sendable, Equatable {
            /// The camera's name.
            public var camera: String
            /// `enabled`, `held`, `disabled`, `stalled` or `lost`.
            public var shutter: String

            /// Makes a camera's shutter.
            public init(camera: String, shutter: String) {
                self.camera = camera
                self.shutter = shutter
            }
        }

        /// Enabled with a set, or disabled and why.
        public enum State: Sendable, Equatable {
            /// A set may be taken: its largest time difference (seconds) and its frames.
            case enabled(largestDifference: Double, set: [Member])
            /// No set may be taken, for this reason.
            case disabled(why: String)
        }

        /// The time the machine reached with the step that changed it, in seconds.
        public var t: Double
        /// The rig after the change.
        public var state: State
        /// Each camera's own shutter, in the rig's order.
        public var cameras: [CameraShutter]

        /// Makes a change.
        public init(t: Double, state: State, cameras: [CameraShutter]) {
            self.t = t
            self.state = state
            self.cameras = cameras
        }
    }

    /// A camera's frame row.
    case frame(camera: String, row: ProcessRow)
    /// A change of the rig shutter.
    case rig(Change)

    /// Why a line is not a rig's process line: what is wrong with it.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong.
        public var reason: String

        public var description: String { reason }
    }

    /// The line's text, keys in their fixed order, without a line break.
    public var text: String {
        switch self {
        case .frame(let camera, let row): Self.frameText(camera: camera, row: row.text)
        case .rig(let change): Self.changeText(change)
        }
    }

    /// A camera's frame line from the single camera's row text (`{"index":...}`): `camera` put first.
    public static func frameText(camera: String, row: some StringProtocol) -> String {
        precondition(row.first == "{", "a row is a JSON object, got \(row.prefix(20))")
        return "{\"camera\":" + JSONObjectText.string(camera) + "," + row.dropFirst()
    }

    /// A change's line.
    public static func changeText(_ change: Change) -> String {
        var object = JSONObjectText()
        switch change.state {
        case .enabled(let difference, let set):
            object.add("rig", "enabled")
            object.add("t", change.t, decimals: 6)
            object.add("largest_difference_s", difference, decimals: 6)
            object.add("set", raw: "[" + set.map { member in
                var item = JSONObjectText()
                item.add("camera", member.camera)
                item.add("index", member.index)
                return item.text
            }.joined(separator: ",") + "]")
        case .disabled(let why):
            object.add("rig", "disabled")
            object.add("t", change.t, decimals: 6)
            object.add("why", why)
        }
        object.add("cameras", raw: "[" + change.cameras.map { camera in
            var item = JSONObjectText()
            item.add("camera", camera.camera)
            item.add("shutter", camera.shutter)
            return item.text
        }.joined(separator: ",") + "]")
        return object.text
    }

    /// Reads a line.
    ///
    /// - Throws: ``Problem`` naming what is missing or of the wrong type.
    public init(parsing line: some StringProtocol) throws(Problem) {
        guard let document = try? JSONValue(parsing: Data(line.utf8)), let fields = document.object else {
            throw Problem(reason: "not a JSON object")
        }
        guard let rig = fields["rig"] else {
            guard let camera = fields["camera"]?.string else { throw Problem(reason: "neither \"rig\" nor a \"camera\" string") }
            do {
                self = .frame(camera: camera, row: try ProcessRow(parsing: line))
            } catch {
                throw Problem(reason: "\(camera)'s row: \(error)")
            }
            return
        }
        guard let t = fields["t"]?.real else { throw Problem(reason: "no \"t\" in seconds") }
        guard let list = fields["cameras"]?.array else { throw Problem(reason: "no \"cameras\" list") }
        var cameras: [Change.CameraShutter] = []
        for entry in list {
            guard let camera = entry.object?["camera"]?.string, let shutter = entry.object?["shutter"]?.string else {
                throw Problem(reason: "a camera that is not {\"camera\": name, \"shutter\": state}")
            }
            cameras.append(Change.CameraShutter(camera: camera, shutter: shutter))
        }
        let state: Change.State
        switch rig.string {
        case "enabled":
            guard let difference = fields["largest_difference_s"]?.real else { throw Problem(reason: "no \"largest_difference_s\" in seconds") }
            guard let entries = fields["set"]?.array else { throw Problem(reason: "no \"set\" list") }
            var set: [Change.Member] = []
            for entry in entries {
                guard let camera = entry.object?["camera"]?.string, let index = entry.object?["index"]?.integer else {
                    throw Problem(reason: "a set member that is not {\"camera\": name, \"index\": integer}")
                }
                set.append(Change.Member(camera: camera, index: index))
            }
            state = .enabled(largestDifference: difference, set: set)
        case "disabled":
            guard let why = fields["why"]?.string else { throw Problem(reason: "no \"why\" string") }
            state = .disabled(why: why)
        default:
            throw Problem(reason: "\"rig\" is neither \"enabled\" nor \"disabled\"")
        }
        self = .rig(Change(t: t, state: state, cameras: cameras))
    }
}
