@testable import MarkerShutter
import Testing

/// `--auto`'s rule: never a view too similar to a picture taken; a view that raises the coverage
/// needs a difference of `minimumDistance`, any other view twice that.
@Suite struct AutoCapturePolicyTests {
    /// Two pictures far apart: across 0.2...0.8 and down 0.2...0.8, size 0.2...0.6, skew 0...0.5,
    /// and one in the middle.
    static func spread() -> AutoCapturePolicy {
        var policy = AutoCapturePolicy()
        policy.record(BoardView(x: 0.2, y: 0.2, size: 0.2, skew: 0))
        policy.record(BoardView(x: 0.8, y: 0.8, size: 0.6, skew: 0.5))
        policy.record(BoardView(x: 0.5, y: 0.5, size: 0.4, skew: 0.25))
        return policy
    }

    @Test func theFirstViewIsTaken() {
        #expect(AutoCapturePolicy().reason(toTake: BoardView(x: 0.5, y: 0.5, size: 0.3, skew: 0.1)) == .first)
    }

    @Test func aViewTooSimilarToAPictureIsSkippedWhateverItAdds() {
        let policy = Self.spread()
        // 0.15 from the middle picture, though it would widen nothing: skipped.
        #expect(policy.reason(toTake: BoardView(x: 0.55, y: 0.55, size: 0.45, skew: 0.25)) == nil)
        // At the right edge, 0.1 across from the second picture: it would widen X, but is too similar.
        let edge = BoardView(x: 0.9, y: 0.8, size: 0.6, skew: 0.5)
        #expect(policy.coverage.gain(from: edge) > 0.1)
        #expect(policy.reason(toTake: edge) == nil)
    }

    @Test func aViewThatRaisesTheCoverageIsPreferred() {
        let policy = Self.spread()
        // 0.35 from the middle picture and further across than any: X spans 0.65 instead of 0.6.
        let wider = BoardView(x: 0.85, y: 0.5, size: 0.4, skew: 0.25)
        #expect(abs(policy.coverage.gain(from: wider) - 0.05 / 0.7) < 1e-12)
        #expect(policy.reason(toTake: wider) == .raisesCoverage)
        // As far from the middle picture, but inside every range covered: not taken (the distance
        // rule alone would take it).
        let inside = BoardView(x: 0.6, y: 0.6, size: 0.45, skew: 0.35)
        #expect(policy.coverage.gain(from: inside) == 0)
        #expect(policy.captured.allSatisfy { $0.distance(to: inside) > policy.minimumDistance })
        #expect(policy.reason(toTake: inside) == nil)
    }

    @Test func aViewThatAddsNoCoverageIsTakenWhenItIsNewInItself() {
        let policy = Self.spread()
        // Inside every range, but over 0.4 from each picture (0.45 from the middle one).
        let corner = BoardView(x: 0.75, y: 0.3, size: 0.4, skew: 0.25)
        #expect(policy.coverage.gain(from: corner) == 0)
        #expect(policy.reason(toTake: corner) == .new)
    }

    @Test func picturesAskedForCountAsTaken() {
        var policy = AutoCapturePolicy()
        let view = BoardView(x: 0.5, y: 0.5, size: 0.3, skew: 0.1)
        policy.record(view)
        #expect(policy.captured == [view])
        #expect(policy.reason(toTake: BoardView(x: 0.55, y: 0.5, size: 0.3, skew: 0.1)) == nil)
        #expect(policy.coverage.statusText == "cover x 0% y 0% size 0% skew 0%")
    }

    @Test func gainsTellWhichMeasuresAViewWouldWiden() {
        let policy = Self.spread()
        let gains = policy.coverage.gains(from: BoardView(x: 0.9, y: 0.5, size: 0.7, skew: 0.2))
        #expect(abs(gains.x - 0.1 / 0.7) < 1e-12)
        #expect(abs(gains.y) < 1e-12)
        #expect(abs(gains.size) < 1e-12)  // 0.2...0.7 is over the 0.4 wanted; 0.2...0.6 already was
        #expect(abs(gains.skew) < 1e-12)
    }
}
