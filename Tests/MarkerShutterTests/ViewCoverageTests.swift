import MarkerDetection
@testable import MarkerShutter
import Testing

/// How far the pictures taken spread over position, size and skew.
@Suite struct ViewCoverageTests {
    @Test func anEmptyCoverageIsZeroEverywhere() {
        let coverage = ViewCoverage()
        #expect(coverage.progress == ViewCoverage.Progress(x: 0, y: 0, size: 0, skew: 0))
        #expect(coverage.statusText == "cover x 0% y 0% size 0% skew 0%")
        #expect(!coverage.isComplete)
    }

    @Test func progressIsTheSpanOverTheGoalCappedAtOne() {
        var coverage = ViewCoverage()
        coverage.add(BoardView(x: 0.5, y: 0.5, size: 0.3, skew: 0))
        #expect(coverage.progress.total == 0)  // one view spans nothing
        coverage.add(BoardView(x: 0.15, y: 0.62, size: 0.4, skew: 0.1))
        coverage.add(BoardView(x: 0.9, y: 0.55, size: 0.5, skew: 0.05))
        let progress = coverage.progress
        #expect(progress.x == 1)                          // 0.75 across, over 0.7
        #expect(abs(progress.y - 0.12 / 0.7) < 1e-12)
        #expect(abs(progress.size - 0.2 / 0.4) < 1e-12)
        #expect(abs(progress.skew - 0.1 / 0.5) < 1e-12)
        #expect(coverage.statusText == "cover x 100% y 17% size 50% skew 20%")
        #expect(!coverage.isComplete)
    }

    @Test func aViewThatWidensARangeGainsAndOneInsideGainsNothing() {
        var coverage = ViewCoverage()
        coverage.add(BoardView(x: 0.3, y: 0.3, size: 0.3, skew: 0.1))
        coverage.add(BoardView(x: 0.6, y: 0.6, size: 0.5, skew: 0.3))
        #expect(coverage.gain(from: BoardView(x: 0.4, y: 0.4, size: 0.4, skew: 0.2)) == 0)
        let tilted = coverage.gain(from: BoardView(x: 0.4, y: 0.4, size: 0.4, skew: 0.6))
        #expect(abs(tilted - 0.3 / 0.5) < 1e-12)
        let corner = coverage.gain(from: BoardView(x: 0.95, y: 0.05, size: 0.4, skew: 0.2))
        #expect(abs(corner - ((0.65 - 0.3) / 0.7 + (0.55 - 0.3) / 0.7)) < 1e-12)
    }

    @Test func everyGoalReachedIsComplete() {
        var coverage = ViewCoverage(goals: .init(x: 0.5, y: 0.5, size: 0.2, skew: 0.2))
        coverage.add(BoardView(x: 0.2, y: 0.2, size: 0.2, skew: 0))
        coverage.add(BoardView(x: 0.8, y: 0.8, size: 0.45, skew: 0.3))
        #expect(coverage.isComplete)
        #expect(coverage.statusText == "cover x 100% y 100% size 100% skew 100%")
    }
}
