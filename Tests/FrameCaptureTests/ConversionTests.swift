import EmulatedCameraHarness
import Foundation
import Testing

extension EmulatedCameraTests {
    /// Frames through the real libv4l2 and libv4lconvert, checked pixel by pixel against the pattern
    /// the emulated camera sends.
    @Suite struct ConversionTests {
        @Test func yuyvBecomesBGR24ExactlyAsLibv4lconvertDefinesIt() async throws {
            let harness = try await makeHarness()
            let camera = try harness.addCamera(EmulatedCameraConfiguration(formats: [.yuyv], paced: false))
            let dump = try harness.makeFolder("dump")
            let run = try await harness.streamEveryFrame(camera, ["--size", "640x480", "--frames", "3", "--dump", dump, "--dump-count", "3"])
            #expect(run.result.status == 0, "\(run.result.standardError)")
            #expect(run.opened.string("pixel_format") == "bgr24")
            #expect(run.opened.int("row_stride") == 1920)
            #expect(run.sequences == [0, 1, 2])
            for sequence in run.sequences {
                let frame = try harness.dumpedFrame(sequence, in: dump)
                let expected = PatternReference.bgrFromYUYV(width: 640, height: 480, sequence: sequence)
                let difference = ImageDifference(frame, expected)
                #expect(difference.mismatches == 0, "frame \(sequence): \(difference.mismatches) bytes differ, up to \(difference.maximum)")
            }
        }

        @Test func yuyvBecomesGrayAsItsLumaPlaneAt720p() async throws {
            let harness = try await makeHarness()
            let camera = try harness.addCamera(EmulatedCameraConfiguration(formats: [.yuyv]))
            let dump = try harness.makeFolder("dump")
            let run = try await harness.stream(
                camera, ["--size", "1280x720", "--format", "gray8", "--frames", "2", "--dump", dump, "--dump-count", "2"])
            #expect(run.result.status == 0, "\(run.result.standardError)")
            #expect(run.opened.int("width") == 1280 && run.opened.int("height") == 720)
            #expect(run.opened.int("row_stride") == 1280)
            for sequence in run.sequences {
                let frame = try harness.dumpedFrame(sequence, in: dump)
                #expect(frame == PatternReference.luma(width: 1280, height: 720, sequence: sequence), "frame \(sequence)")
            }
        }

        @Test func mjpegBecomesBGR24WithinJPEGTolerance() async throws {
            let harness = try await makeHarness()
            let camera = try harness.addCamera(EmulatedCameraConfiguration(formats: [.mjpeg], quality: 95))
            let dump = try harness.makeFolder("dump")
            let run = try await harness.stream(camera, ["--size", "640x480", "--frames", "3", "--dump", dump, "--dump-count", "3"])
            #expect(run.result.status == 0, "\(run.result.standardError)")
            #expect(run.opened["device_formats"] as? [String] == ["MJPG"])
            for sequence in run.sequences {
                let frame = try harness.dumpedFrame(sequence, in: dump)
                // Measured here: mean 0.47, largest 3 at quality 95.
                let difference = ImageDifference(frame, PatternReference.bgrOfMJPEGPattern(width: 640, height: 480, sequence: sequence))
                #expect(difference.mean < 1.0, "frame \(sequence): mean difference \(difference.mean)")
                #expect(difference.maximum <= 8, "frame \(sequence): largest difference \(difference.maximum)")
            }
        }
    }
}
