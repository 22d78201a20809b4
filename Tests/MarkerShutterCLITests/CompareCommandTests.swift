import Foundation
import Testing

/// `marker-shutter compare` end to end on calibrations of the shared chessboard photos.
@Suite struct CompareCommandTests {
    @Test(.enabled(if: FileManager.default.fileExists(atPath: CalibrateCommandTests.chessboard + "/left01.jpg"),
                   "the shared photos are not next to the package (../shared/images)"))
    func twoCalibrationsAreComparedAndDifferentModelsRefused() throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try CalibrateCommandTests.copyPhotos(1...9, into: scratch + "/photos")
        for (out, model) in [("pinhole", "pinhole"), ("again", "pinhole"), ("fisheye", "fisheye")] {
            let result = try MarkerShutterBinary.run(
                ["calibrate", "photos", "--pattern", "chessboard:9x6", "--model", model, "--out", out, "--no-cross-validate"], in: scratch)
            #expect(result.status == 0, "\(result.standardError)")
            #expect(!result.standardError.contains("cross-validation"))
        }
        let same = try MarkerShutterBinary.run(["compare", "pinhole", "again/calibration.json", "--output", "diff"], in: scratch)
        #expect(same.status == 0, "\(same.standardError)")
        let lines = same.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 5, "\(lines)")
        #expect(lines.first == "projection difference (rotation between them fitted), px: mean 0.00, 95th percentile 0.00, centre 0.00")
        #expect(lines.last?.hasPrefix("verdict: consistent (their uncertainties explain ") == true)
        #expect(same.standardError == "wrote diff/difference.png\n")
        #expect(FileManager.default.fileExists(atPath: scratch + "/diff/difference.png"))

        let refused = try MarkerShutterBinary.run(["compare", "pinhole", "fisheye"], in: scratch)
        #expect(refused.status == 1)
        #expect(refused.standardOutput.isEmpty)
        #expect(refused.standardError.contains(
            "the calibrations use different lens models (pinhole in pinhole/calibration.json and fisheye in fisheye/calibration.json)"))
        let missing = try MarkerShutterBinary.run(["compare", "pinhole", "photos"], in: scratch)
        #expect(missing.status == 1)
        #expect(missing.standardError.contains("cannot read photos/calibration.json"))
    }
}
