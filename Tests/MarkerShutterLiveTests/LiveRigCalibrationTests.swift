import EmulatedCameraHarness
import Foundation
import MarkerDetection
import Testing

extension LiveTests {
    /// `live --camera ... --auto --calibrate`: two emulated cameras showing OpenCV's stereo sample
    /// (`Samples/stereo-pair`), each pair held for half a second, as a stereo rig would see a board
    /// moved and held still; the rig is solved in the background as sets are saved, and its files
    /// written at the end.
    @Suite struct LiveRigCalibrationTests {
        static let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path + "/Samples/stereo-pair"
        static let sets = ["01", "02", "03", "04", "05", "06", "07", "08", "09", "11", "12", "13", "14"]
        /// Frames each pair is shown for: half a second at 30 fps.
        static let repeats = 15

        /// A 640x480 MJPEG camera at 30 fps showing `camera`'s pictures of the sample in order.
        static func addCamera(_ harness: EmulatedCameraHarness, _ camera: String) throws -> EmulatedCamera {
            let frames = harness.directory + "/" + camera + "-frames"
            try FileManager.default.createDirectory(atPath: frames, withIntermediateDirectories: true)
            var index = 0
            for set in sets {
                // The sample is grayscale JPEG; the camera sends color MJPEG.
                let picture = try ImageFile.read("\(sample)/\(camera)/\(set).jpg", channels: .bgr)
                let bytes = Data(try ImageFile.encode(picture, as: .jpeg(quality: 95)))
                for _ in 0..<repeats {
                    try bytes.write(to: URL(fileURLWithPath: frames + String(format: "/%04d.jpg", index)))
                    index += 1
                }
            }
            let configuration = EmulatedCameraConfiguration(formats: [.mjpeg], sizes: [(640, 480)], rates: [30], framesFolder: frames)
            return try harness.addCamera(configuration, named: camera)
        }

        @Test func theRigIsSolvedAsSetsComeAndWrittenAtTheEnd() async throws {
            let harness = try await makeLiveHarness()
            let left = try Self.addCamera(harness, "left")
            let right = try Self.addCamera(harness, "right")
            let out = harness.directory + "/sets", calibration = harness.directory + "/rig"
            let process = try harness.start(harness.markerShutter, [
                "live", "--pattern", "chessboard:9x6", "--size", "640x480", "--fps", "30",
                "--camera", "left=\(left.path)", "--camera", "right=\(right.path)", "--auto", "--calibrate",
                "--calibration-out", calibration, "--out", out, "--stop-after", String(Self.sets.count * Self.repeats),
            ])
            process.closeInput()
            let result = try await process.wait(timeout: .seconds(600))
            #expect(result.status == 0, "\(result.standardError)")
            let lines = result.standardError.split(separator: "\n").map(String.init)
            let rig = try #require(lines.first { $0.hasPrefix("rig: 2 cameras, ") }, "\(result.standardError)")
            let used = try #require(Int(rig.dropFirst("rig: 2 cameras, ".count).prefix { $0.isNumber }))
            let saved = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasSuffix(".json") }.count
            #expect(saved >= 3 && used == saved, "\(rig); \(saved) sets saved")
            // OpenCV's stereoCalibrate on all 13 pairs of the sample puts the right camera 3.3265
            // squares from the left one (3.3268 from the sample's pictures, 0.08317 m at 25 mm squares in guide.md); any 3 of the pairs give it within 1%.
            let placed = try #require(lines.first { $0.hasPrefix("  right from left: baseline ") }, "\(result.standardError)")
            let baseline = try #require(Double(placed.dropFirst("  right from left: baseline ".count).prefix { $0 != " " }))
            #expect(abs(baseline - 3.3265) < 0.01 * 3.3265, "\(placed)")
            // The background solves said what they found as they ended.
            #expect(lines.contains { $0.hasPrefix("rig calibration: ") && $0.contains(" sets, RMS ") }, "\(result.standardError)")
            for line in lines where line.hasPrefix("rig calibration: ") { print(line) }
            for file in ["rig.yaml", "rig.json", "camera_info/left.yaml", "mrcal/right.cameramodel", "left-alone/calibration.yaml",
                         "right-alone/calibration.yaml"] {
                #expect(FileManager.default.fileExists(atPath: calibration + "/" + file), "\(file)")
                #expect(result.standardOutput.contains(calibration + "/" + file + "\n"), "\(file)")
            }
            // Nothing of the calibration lands among the sets.
            #expect(try FileManager.default.contentsOfDirectory(atPath: out).allSatisfy { $0 == "left" || $0 == "right" || $0.hasSuffix(".json") })
        }
    }
}
