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
    typealias Outcome = IdentificationSet.Outcome

    static func measure(_ cases: [IdentificationSet.Case], seedOffset: UInt64) throws -> [Outcome] {
        let identifier = try PatternIdentifier()
        return try cases.map { try IdentificationSet.measure($0, seedOffset: seedOffset, with: identifier) }
    }

    static func report(_ outcomes: [Outcome], title: String) -> (identified: Double, wrong: Int, found: Double) {
        print("\n\(title)")
        for outcome in outcomes {
            print("  \(outcome.mark) \(outcome.truth): \(outcome.found) [board \(outcome.foundFrames)/\(outcome.truthFrames)]")
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
