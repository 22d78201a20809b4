import Foundation

/// `cameras.json` of a rig's recording: its cameras in the rig's order, each with the time between
/// its frames.
///
/// ```
/// {"cameras":[{"name":"left","fps":30},{"name":"right","frame_interval":0.0333667}]}
/// ```
///
/// Written by ``text``: `fps` for an interval of a whole number of frames per second (so that it
/// reads back exactly), else `frame_interval` in seconds to the nanosecond. Read by
/// ``init(parsing:)`` as untrusted input: 2 to 8 cameras with distinct names that
/// ``RigPictureLayout/cameraNameProblem(_:)`` accepts, each with `fps` from 1 to 1000 or
/// `frame_interval` from 0.001 to 1 s; anything else is a ``CamerasFileError`` naming it.
public struct CamerasFile: Sendable, Equatable {
    /// One camera.
    public struct Camera: Sendable, Equatable {
        /// Its name (the name of its folder in the recording).
        public let name: String
        /// The time between its frames.
        public let frameInterval: Duration

        /// Describes a camera.
        public init(name: String, frameInterval: Duration) {
            self.name = name
            self.frameInterval = frameInterval
        }
    }

    /// The file's name in a rig's recording.
    public static let fileName = "cameras.json"
    /// How many cameras a rig has.
    public static let cameraCounts: ClosedRange<Int> = 2...8
    /// The frame rates `fps` may give.
    public static let framesPerSecond: ClosedRange<Int> = 1...1000
    /// The intervals `frame_interval` may give: as many frames a second as `fps` allows.
    public static let frameIntervals: ClosedRange<Duration> = .milliseconds(1)...(.seconds(1))

    /// The cameras, in the rig's order.
    public let cameras: [Camera]

    /// Describes a rig.
    public init(cameras: [Camera]) { self.cameras = cameras }

    /// The file's text, newline included.
    public var text: String {
        let items = cameras.map { camera -> String in
            let nanoseconds = Self.nanoseconds(camera.frameInterval)
            let fps = nanoseconds > 0 ? Int((1e9 / Double(nanoseconds)).rounded()) : 0
            let rate = fps > 0 && Duration.seconds(1) / fps == camera.frameInterval
                ? "\"fps\":\(fps)" : "\"frame_interval\":\(Self.secondsText(nanoseconds))"
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
    /// - Throws: ``CamerasFileError`` when it is not a list of 2 to 8 cameras with distinct valid
    ///   names and a frame rate (`fps` from 1 to 1000) or interval (`frame_interval` from 0.001 to 1 s).
    public init(parsing text: String) throws(CamerasFileError) {
        let stored: Stored
        do {
            stored = try JSONDecoder().decode(Stored.self, from: Data(text.utf8))
        } catch {
            throw CamerasFileError("\(Self.fileName) is not {\"cameras\":[{\"name\":...,\"fps\":...},...]}")
        }
        guard Self.cameraCounts.contains(stored.cameras.count) else {
            throw CamerasFileError("\(Self.fileName) names \(stored.cameras.count) cameras; a rig has "
                + "\(Self.cameraCounts.lowerBound) to \(Self.cameraCounts.upperBound)")
        }
        var cameras: [Camera] = []
        for camera in stored.cameras {
            if let problem = RigPictureLayout.cameraNameProblem(camera.name) {
                throw CamerasFileError("\(Self.fileName): camera name \(JSONObjectText.string(camera.name)) \(problem)")
            }
            guard !cameras.contains(where: { $0.name == camera.name }) else {
                throw CamerasFileError("\(Self.fileName) names camera \(camera.name) twice")
            }
            let interval: Duration
            if let fps = camera.fps, Self.framesPerSecond.contains(fps) {
                interval = .seconds(1) / fps
            } else if let seconds = camera.frame_interval, seconds.isFinite, seconds >= 0.001, seconds <= 1 {
                interval = .nanoseconds(Int64((seconds * 1e9).rounded()))
            } else {
                throw CamerasFileError("\(Self.fileName): camera \(camera.name) needs fps from 1 to 1000 or frame_interval from 0.001 to 1 s")
            }
            cameras.append(Camera(name: camera.name, frameInterval: interval))
        }
        self.cameras = cameras
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// Nanoseconds as seconds, without trailing zeros (`0.0333667`).
    private static func secondsText(_ nanoseconds: Int64) -> String {
        var text = String(format: "%d.%09d", nanoseconds / 1_000_000_000, nanoseconds % 1_000_000_000)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}

/// A `cameras.json` that cannot be read, and why.
public struct CamerasFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    public let description: String

    init(_ description: String) { self.description = description }
}
