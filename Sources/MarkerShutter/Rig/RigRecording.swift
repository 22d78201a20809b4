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
package struct RigRecording: Sendable {
    /// One thing the rig machine was told.
    package enum Step: Sendable, Equatable {
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

    /// One recorded frame.
    package struct Frame: Sendable, Equatable {
        /// The camera's position in the rig.
        package let camera: Int
        /// The frame's file, its path.
        package let path: String
        /// The frame's kernel timestamp.
        package let time: FrameTime
        /// The camera's sequence number, when known.
        package let sequence: UInt64?
        /// The camera controls set for the frame, as the manifest last gave them for its camera
        /// (given on the line where they change); empty without.
        package var controls: [String: Int64] = [:]
        /// Where the frame is read from when it is not the file at `path` (a message of a bag).
        package var content: FrameContentReference? = nil

        /// A frame of `camera`, read from `path`, or through `content` (then `path` only names it).
        package init(camera: Int, path: String, time: FrameTime, sequence: UInt64? = nil, controls: [String: Int64] = [:],
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
    package let folder: String
    /// The cameras, in the rig's order.
    package let cameras: [RigCamera]
    /// Every frame, in the order the rig saw them.
    package let frames: [Frame]
    /// What the rig machine was told, in order (from `events.jsonl`; without it, each frame's arrival
    /// and detection, one frame after another).
    package let steps: [Step]
    /// Where the frames' times came from.
    package private(set) var timing = FrameFolder.Timing.manifest

    /// A recording whose frames are already listed (a bag's topics, each a camera): each frame's
    /// arrival and detection, one frame after another, in the order given.
    ///
    /// - Parameters:
    ///   - folder: What holds the frames, as messages name it.
    ///   - cameras: The cameras, in the rig's order.
    ///   - frames: Every frame, in the order the rig saw them; each camera's times increasing.
    ///   - timing: Where their times came from.
    package init(folder: String, cameras: [RigCamera], frames: [Frame], timing: FrameFolder.Timing) {
        self.folder = folder
        self.cameras = cameras
        self.frames = frames
        self.steps = frames.indices.flatMap { [Step.arrived(camera: frames[$0].camera, time: frames[$0].time), .observed(frame: $0)] }
        self.timing = timing
    }

    /// Whether `folder` holds a rig's recording (a `cameras.json`, or a manifest whose first line names a
    /// camera) rather than a single camera's.
    package static func isRig(_ folder: String) -> Bool {
        if FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent(CamerasFile.fileName)) { return true }
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
    package init(folder: String, allowingMissingFrames: Bool = false) throws(RigRecordingError) {
        self.folder = folder
        let descriptionPath = (folder as NSString).appendingPathComponent(CamerasFile.fileName)
        guard let descriptionText = try? String(contentsOfFile: descriptionPath, encoding: .utf8) else {
            throw RigRecordingError("\(descriptionPath) cannot be read: a rig's recording names its cameras there")
        }
        let description: CamerasFile
        do {
            description = try CamerasFile(parsing: descriptionText)
        } catch {
            throw RigRecordingError(error.description)
        }
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
        let eventsPath = (folder as NSString).appendingPathComponent(EventsLine.fileName)
        guard FileManager.default.fileExists(atPath: eventsPath) else {
            steps = frames.indices.flatMap { [Step.arrived(camera: frames[$0].camera, time: frames[$0].time), .observed(frame: $0)] }
            return
        }
        steps = try Self.steps(eventsPath, frames: frames, cameras: cameras.map(\.name))
    }

    /// The most bytes an `events.jsonl` may have: four times a manifest's.
    static let eventsBytes = InputLimits.manifestBytes * 4

    /// Reads `events.jsonl`, one line at a time: every frame of the manifest observed once, each
    /// camera's in the manifest's order; each camera's arrivals in the order they were taken; time
    /// moving on to no earlier than the newest arrival before it (a live rig moves its time on from
    /// its newest frame, whichever camera's: from one move to the next it may go back by how much
    /// longer the newer frame took to arrive, and different cameras' arrivals need not be in time order).
    private static func steps(_ path: String, frames: [Frame], cameras: [String]) throws(RigRecordingError) -> [Step] {
        var reader: TextLineReader
        do {
            reader = try TextLineReader(path: path, byteLimit: eventsBytes, lineLimit: EventsLine.maximumLineBytes)
        } catch {
            throw RigRecordingError(Self.explanation(of: error, path: path))
        }
        var steps: [Step] = []
        var nextFrame = 0
        var lastArrival: [FrameTime?] = Array(repeating: nil, count: cameras.count)
        var newestArrival: FrameTime?
        func time(_ seconds: Double) -> FrameTime { FrameTime(.microseconds(Int64((seconds * 1e6).rounded()))) }
        func seconds(_ time: FrameTime) -> String { ManifestLine.secondsText(time.seconds) }
        while true {
            let text: String?
            do {
                text = try reader.next()
            } catch {
                throw RigRecordingError(Self.explanation(of: error, path: path))
            }
            guard let text else { break }
            if text.utf8.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }) { continue }
            let number = reader.lineNumber
            func bad(_ reason: String) -> RigRecordingError { RigRecordingError("\(path) line \(number): \(reason)") }
            func camera(_ name: String) throws(RigRecordingError) -> Int {
                guard let index = cameras.firstIndex(of: name) else {
                    throw bad("camera \"\(FileNameText.escaped(name))\" is not one of the rig's (\(cameras.joined(separator: ", ")))")
                }
                return index
            }
            let event: EventsLine
            do {
                event = try EventsLine(parsing: text)
            } catch {
                throw bad(error.description)
            }
            switch event {
            case .arrived(let name, let t, let dropped):
                let index = try camera(name)
                let arrival = time(t)
                if let previous = lastArrival[index], arrival < previous {
                    throw bad("\(name)'s arrival at t=\(seconds(arrival)) s is earlier than its arrival before it (t=\(seconds(previous)) s): "
                        + "a camera's frames arrive in the order they were taken")
                }
                lastArrival[index] = arrival
                newestArrival = max(newestArrival ?? arrival, arrival)
                steps.append(.arrived(camera: index, time: arrival, dropped: dropped))
            case .observed(let name, let file):
                let index = try camera(name)
                guard nextFrame < frames.count, frames[nextFrame].camera == index,
                      (frames[nextFrame].path as NSString).lastPathComponent == file else {
                    throw bad("\(name)/\(FileNameText.escaped(file)) is not the manifest's next frame")
                }
                steps.append(.observed(frame: nextFrame))
                nextFrame += 1
            case .advance(let t), .advanceArrivals(let t):
                let moved = time(t)
                if let newestArrival, moved < newestArrival {
                    throw bad("time moves on to t=\(seconds(moved)) s, earlier than the newest arrival before it (t=\(seconds(newestArrival)) s)")
                }
                if case .advance = event { steps.append(.advance(moved)) } else { steps.append(.advanceArrivals(moved)) }
            case .lost(let name):
                steps.append(.lost(camera: try camera(name)))
            }
        }
        guard nextFrame == frames.count else {
            throw RigRecordingError("\(path): \(frames.count - nextFrame) frames of the manifest are never observed, from \(cameras[frames[nextFrame].camera])/\((frames[nextFrame].path as NSString).lastPathComponent)")
        }
        return steps
    }

    /// What is wrong with the file of lines at `path`, as a message.
    private static func explanation(of failure: TextLineReader.Failure, path: String) -> String {
        switch failure {
        case .unreadable(let reason): "\(path) cannot be read: \(reason)"
        case .tooLarge(let bytes): "\(path) is \(bytes) bytes, more than \(eventsBytes) an event list may have"
        case .lineTooLong(let line): "\(path) line \(line): a line of more than \(EventsLine.maximumLineBytes) bytes"
        case .notText(let line): "\(path) line \(line): not UTF-8 text"
        }
    }
}

/// A rig's recording that cannot be replayed, and why.
package struct RigRecordingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    package let description: String

    init(_ description: String) { self.description = description }
}
