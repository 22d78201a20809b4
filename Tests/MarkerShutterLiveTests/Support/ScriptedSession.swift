import Foundation
import MarkerDetection
import MarkerDetectionTestSupport
import MarkerShutter
import Pixels

/// A calibration session scripted frame by frame for the emulated camera: a ChArUco board in view,
/// dropouts where it is covered or gone at known frames, each frame a 640x480 JPEG drawn here.
///
/// The camera shows the folder in name order and starts again after the last file, so frame
/// `sequence` of the camera shows `shots[sequence % shots.count]`.
struct ScriptedSession: Sendable {
    /// What one frame shows.
    enum Shot: Sendable, Hashable {
        /// The board in pose `n` (poses differ in place and tilt, so each frame's pixels tell it apart).
        case board(pose: Int)
        /// The board in pose `n` with most of it covered, as by a hand.
        case covered(pose: Int)
        /// The scene without the board.
        case empty

        var isValid: Bool { if case .board = self { true } else { false } }
    }

    /// A run of frames: the board in view, or a dropout.
    enum Stretch: Sendable {
        case valid(Int)
        case dropout(Int)
    }

    static let patternText = "charuco:5x7:DICT_6X6_250"
    static var pattern: Pattern { get throws { try Pattern(parsing: patternText) } }
    static let framesPerSecond = 30
    static let frameInterval = 1 / Double(framesPerSecond)
    static let size = (width: 640, height: 480)

    /// Every frame in order.
    let shots: [Shot]

    /// Board frames cycle through the poses; dropouts alternate covered and empty frames.
    init(_ stretches: [Stretch]) {
        var shots: [Shot] = []
        for stretch in stretches {
            switch stretch {
            case .valid(let count):
                for _ in 0..<count { shots.append(.board(pose: shots.count % Self.poses.count)) }
            case .dropout(let count):
                for _ in 0..<count { shots.append(shots.count % 2 == 0 ? .covered(pose: shots.count % Self.poses.count) : .empty) }
            }
        }
        self.shots = shots
    }

    /// Whether each frame's detection is valid, as scripted.
    var validity: [Bool] { shots.map(\.isValid) }

    /// The name of frame `index`'s file in the camera's folder.
    static func fileName(_ index: Int) -> String { String(format: "frame_%04d.jpg", index) }

    /// Writes every frame into `folder` (which must exist).
    func writeFrames(to folder: String) throws {
        for (index, shot) in shots.enumerated() {
            try Data(Self.jpeg(of: shot)).write(to: URL(fileURLWithPath: folder + "/" + Self.fileName(index)))
        }
    }

    /// The JPEG bytes of a shot, as the camera sends them.
    static func jpeg(of shot: Shot) throws -> [UInt8] {
        guard let bytes = try rendered.get()[shot] else { throw ScriptError("no picture drawn for \(shot)") }
        return bytes
    }

    /// The shutter's phase changes for the scripted validity at 30 frames per second, from
    /// ``ShutterTimeline`` itself: what a live run over these frames should show.
    func expectedChanges(hold: Duration = .milliseconds(300), frames: Int? = nil) -> [PhaseChange] {
        var timeline = ShutterTimeline<Int>(hold: hold)
        var changes: [PhaseChange] = []
        for index in 0..<(frames ?? shots.count) {
            let time = FrameTime(.seconds(index) / Self.framesPerSecond)
            let phase = timeline.observe(index: index, snapshot: index, isValid: shots[index % shots.count].isValid, at: time)
                .state.phase.description
            if changes.last?.phase != phase { changes.append(PhaseChange(frame: index, phase: phase, seconds: time.seconds)) }
        }
        return changes
    }

    /// The shutter's phase changes over just these camera frames (`sequence`: which shot, `seconds`:
    /// its time), in order, from ``ShutterTimeline`` itself; each change is named by its position in
    /// `frames`. A live run that skipped frames detected some subset of the script: over the frames
    /// it printed a change at, the timeline must give exactly those changes.
    func changes(over frames: [(sequence: Int, seconds: Double)], hold: Duration = .milliseconds(300)) -> [PhaseChange] {
        var timeline = ShutterTimeline<Int>(hold: hold)
        var changes: [PhaseChange] = []
        for (position, frame) in frames.enumerated() {
            let time = FrameTime(.nanoseconds(Int64((frame.seconds * 1e9).rounded())))
            let phase = timeline.observe(index: position, snapshot: position, isValid: shots[frame.sequence % shots.count].isValid,
                                         at: time).state.phase.description
            if changes.last?.phase != phase { changes.append(PhaseChange(frame: position, phase: phase, seconds: frame.seconds)) }
        }
        return changes
    }

    /// What in `changes`, printed by a live run that may have skipped detecting frames while it
    /// was busy, no shutter could give for this script: enabled at an invalid frame, held or
    /// disabled at a valid one, disabled sooner than `hold` after its dropout began, or an order
    /// the shutter never takes. Which frames a busy machine skips is its own affair; these hold
    /// whatever it skipped.
    func inconsistencies(in changes: [PhaseChange], hold: Double = 0.3) -> [String] {
        let next: [String: Set<String>] = ["start": ["enabled"], "enabled": ["held"], "held": ["enabled", "disabled"],
                                           "disabled": ["enabled"]]
        var problems: [String] = []
        var previous = "start"
        for change in changes {
            let valid = shots[change.frame % shots.count].isValid
            if valid != (change.phase == "enabled") { problems.append("\(change) at a \(valid ? "valid" : "invalid") frame") }
            if next[previous]?.contains(change.phase) != true { problems.append("\(change) after \(previous)") }
            if change.phase == "disabled" {
                var first = change.frame
                while first > 0, !shots[(first - 1) % shots.count].isValid { first -= 1 }
                let into = Double(change.frame - first) * Self.frameInterval
                if into < hold - 0.001 { problems.append("\(change), \(into) s into its dropout") }
            }
            previous = change.phase
        }
        return problems
    }

    // MARK: - Drawing

    /// Board poses: (shift across, shift down in pixels, tilt about the vertical axis in degrees).
    static let poses: [(dx: Double, dy: Double, tilt: Double)] = [
        (-70, -10, -20), (-35, 10, -10), (0, 0, 0), (35, -10, 10), (70, 10, 20),
    ]

    /// Every distinct shot drawn once, encoded as JPEG (the folder repeats them).
    private static let rendered: Result<[Shot: [UInt8]], any Error> = Result {
        let board = try PrintableTarget.render(pattern, width: 500, height: 700)
        let background = try SyntheticImage.addNoise(
            PixelBuffer(width: size.width, height: size.height, format: .gray8) { for i in $0.indices { $0[i] = 128 } },
            sigma: 4, seed: 1)
        var shots: [Shot: [UInt8]] = [.empty: try encode(background)]
        for (pose, placement) in poses.enumerated() {
            let view = Homography.camera(
                sourceWidth: board.width, sourceHeight: board.height, targetWidth: size.width, targetHeight: size.height,
                tiltX: 0, tiltY: placement.tilt, distance: 2.6, focal: 700)
            let shifted = Homography([1, 0, placement.dx, 0, 1, placement.dy, 0, 0, 1]).composed(after: view)
            let warped = try SyntheticImage.warp(board, by: shifted, width: size.width, height: size.height, samples: 2)
            let image = try SyntheticImage.addNoise(SyntheticImage.blur(warped, sigma: 0.7), sigma: 4, seed: UInt64(pose + 2))
            shots[.board(pose: pose)] = try encode(image)
            // A hand-sized grey patch over all but the board's top rows hides most markers and corners.
            let corner = shifted.apply(x: 0, y: Double(board.height) * 0.2)
            shots[.covered(pose: pose)] = try encode(cover(image, fromRow: Int(corner.y), gray: 90))
        }
        return shots
    }

    private static func encode(_ gray: PixelBuffer) throws -> [UInt8] {
        try ImageFile.encode(SyntheticImage.convert(gray, to: .bgr24), as: .jpeg(quality: 90))
    }

    /// `image` with every row from `row` down painted `gray`.
    private static func cover(_ image: PixelBuffer, fromRow row: Int, gray: UInt8) throws -> PixelBuffer {
        try image.withUnsafeBytes { pixels in
            try PixelBuffer(width: image.width, height: image.height, format: .gray8) { target in
                for y in 0..<image.height {
                    for x in 0..<image.width {
                        target[y * image.width + x] = y >= row ? gray : pixels[y * image.rowStride + x]
                    }
                }
            }
        }
    }
}

/// A change of the shutter's phase: at which frame, to what, and when (seconds from frame 0).
struct PhaseChange: Sendable, Equatable, CustomStringConvertible {
    let frame: Int
    let phase: String
    let seconds: Double

    var description: String { String(format: "%@ at frame %d (%.3f s)", phase, frame, seconds) }
}

struct ScriptError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
