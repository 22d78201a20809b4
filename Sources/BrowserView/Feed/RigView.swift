public import MarkerDetection
public import MarkerShutter
public import Pixels

/// A rig as its views show it: each camera's newest frame with its detection and its own state,
/// the rig's state, and the sets saved. The browser view and the preview window keep one and
/// hand it every ``LiveSession/Event``; it keeps the newest of everything, so that a view that
/// draws less often than frames come skips frames instead of queueing them.
public struct RigView: Sendable {
    /// One camera of the rig.
    public struct Camera: Sendable {
        /// Its name.
        public let name: String
        /// Its own shutter, as the rig last told it.
        public var phase: RigState.CameraPhase = .stalled
        /// Its newest frame's index, or `nil` before its first.
        public var frameIndex: Int?
        /// Its newest frame's time.
        public var time: FrameTime?
        /// Its newest frame's pixels and what was found in them.
        public var pixels: PixelBuffer?
        /// What was found in the newest frame.
        public var detection: Detection?
        /// Whether it has delivered a frame yet.
        public var hasFrame: Bool { frameIndex != nil }

        /// A camera with no frame yet.
        public init(name: String) { self.name = name }

        /// The camera's state in one word, as its badge shows it: `VALID`, `HELD`, `NOT SEEING`,
        /// `STALLED` (or `WAITING` before its first frame), `LOST`.
        public var stateText: String {
            switch phase {
            case .enabled: "VALID"
            case .held: "HELD"
            case .disabled: "NOT SEEING"
            case .stalled: hasFrame ? "STALLED" : "WAITING"
            case .lost: "LOST"
            }
        }

        /// The badge on the camera's frame: `left: VALID  12 markers, 24 corners`, green while its
        /// detection is valid or held.
        public var badge: Annotation.Badge {
            let found = detection.map { "  \($0.markers.count) markers, \($0.boardCorners.count) corners" } ?? ""
            return Annotation.Badge(text: "\(name): \(stateText)\(found)", isOK: phase == .enabled || phase == .held)
        }
    }

    /// A set saved, as the view lists it.
    public struct SavedSet: Sendable, Hashable {
        /// The set's number (`set_0003` is 3).
        public let number: Int
        /// The sidecar's file name, without folders.
        public let sidecar: String
        /// Each camera's picture, as a path below the picture folder (`left/set_0003.png`).
        public let images: [String]
        /// The largest time difference between the set's frames, in seconds.
        public let apart: Double
        /// Who asked: a request (key, button, command) or `--auto`.
        public let trigger: PictureFolder.Trigger

        /// A set from what the session says it saved; only the names below `folder` are kept,
        /// so that no client learns where the server keeps its files.
        ///
        /// - Parameters:
        ///   - saved: What the session saved.
        ///   - folder: The picture folder.
        public init(_ saved: LiveSession.SavedPicture, folder: String) {
            number = saved.number
            sidecar = Self.below(folder, saved.sidecar)
            images = saved.images.map { Self.below(folder, $0) }
            apart = saved.largestDifference
            trigger = saved.trigger
        }

        /// `path` relative to `folder` when it lies below it, else its last component.
        private static func below(_ folder: String, _ path: String) -> String {
            let prefix = folder.hasSuffix("/") ? folder : folder + "/"
            if path.hasPrefix(prefix), path.count > prefix.count { return String(path.dropFirst(prefix.count)) }
            return path.split(separator: "/").last.map(String.init) ?? path
        }
    }

    /// How many sets the view lists.
    public static let recentSetCount = 5

    /// The cameras, in the rig's order.
    public private(set) var cameras: [Camera]
    /// The rig's state, or `nil` before the first event that tells it.
    public private(set) var state: RigState?
    /// The newest frame's time, of any camera.
    public private(set) var time: FrameTime?
    /// Sets saved so far.
    public private(set) var setsTaken = 0
    /// The last ``recentSetCount`` sets saved, oldest first.
    public private(set) var recentSets: [SavedSet] = []
    /// The picture folder the sets go to (their names are shown below it).
    public let folder: String

    /// A rig of cameras named `names` (in its order), none with a frame yet.
    ///
    /// - Parameters:
    ///   - names: The cameras' names.
    ///   - folder: The picture folder the sets go to.
    public init(cameras names: [String], folder: String) {
        cameras = names.map(Camera.init(name:))
        self.folder = folder
    }

    /// Takes in one of the session's events.
    ///
    /// - Returns: Whether the picture changed (a frame, or the rig's or a camera's state).
    @discardableResult
    public mutating func apply(_ event: LiveSession.Event) -> Bool {
        switch event {
        case .frame(let report, _, _):
            let camera = report.camera
            guard cameras.indices.contains(camera) else { return false }
            let observation = report.observation
            cameras[camera].frameIndex = observation.index
            cameras[camera].time = observation.time
            cameras[camera].pixels = report.pixels
            cameras[camera].detection = observation.detection
            time = max(time ?? observation.time, observation.time)
            if let rig = report.rig { take(rig) }
            return true
        case .rigChanged(let rig):
            take(rig)
            return true
        case .pictureSaved(let saved):
            setsTaken += 1
            recentSets.append(SavedSet(saved, folder: folder))
            if recentSets.count > Self.recentSetCount { recentSets.removeFirst(recentSets.count - Self.recentSetCount) }
            return false
        case .shutterExpired, .cameraChanged, .pictureRefused, .pictureFailed, .pictureNotTaken, .recordingStopped, .frameSkipped,
             .calibrated, .rigCalibrated, .calibrationFailed, .calibrationWritten, .calibrationNotWritten, .cameraControls:
            return false
        }
    }

    /// Keeps `rig` and each camera's state in it.
    private mutating func take(_ rig: RigState) {
        state = rig
        for (index, phase) in zip(cameras.indices, rig.cameras) { cameras[index].phase = phase }
    }

    /// Whether a set may be taken now.
    public var isEnabled: Bool { state?.isEnabled ?? false }

    /// The rig's state in the terminal's words: `ENABLED: frames 3.2 ms apart`, `disabled: left does
    /// not see the board`, or `waiting` before the first frame.
    public var text: String {
        guard let state else { return "waiting" }
        if let set = state.set { return "ENABLED: frames \(Self.milliseconds(set.largestDifference)) ms apart" }
        return "disabled: \(state.refusal.map(String.init(describing:)) ?? "")"
    }

    /// The rig's badge, green while a set may be taken.
    public var badge: Annotation.Badge { Annotation.Badge(text: "rig " + text, isOK: isEnabled) }

    /// Each camera's panel for ``SideBySide``: its newest frame, its detection and its badge.
    public var panels: [SideBySide.Panel] {
        cameras.map { SideBySide.Panel(pixels: $0.pixels, detection: $0.detection, badge: $0.badge) }
    }

    /// Milliseconds with one decimal: `3.2`.
    static func milliseconds(_ duration: Duration) -> String {
        let value = (duration.inSeconds * 10_000).rounded() / 10
        return String(value)
    }
}
