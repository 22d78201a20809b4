import Foundation
import MarkerDetectionTestSupport

/// What happens in the sample session, frame by frame, and when each frame is taken.
///
/// A ChArUco board is held sideways (landscape) in front of a fixed camera and sways: it drifts,
/// turns, tilts up to about 40 degrees and comes nearer and goes away again. Three scripted events
/// break detection: a hand, a swing and a loss of about a second.
///
/// | frames  | event                                                         |
/// | ------- | ------------------------------------------------------------- |
/// | 30–32   | a hand crosses in front of the board                          |
/// | 55–56   | the board is jerked and swung back: blurred along its motion  |
/// | 72–73   | the board drops out of view (blurred on its way down)         |
/// | 74–99   | nothing but the room                                          |
/// | 100–101 | the board comes back up (blurred on its way)                  |
///
/// Every other frame shows the whole board, sharp. The scene is a function of time; a frame sees
/// it through an exposure of ``exposure`` around the frame's timestamp. Each scripted movement
/// starts and ends in a gap between two exposures, so which frames it touches is fixed by design,
/// whatever the timestamps' jitter.
struct SessionScript: Sendable {
    /// Something scripted that keeps the board from being detected.
    enum Event: String, Sendable, CaseIterable {
        case handCrossing = "hand crossing"
        case swing = "swing blur"
        case boardLeaving = "board leaving"
        case away = "board away"
        case boardReturning = "board returning"
    }

    /// The camera's nominal rate: what a camera set to 30 frames per second delivers (the NTSC
    /// rate, 29.97). Nine frame intervals then last 300.3 ms, a little more than the shutter's
    /// 0.3 s hold even after jitter, so the hold runs out before the tenth frame after a loss.
    static let framesPerSecond = 30_000.0 / 1_001
    /// How many frames the session has.
    static let frameCount = 120
    /// How long each frame's exposure lasts, in seconds.
    static let exposure = 0.012
    /// The most a timestamp strays from its nominal time, in seconds.
    static let maximumJitter = 0.0001
    /// The camera's sequence number of the first frame.
    static let firstSequence: UInt64 = 5_210
    /// The seed of every random choice: timestamps' jitter, textures and noise.
    static let seed: UInt64 = 0x0C4A_5C05_E551_0A
    /// The frame size.
    static let width = 640, height = 480
    /// The camera's focal length in pixels (a field of view of about 56 degrees across).
    static let focal = 600.0

    /// The scripted events and their frames.
    static let events: [(event: Event, frames: ClosedRange<Int>)] = [
        (.handCrossing, 30...32),
        (.swing, 55...56),
        (.boardLeaving, 72...73),
        (.away, 74...99),
        (.boardReturning, 100...101),
    ]

    /// The event frame `index` shows, if any.
    static func event(atFrame index: Int) -> Event? {
        events.first { $0.frames.contains(index) }?.event
    }

    /// Whether the script means frame `index` to show the whole board, sharp and unobstructed.
    static func showsBoard(atFrame index: Int) -> Bool { event(atFrame: index) == nil }

    /// The frames' timestamps in seconds from the first frame, rounded to microseconds as the
    /// manifest writes them: `1 / framesPerSecond` apart, each off by up to ``maximumJitter``.
    static func timestamps() -> [Double] {
        var generator = SplitMix64(seed: seed)
        let jitter = (0..<frameCount).map { _ in (generator.nextUniform() * 2 - 1) * maximumJitter }
        return (0..<frameCount).map { index in
            ((nominalTime(index) + jitter[index] - jitter[0]) * 1e6).rounded() / 1e6
        }
    }

    /// Where the board is at `t` seconds, or `nil` while it is out of view.
    static func boardPose(at t: Double) -> BoardPose? {
        var pose = swayingPose(at: t)

        // Jerked up and to the left and swung back, fast while frames 55 and 56 are exposed.
        let swing = bump(t, over: between(54, and: 57))
        pose.centreX -= 110 * swing
        pose.centreY -= 35 * swing
        pose.roll += 14 * swing

        // Pulled down out of the frame after frame 71, faster and faster; brought back up before
        // frame 102, slowing to a stop.
        let away = speedingUp(t, over: between(71, and: 74)) - slowingDown(t, over: between(99, and: 102))
        if away >= 1 { return nil }
        pose.centreY += 560 * away
        return pose
    }

    /// The board's steady sway, before the scripted events move it: a few slow oscillations of
    /// different periods, so that position, tilt and distance keep changing.
    static func swayingPose(at t: Double) -> BoardPose {
        let turn = 2 * Double.pi * t
        return BoardPose(
            centreX: 320 + 55 * sin(turn / 2.6), centreY: 236 + 28 * sin(turn / 1.9 + 0.7),
            distance: 2.15 + 0.3 * sin(turn / 3.3 + 0.4),
            tiltX: 20 * sin(turn / 1.6 + 1.1), tiltY: 36 * sin(turn / 2.2 + 0.3),
            roll: 90 + 10 * sin(turn / 2.8))
    }

    /// Where the hand is at `t` seconds, or `nil` while it is out of view.
    ///
    /// It comes in from the lower right between frames 29 and 30, drifts to the left across the
    /// board during frames 30 to 32, and is gone to the lower left before frame 33.
    static func handPose(at t: Double) -> HandPose? {
        let coming = smoothStep(t, over: between(29, and: 30))
        let going = smoothStep(t, over: between(32, and: 33))
        guard coming > 0, going < 1 else { return nil }
        let across = fraction(t, of: nominalTime(30)...nominalTime(32))
        let board = swayingPose(at: nominalTime(31))
        let over = (x: board.centreX + 50 - 90 * across, y: board.centreY + 70)
        let from = (x: 800.0, y: 820.0), to = (x: -200.0, y: 840.0)
        return HandPose(
            centreX: from.x + (over.x - from.x) * coming + (to.x - over.x) * going,
            centreY: from.y + (over.y - from.y) * coming + (to.y - over.y) * going,
            angle: -0.30 + 0.12 * across, scale: 1.3)
    }

    /// Frame `index`'s time without jitter.
    static func nominalTime(_ index: Int) -> Double { Double(index) / framesPerSecond }

    /// The time after frame `earlier`'s exposure and before frame `later`'s, with a margin for
    /// jitter on both sides.
    static func between(_ earlier: Int, and later: Int) -> ClosedRange<Double> {
        let margin = 2 * maximumJitter + 0.001
        return (nominalTime(earlier) + exposure / 2 + margin)...(nominalTime(later) - exposure / 2 - margin)
    }

    /// 0 before `span`, 1 after it, and a smooth ramp (zero speed at both ends) within it.
    static func smoothStep(_ t: Double, over span: ClosedRange<Double>) -> Double {
        let u = fraction(t, of: span)
        return u * u * (3 - 2 * u)
    }

    /// 0 before `span`, 1 after it, starting from rest and moving ever faster within it.
    static func speedingUp(_ t: Double, over span: ClosedRange<Double>) -> Double {
        let u = fraction(t, of: span)
        return u * u
    }

    /// 0 before `span`, 1 after it, moving fast at first and coming to rest at its end.
    static func slowingDown(_ t: Double, over span: ClosedRange<Double>) -> Double {
        let u = 1 - fraction(t, of: span)
        return 1 - u * u
    }

    /// How far `t` is through `span`, from 0 to 1.
    static func fraction(_ t: Double, of span: ClosedRange<Double>) -> Double {
        min(max((t - span.lowerBound) / (span.upperBound - span.lowerBound), 0), 1)
    }

    /// 0 outside `span`, rising to 1 in its middle and falling back: a movement there and back.
    static func bump(_ t: Double, over span: ClosedRange<Double>) -> Double {
        sin(Double.pi * fraction(t, of: span))
    }
}
