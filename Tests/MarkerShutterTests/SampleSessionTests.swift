import Foundation
import MarkerDetection
@testable import MarkerShutter
import Testing

/// The bundled sample session, `Samples/charuco-session`, replayed as `marker-shutter process`
/// replays a recording: each frame detected, judged by the pattern's default validity rule, and fed
/// to the shutter with its timestamp from the manifest.
///
/// The expected values are the session's script (see `Samples/README.md`): the board is in full,
/// sharp view except while a hand crosses it (frames 30–32), while it is swung fast enough to blur
/// (55–56) and for about a second while it is out of the frame (72–101).
@Suite struct SampleSessionTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Samples/charuco-session").path

    /// What replaying the session gives, worked out once for all the tests here.
    struct Replay: Sendable {
        let frames: [FrameFolder.Frame]
        let valid: [Bool]
        let states: [ShutterState<Int>]
        let stretches: [EnabledStretch]

        init() throws {
            let folder = try FrameFolder(path: SampleSessionTests.folder)
            let pattern = try Pattern(parsing: "charuco:5x7:DICT_6X6_250")
            let detector = try MarkerDetector(pattern: pattern)
            let rule = ValidityRule(defaultsFor: pattern)
            var timeline = ShutterTimeline<Int>(hold: .milliseconds(300))
            var valid: [Bool] = [], states: [ShutterState<Int>] = []
            for frame in folder.frames {
                let isValid = rule.accepts(try detector.detect(try ImageFile.read(frame.path)))
                valid.append(isValid)
                states.append(timeline.observe(index: frame.index, snapshot: frame.index, isValid: isValid, at: frame.time).state)
            }
            frames = folder.frames
            self.valid = valid
            self.states = states
            stretches = timeline.stretches
        }
    }

    static let replay = Result { try Replay() }

    /// The replay, once it is known to have the session's 120 frames to index.
    static func wholeReplay() throws -> Replay {
        let replay = try Self.replay.get()
        try #require(replay.frames.count == 120)
        return replay
    }

    /// The runs of consecutive indices where `flags` is true.
    static func runs(of flags: [Bool]) -> [ClosedRange<Int>] {
        var runs: [ClosedRange<Int>] = []
        for index in flags.indices where flags[index] {
            if let last = runs.last, last.upperBound == index - 1 {
                runs[runs.count - 1] = last.lowerBound...index
            } else {
                runs.append(index...index)
            }
        }
        return runs
    }

    @Test func isAFourSecondRecordingAtThirtyFramesPerSecond() throws {
        let folder = try FrameFolder(path: Self.folder)
        #expect(folder.timing == .manifest)
        #expect(folder.frames.count == 120)
        #expect(folder.frames.map(\.file) == (0..<120).map { String(format: "frame_%06d.jpg", $0) })
        #expect(folder.frames.map(\.sequence) == (0..<120).map { UInt64(5_210 + $0) })
        #expect(folder.frames.first?.time == FrameTime(.zero))
        // 29.97 frames per second, each timestamp within 0.1 ms of its nominal time.
        for frame in folder.frames {
            let nominal = Double(frame.index) * 1_001 / 30_000
            #expect(abs(frame.time.seconds - nominal) <= 0.000_2, "\(frame.file) at \(frame.time)")
        }
        var bytes = 0
        for frame in folder.frames {
            let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: frame.path)))
            #expect(try ImageFile.header(of: data) == ImageFile.Header(format: .jpeg, width: 640, height: 480))
            bytes += data.count
        }
        #expect(bytes < 4_000_000, "the session should stay small enough to keep in the repository")
    }

    @Test func framesAreValidExactlyWhereTheScriptShowsTheWholeBoard() throws {
        let replay = try Self.wholeReplay()
        let scripted: [ClosedRange<Int>] = [0...29, 33...54, 57...71, 102...119]
        #expect(Self.runs(of: replay.valid) == scripted)
    }

    @Test func shutterIsEnabledInTwoStretches() throws {
        let replay = try Self.wholeReplay()
        #expect(replay.stretches.map { $0.firstFrame...$0.lastFrame } == [0...80, 102...119])
        // The first stretch ends when the hold runs out, 0.3 s after the board is lost at frame 72;
        // the second is still enabled when the recording ends.
        #expect(replay.stretches.map { $0.end != nil } == [true, false])
        #expect(replay.stretches.first?.end == replay.frames[72].time + .milliseconds(300))
        #expect(replay.stretches.last?.start == replay.frames[102].time)
    }

    @Test func briefDropoutsAreBridgedAndTheLongLossDisablesTheShutter() throws {
        let replay = try Self.wholeReplay()
        // Per frame: the phase, and the frame whose detection is held (for enabled frames, their own).
        let expected: [(frames: ClosedRange<Int>, phase: String, held: Int?)] = [
            (0...29, "enabled", nil),
            (30...32, "held", 29),  // the hand: 0.1 s, bridged
            (33...54, "enabled", nil),
            (55...56, "held", 54),  // the swing: 0.07 s, bridged
            (57...71, "enabled", nil),
            (72...80, "held", 71),  // the loss: held for 0.3 s ...
            (81...101, "disabled", nil),  // ... then disabled until the board is back
            (102...119, "enabled", nil),
        ]
        #expect(expected.map(\.frames.count).reduce(0, +) == replay.states.count)
        for part in expected {
            for index in part.frames {
                let state = replay.states[index]
                let held = part.phase == "enabled" ? index : part.held
                #expect(state.phase.description == part.phase, "frame \(index)")
                #expect(state.heldIndex == held, "frame \(index)")
            }
        }
        // Frame 81 is the first to come 0.3 s or more after the loss began: nine 29.97 fps frame
        // intervals are 300.3 ms.
        #expect(replay.frames[80].time < replay.frames[72].time + .milliseconds(300))
        #expect(replay.frames[81].time >= replay.frames[72].time + .milliseconds(300))
    }
}
