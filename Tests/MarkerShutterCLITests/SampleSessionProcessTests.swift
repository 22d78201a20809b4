import Foundation
import Testing

/// `marker-shutter process` on the bundled recording: the README's first command.
@Suite struct SampleSessionProcessTests {
    @Test func theSampleSessionReplaysToItsKnownTimeline() throws {
        let session = MarkerShutterBinary.packageRoot + "/Samples/charuco-session"
        let result = try MarkerShutterBinary.run(["process", session])
        #expect(result.status == 0)
        let rows = result.jsonLines
        #expect(rows.count == 120)
        let shown = rows.map { $0["shutter"] as? String ?? "?" }
        let held = rows.map { $0["held_index"] as? Int }

        // The scripted session (Samples/README.md): valid 0-29, 33-54, 57-71, 102-119.
        let valid = Set(Array(0...29) + Array(33...54) + Array(57...71) + Array(102...119))
        #expect(rows.enumerated().allSatisfy { index, row in (row["valid"] as? Bool) == valid.contains(index) })
        for index in 0..<120 {
            let expected: (String, Int?)
            switch index {
            case let i where valid.contains(i): expected = ("enabled", i)
            case 30...32: expected = ("held", 29)      // the hand: bridged
            case 55...56: expected = ("held", 54)      // the blurred swing: bridged
            case 72...80: expected = ("held", 71)      // the long loss, until the hold runs out
            default: expected = ("disabled", nil)     // 81...101
            }
            #expect(shown[index] == expected.0, "frame \(index)")
            #expect(held[index] == expected.1, "frame \(index)")
        }
        #expect(result.standardError.contains("timestamps from manifest.jsonl"))
        #expect(result.standardError.contains("valid frames: 85 of 120"))
        #expect(result.standardError.contains("in 2 stretches: 0-80, 102-119"))
        #expect(result.standardError.contains("errors: 0"))
    }
}
