import FileFormats
import Foundation

/// A rig's recording, read and checked for a replay: its cameras (from `cameras.json`, in the rig's
/// order) and its frames, in the order of `manifest.jsonl` (the order the rig shutter saw them),
/// each with its camera, its file in that camera's folder and its kernel timestamp.
///
/// ```
/// DIR/cameras.json           {"cameras":[{"name":"left","fps":30},{"name":"right","fps":25}]}
/// DIR/manifest.jsonl     {"camera":"left","file":"frame_000000.jpg","t":5321.046411,"sequence":0}
/// DIR/left/frame_000000.jpg, DIR/right/frame_000000.jpg, ...
/// ```
///
/// Written by ``RigRecorder``. Nothing in a recording is trusted: a camera the rig does not have,
/// a file outside its camera's folder (a name with `/`, a link leading out), a camera's timestamps
/// going back, or a camera with no frame is a ``RigRecordingError`` naming it, and nothing is replayed.
public struct RigRecording: Sendable {
    /// The file naming a rig recording's cameras.
    public static let descriptionName = "cameras.json"
    /// The file of what the rig machine was told, in order.
    public static let eventsName = "events.jsonl"

    /// One thing the rig machine was told.
    public enum Step: Sendable, Equatable {
        /// A camera's frame arrived, before detection, with `dropped` frames lost before it.
        case arrived(camera: Int, time: FrameTime, dropped: Int = 0)
        /// The frame ``frames``[n], after detection.
        case observed(frame: Int)
        /// Time moved on with no frame.
        case advance(FrameTime)
        /// Time moved on for arrivals only, frames waiting for detection.
        case advanceArrivals(FrameTime)
        /// The camera is gone.
        case lost(camera: Int)
    }

    /// `cameras.json`: the cameras in the rig's order, each with its frame interval.
    public struct Description: Sendable, Equatable {
        /// One camera.
        public struct Camera: Sendable, Equatable {
            /// Its name (the name of its folder).
            public let name: String
            /// The time between its frames.
            public let frameInterval: Duration

            /// Describes a camera.
            public init(name: String, frameInterval: Duration) {
                self.name = name
                self.frameInterval = frameInterval
            }
        }

        /// The cameras, in the rig's order.
        public let cameras: [Camera]

        /// Describes a rig.
        public init(cameras: [Camera]) { self.cameras = cameras }

        /// The file's text: `fps` for an interval of a whole number of frames per second (written
        /// so that it reads back exactly), else `frame_interval` in seconds.
        public var text: String {
            let items = cameras.map { camera -> String in
                let fps = Int((1 / camera.frameInterval.inSeconds).rounded())
                let rate = fps > 0 && Duration.seconds(1) / fps == camera.frameInterval
                    ? "\"fps\":\(fps)" : "\"frame_interval\":\(ManifestLine.secondsText(camera.frameInterval.inSeconds))"
                return "{\"name\":\(JSONObjectText.string(camera.name)),\(rate)}"
            }
            return "{\"cameras\":[" + items.joined(separator: ",") + "]}\n"
        }

        private struct Stored: Decodable {
            struct Camera: Decodable {
                let name: String
                let fps: Int?
                let frame_interval: Double?
            }

            let cameras: [Camera]
        }

        /// Reads the file's text.
        ///
        /// - Throws: ``RigRecordingError`` when it is not a list of 2 to 8 cameras with distinct valid
        ///   names and a frame rate (`fps` from 1 to 1000) or interval (`frame_interval` seconds, 0 to 1).
        public init(parsing text: String) throws(RigRecordingError) {
            let stored: Stored
            do {
                stored = try JSONDecoder().decode(Stored.self, from: Data(text.utf8))
            } catch {
                throw RigRecordingError("\(RigRecording.descriptionName) is not {\"cameras\":[{\"name\":...,\"fps\":...},...]}")
            }
            guard RigShutterMachine.Configuration.cameraCounts.contains(stored.cameras.count) else {
                throw RigRecordingError("\(RigRecording.descriptionName) names \(stored.cameras.count) cameras; a rig has 2 to 8")
            }
            var cameras: [Camera] = []
            for camera in stored.cameras {
                if let problem = RigCamera.nameProblem(camera.name) {
                    throw RigRecordingError("\(RigRecording.descriptionName): camera name \"\(FileNameText.escaped(camera.name))\" \(problem)")
                }
                guard !cameras.contains(where: { $0.name == camera.name }) else {
                    throw RigRecordingError("\(RigRecording.descriptionName) names camera \(camera.name) twice")
                }
                let interval: Duration
                if let fps = camera.fps, (1...1000).contains(fps) {
                    interval = .seconds(1) / fps
                } else if let seconds = camera.frame_interval, seconds.isFinite, seconds > 0, seconds <= 1 {
                    interval = .nanoseconds(Int64((seconds * 1e9).rounded()))
                } else {
                    throw RigRecordingError("\(RigRecording.descriptionName): camera \(camera.name) needs fps from 1 to 1000 or frame_interval from 0 to 1 s")
                }
                cameras.append(Camera(name: camera.name, frameInterval: interval))
            }
            self.cameras = cameras
        }
    }

    /// One recorded frame.
    public struct Frame: Sendable, Equatable {
        /// The camera's position in the rig.
        public let camera: Int
        /// The frame's file, its path.
        public let path: String
        /// The frame's kernel timestamp.
        public let time: FrameTime
        /// The camera's sequence number, when known.
        public let sequence: UInt64?
        /// The camera controls set for the frame, as the manifest last gave them for its camera
        /// (given on the line where they change); empty without.
        public var controls: [String: Int64] = [:]
        /// Where the frame is read from when it is not the file at `path` (a message of a bag).
        public var content: FrameContentReference? = nil

        /// A frame of `camera`, read from `path`, or through `content` (then `path` only names it).
        public init(camera: Int, path: String, time: FrameTime, sequence: UInt64? = nil, controls: [String: Int64] = [:],
                    content: FrameContentReference? = nil) {
            self.camera = camera
            self.path = path
            self.time = time
            self.sequence = sequence
            self.controls = controls
            self.content = content
        }
    }

    /// The folder.
    public let folder: String
    /// The cameras, in the rig's order.
    public let cameras: [RigCamera]
    /// Every frame, in the order the rig saw them.
    public let frames: [Frame]
    /// What the rig machine was told, in order (from `events.jsonl`; without it, each frame's arrival
    /// and detection, one frame after another).
    public let steps: [Step]
    /// Where the frames' times came from.
    public private(set) var timing = FrameFolder.Timing.manifest

    /// A recording whose frames are already listed (a bag's topics, each a camera): each frame's
    /// arrival and detection, one frame after another, in the order given.
    ///
    /// - Parameters:
    ///   - folder: What holds the frames, as messages name it.
    ///   - cameras: The cameras, in the rig's order.
    ///   - frames: Every frame, in the order the rig saw them; each camera's times increasing.
    ///   - timing: Where their times came from.
    public init(folder: String, cameras: [RigCamera], frames: [Frame], timing: FrameFolder.Timing) {
        self.folder = folder
        self.cameras = cameras
        self.frames = frames
        self.steps = frames.indices.flatMap { [Step.arrived(camera: frames[$0].camera, time: frames[$0].time), .observed(frame: $0)] }
        self.timing = timing
    }

    /// Whether `folder` holds a rig's recording (a `cameras.json`, or a manifest whose first line names a
    /// camera) rather than a single camera's.
    public static func isRig(_ folder: String) -> Bool {
        if FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent(descriptionName)) { return true }
        guard let handle = FileHandle(forReadingAtPath: (folder as NSString).appendingPathComponent(FrameManifest.fileName)) else { return false }
        defer { try? handle.close() }
        let start = (try? handle.read(upToCount: 4096)) ?? Data()
        guard let first = String(decoding: start, as: UTF8.self).split(separator: "\n").first else { return false }
        return (try? ManifestLine(parsing: first))?.camera != nil
    }

    /// Reads and checks the recording in `folder`.
    ///
    /// - Parameters:
    ///   - folder: The recording.
    ///   - allowingMissingFrames: Whether a frame whose file is missing is kept (for `process`, whose
    ///     row for it says so), rather than refused.
    /// - Throws: ``RigRecordingError`` naming the first thing wrong.
    public init(folder: String, allowingMissingFrames: Bool = false) throws(RigRecordingError) {
        self.folder = folder
        let descriptionPath = (folder as NSString).appendingPathComponent(Self.descriptionName)
        guard let descriptionText = try? String(contentsOfFile: descriptionPath, encoding: .utf8) else {
            throw RigRecordingError("\(descriptionPath) cannot be read: a rig's recording names its cameras there")
        }
        let description = try Description(parsing: descriptionText)
        do {
            cameras = try description.cameras.map { try RigCamera(name: $0.name, frameInterval: $0.frameInterval) }
        } catch {
            throw RigRecordingError("\(error)")
        }
        let manifestPath = (folder as NSString).appendingPathComponent(FrameManifest.fileName)
        let size = (try? FileManager.default.attributesOfItem(atPath: manifestPath)[.size] as? Int) ?? 0
        guard size <= InputLimits.manifestBytes else {
            throw RigRecordingError("\(manifestPath) is \(size) bytes, more than \(InputLimits.manifestBytes) a manifest may have")
        }
        guard let text = try? String(contentsOfFile: manifestPath, encoding: .utf8) else {
            throw RigRecordingError("\(manifestPath) cannot be read")
        }
        let root = URL(fileURLWithPath: folder).resolvingSymlinksInPath().path
        var frames: [Frame] = []
        var last: [FrameTime?] = Array(repeating: nil, count: cameras.count)
        var files: [Set<String>] = Array(repeating: [], count: cameras.count)
        var controls: [[String: Int64]] = Array(repeating: [:], count: cameras.count)
        let lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
        for (offset, scalars) in lines.enumerated() {
            let number = offset + 1
            let trimmed = String(scalars).trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty { continue }
            func bad(_ reason: String) -> RigRecordingError { RigRecordingError("\(manifestPath) line \(number): \(reason)") }
            guard let line = try? ManifestLine(parsing: trimmed) else {
                throw bad("expected {\"camera\": ..., \"file\": ..., \"t\": seconds}")
            }
            guard let name = line.camera else { throw bad("names no camera; every line of a rig's manifest names its camera") }
            guard let camera = cameras.firstIndex(where: { $0.name == name }) else {
                throw bad("camera \"\(FileNameText.escaped(name))\" is not one of the rig's (\(cameras.map(\.name).joined(separator: ", ")))")
            }
            let shown = FileNameText.escaped(line.file)
            guard !line.file.isEmpty, !line.file.contains("/"), line.file != ".", line.file != "..",
                  !line.file.unicodeScalars.contains("\0"), FileNameText.tooLong(line.file) == nil else {
                throw bad("file \"\(shown)\" must be a plain name inside \(name)'s folder")
            }
            let path = ((folder as NSString).appendingPathComponent(name) as NSString).appendingPathComponent(line.file)
            var resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
            var isFolder: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: resolved, isDirectory: &isFolder)
            if !exists, allowingMissingFrames, (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) == nil {
                // Nothing there, not even a link: where it would be, in its camera's folder.
                resolved = (URL(fileURLWithPath: (folder as NSString).appendingPathComponent(name)).resolvingSymlinksInPath().path
                    as NSString).appendingPathComponent(line.file)
            }
            guard resolved.hasPrefix(root + "/") else { throw bad("\(name)/\(shown) leads outside the recording (to \(resolved))") }
            guard exists ? !isFolder.boolValue : allowingMissingFrames else {
                throw bad("\(name)/\(shown) is not a file in the recording")
            }
            guard files[camera].insert(line.file).inserted else { throw bad("\(name)/\(shown) is named twice") }
            guard line.t.isFinite, line.t >= 0, line.t <= 1e9 else { throw bad("t \(line.t) is not a timestamp from 0 to 1e9 seconds") }
            let time = FrameTime(.microseconds(Int64((line.t * 1e6).rounded())))
            if let previous = last[camera], time <= previous {
                throw bad("\(name)'s time goes back: t \(ManifestLine.secondsText(line.t)) after \(ManifestLine.secondsText(previous.seconds))")
            }
            last[camera] = time
            if let given = line.controls { controls[camera] = given }
            frames.append(Frame(camera: camera, path: path, time: time, sequence: line.sequence, controls: controls[camera]))
        }
        if let silent = last.firstIndex(where: { $0 == nil }) {
            throw RigRecordingError("\(manifestPath): camera \(cameras[silent].name) has no frame")
        }
        self.frames = frames
        let eventsPath = (folder as NSString).appendingPathComponent(Self.eventsName)
        guard FileManager.default.fileExists(atPath: eventsPath) else {
            steps = frames.indices.flatMap { [Step.arrived(camera: frames[$0].camera, time: frames[$0].time), .observed(frame: $0)] }
            return
        }
        steps = try Self.steps(eventsPath, frames: frames, cameras: cameras.map(\.name))
    }

    private struct Event: Decodable {
        let arrived: String?
        let t: Double?
        let dropped: Int?
        let observed: String?
        let file: String?
        let advance: Double?
        let advance_arrivals: Double?
        let lost: String?
    }

    /// Reads `events.jsonl`: every frame of the manifest observed once, each camera's in the manifest's order.
    private static func steps(_ path: String, frames: [Frame], cameras: [String]) throws(RigRecordingError) -> [Step] {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        guard size <= InputLimits.manifestBytes * 4, let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw RigRecordingError("\(path) cannot be read, or is larger than \(InputLimits.manifestBytes * 4) bytes")
        }
        var steps: [Step] = []
        var nextFrame = 0
        let lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
        for (offset, scalars) in lines.enumerated() {
            let trimmed = String(scalars).trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty { continue }
            func bad(_ reason: String) -> RigRecordingError { RigRecordingError("\(path) line \(offset + 1): \(reason)") }
            func camera(_ name: String) throws(RigRecordingError) -> Int {
                guard let index = cameras.firstIndex(of: name) else {
                    throw bad("camera \"\(FileNameText.escaped(name))\" is not one of the rig's (\(cameras.joined(separator: ", ")))")
                }
                return index
            }
            func time(_ seconds: Double) throws(RigRecordingError) -> FrameTime {
                guard seconds.isFinite, seconds >= 0, seconds <= 1e9 else { throw bad("\(seconds) is not a timestamp from 0 to 1e9 seconds") }
                return FrameTime(.microseconds(Int64((seconds * 1e6).rounded())))
            }
            guard let event = try? JSONDecoder().decode(Event.self, from: Data(trimmed.utf8)) else {
                throw bad("expected {\"arrived\": camera, \"t\": s[, \"dropped\": n]}, {\"observed\": camera, \"file\": name}, {\"advance\": s}, {\"advance_arrivals\": s} or {\"lost\": camera}")
            }
            if let name = event.arrived, let t = event.t {
                let dropped = event.dropped ?? 0
                guard (0...1_000_000).contains(dropped) else { throw bad("dropped \(dropped) is not a count of frames from 0 to 1000000") }
                steps.append(.arrived(camera: try camera(name), time: try time(t), dropped: dropped))
            } else if let name = event.observed, let file = event.file {
                let index = try camera(name)
                guard nextFrame < frames.count, frames[nextFrame].camera == index,
                      (frames[nextFrame].path as NSString).lastPathComponent == file else {
                    throw bad("\(name)/\(FileNameText.escaped(file)) is not the manifest's next frame")
                }
                let next = nextFrame
                nextFrame += 1
                steps.append(.observed(frame: next))
            } else if let t = event.advance {
                steps.append(.advance(try time(t)))
            } else if let t = event.advance_arrivals {
                steps.append(.advanceArrivals(try time(t)))
            } else if let name = event.lost {
                steps.append(.lost(camera: try camera(name)))
            } else {
                throw bad("expected {\"arrived\": camera, \"t\": s[, \"dropped\": n]}, {\"observed\": camera, \"file\": name}, {\"advance\": s}, {\"advance_arrivals\": s} or {\"lost\": camera}")
            }
        }
        guard nextFrame == frames.count else {
            throw RigRecordingError("\(path): \(frames.count - nextFrame) frames of the manifest are never observed, from \(cameras[frames[nextFrame].camera])/\((frames[nextFrame].path as NSString).lastPathComponent)")
        }
        return steps
    }
}

/// A rig's recording that cannot be replayed, and why.
public struct RigRecordingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    public let description: String

    init(_ description: String) { self.description = description }
}
