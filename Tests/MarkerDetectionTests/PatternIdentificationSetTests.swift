import Foundation
import MarkerDetection
import MarkerDetectionTestSupport
import Pixels
import Testing

/// Target identification measured on ``IdentificationSet`` (rendered boards of every kind, five
/// frames a folder): every third of its folders here, 23 of 68, since a debug build renders and
/// identifies slowly; `identification-benchmark set` (Benchmarks/) measures all of them, and
/// BENCHMARKS.md has its figures. Prints the figures; fails on any folder identified wrongly, on
/// fewer than 95% of folders identified, or on boards found in fewer than 90% of the frames where
/// the true pattern finds them.
@Suite(.serialized) struct PatternIdentificationSetTests {
    struct Outcome {
        var folder: String
        var found: String
        var correct: Bool
        var sure: Bool
        var truthFrames: Int
        var foundFrames: Int
    }

    /// Identifies each case's frames and counts, frame by frame, where the true pattern's detector
    /// finds the board and where the identified pattern's does.
    static func measure(_ cases: [IdentificationSet.Case], seedOffset: UInt64) throws -> [Outcome] {
        let identifier = try PatternIdentifier()
        var outcomes: [Outcome] = []
        for original in cases {
            let item = IdentificationSet.Case(
                original.truth, sheet: original.sheet, scattered: original.scattered, seed: original.seed &+ seedOffset, roll: original.roll)
            let truth = try Pattern(parsing: item.truth)
            let frames = try IdentificationSet.frames(for: item)
            let identification = try identifier.identify(frames)
            let truthDetector = try MarkerDetector(pattern: truth)
            let foundDetector = try identification.pattern.map { try MarkerDetector(pattern: $0) }
            var truthFrames = 0, foundFrames = 0
            for frame in frames where !(try truthDetector.detect(frame).isEmpty) {
                truthFrames += 1
                if let foundDetector, !(try foundDetector.detect(frame).isEmpty) { foundFrames += 1 }
            }
            let correct = identification.pattern.map { IdentificationSet.equivalent($0, truth) } ?? false
            outcomes.append(Outcome(
                folder: item.truth, found: identification.description, correct: correct, sure: identification.isSure,
                truthFrames: truthFrames, foundFrames: foundFrames))
        }
        return outcomes
    }

    static func report(_ outcomes: [Outcome], title: String) -> (identified: Double, wrong: Int, found: Double) {
        print("\n\(title)")
        for outcome in outcomes {
            let mark = outcome.correct ? "ok   " : outcome.sure ? "WRONG" : "unsure"
            print("  \(mark) \(outcome.folder): \(outcome.found) [board \(outcome.foundFrames)/\(outcome.truthFrames)]")
        }
        let identified = Double(outcomes.filter(\.correct).count) / Double(outcomes.count)
        let wrong = outcomes.filter { $0.sure && !$0.correct }.count
        let truthFrames = outcomes.map(\.truthFrames).reduce(0, +)
        let found = Double(outcomes.map(\.foundFrames).reduce(0, +)) / Double(max(truthFrames, 1))
        print(String(format: "  %d folders: identified %.1f%%, wrongly %d, board found in %.1f%% of the %d frames where the true pattern finds it",
                     outcomes.count, 100 * identified, wrong, 100 * found, truthFrames))
        return (identified, wrong, found)
    }

    @Test func renderedBoardsAreIdentifiedAndNeverWrongly() throws {
        let cases = IdentificationSet.cases.enumerated().filter { $0.offset % 3 == 0 }.map(\.element)
        let outcomes = try Self.measure(cases, seedOffset: 0)
        let (identified, wrong, found) = Self.report(outcomes, title: "identification set, every third folder, seeds as listed")
        #expect(IdentificationSet.cases.count >= 40 && cases.count >= 20)
        #expect(wrong == 0)
        #expect(identified >= 0.95)
        #expect(found >= 0.90)
    }
}
