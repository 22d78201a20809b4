import EmulatedCameraHarness
import Foundation
import Testing

extension EmulatedCameraTests {
    /// `CaptureSettings.cameraFormat`: the camera streams in the format chosen for it (the emulated
    /// camera's log names the format `VIDIOC_S_FMT` set), and the frames are converted here by
    /// libv4lconvert, pixel for pixel as libv4l2 converts them when it chooses.
    @Suite struct CameraFormatTests {
        /// The format the camera was set to, from its log (`s_fmt format=MJPG size=640x480`).
        static func formatsSet(_ camera: EmulatedCamera) -> [String] {
            camera.log().filter { $0.hasPrefix("s_fmt ") }.compactMap { line in
                line.split(separator: " ").first { $0.hasPrefix("format=") }.map { String($0.dropFirst("format=".count)) }
            }
        }

        /// A camera sending YUYV and MJPEG: left to itself libv4l2 converts from YUYV (cheaper);
        /// asked for MJPG, the camera sends MJPEG and the frames are its JPEG decoded.
        @Test func mjpegChosenOverTheYUYVLibv4lWouldTake() async throws {
            let harness = try await makeHarness()
            let camera = try harness.addCamera(EmulatedCameraConfiguration(formats: [.yuyv, .mjpeg], quality: 95))
            let dump = try harness.makeFolder("dump")
            let run = try await harness.stream(camera, ["--size", "640x480", "--camera-format", "MJPG", "--frames", "3",
                                                        "--dump", dump, "--dump-count", "3"])
            #expect(run.result.status == 0, "\(run.result.standardError)")
            #expect(run.opened.string("camera_format") == "MJPG")
            #expect(run.opened.string("pixel_format") == "bgr24" && run.opened.int("row_stride") == 1920)
            #expect(Self.formatsSet(camera).last == "MJPG", "\(camera.log())")
            #expect(run.sequences.count == 3)
            for sequence in run.sequences {
                let frame = try harness.dumpedFrame(sequence, in: dump)
                // As libv4l2's own MJPEG conversion (ConversionTests): mean 0.47, largest 3 at quality 95.
                let difference = ImageDifference(frame, PatternReference.bgrOfMJPEGPattern(width: 640, height: 480, sequence: sequence))
                #expect(difference.mean < 1.0, "frame \(sequence): mean difference \(difference.mean)")
                #expect(difference.maximum <= 8, "frame \(sequence): largest difference \(difference.maximum)")
            }
            run.expectCleanTeardown()

            // Without a choice, libv4l2 takes YUYV from the same camera.
            let chosen = try harness.addCamera(EmulatedCameraConfiguration(formats: [.yuyv, .mjpeg], quality: 95), named: "video1")
            let defaultRun = try await harness.stream(chosen, ["--size", "640x480", "--frames", "1"])
            #expect(defaultRun.result.status == 0, "\(defaultRun.result.standardError)")
            #expect(defaultRun.opened.string("camera_format") == "")
            #expect(Self.formatsSet(chosen).last == "YUYV", "\(chosen.log())")
        }

        /// YUYV chosen from a camera that starts in MJPEG: the frames are exactly libv4lconvert's
        /// YUYV to BGR24, byte for byte.
        @Test func yuyvChosenConvertsExactly() async throws {
            let harness = try await makeHarness()
            let camera = try harness.addCamera(EmulatedCameraConfiguration(formats: [.mjpeg, .yuyv], paced: false))
            let dump = try harness.makeFolder("dump")
            let run = try await harness.streamEveryFrame(camera, ["--size", "640x480", "--camera-format", "YUYV", "--frames", "3",
                                                                  "--dump", dump, "--dump-count", "3"])
            #expect(run.result.status == 0, "\(run.result.standardError)")
            #expect(Self.formatsSet(camera).last == "YUYV", "\(camera.log())")
            #expect(run.sequences == [0, 1, 2])
            for sequence in run.sequences {
                let frame = try harness.dumpedFrame(sequence, in: dump)
                let difference = ImageDifference(frame, PatternReference.bgrFromYUYV(width: 640, height: 480, sequence: sequence))
                #expect(difference.mismatches == 0, "frame \(sequence): \(difference.mismatches) bytes differ, up to \(difference.maximum)")
            }
        }

        /// Gray frames from a chosen YUYV are its luma plane exactly, rows packed.
        @Test func grayFromAChosenFormatIsItsLumaPlane() async throws {
            let harness = try await makeHarness()
            let camera = try harness.addCamera(EmulatedCameraConfiguration(formats: [.mjpeg, .yuyv]))
            let dump = try harness.makeFolder("dump")
            let run = try await harness.stream(camera, ["--size", "1280x720", "--format", "gray8", "--camera-format", "YUYV",
                                                        "--frames", "2", "--dump", dump, "--dump-count", "2"])
            #expect(run.result.status == 0, "\(run.result.standardError)")
            #expect(run.opened.int("row_stride") == 1280)
            #expect(Self.formatsSet(camera).last == "YUYV", "\(camera.log())")
            for sequence in run.sequences {
                let frame = try harness.dumpedFrame(sequence, in: dump)
                #expect(frame == PatternReference.luma(width: 1280, height: 720, sequence: sequence), "frame \(sequence)")
            }
        }

        /// A format the camera does not send is refused at open, naming what it sends; the camera
        /// is closed and never streamed.
        @Test func aFormatTheCameraDoesNotSendIsRefused() async throws {
            let harness = try await makeHarness()
            let camera = try harness.addCamera(EmulatedCameraConfiguration(formats: [.yuyv, .mjpeg]))
            let run = try await harness.stream(camera, ["--size", "640x480", "--camera-format", "H264", "--frames", "1"])
            #expect(run.result.status != 0)
            let message = run.error?.string("message") ?? run.result.standardError
            #expect(message.contains("asked for H264, which the camera does not send (it sends YUYV, MJPG)"), "\(run.result.standardError)")
            #expect(!camera.log().contains { $0.hasPrefix("streamon") }, "\(camera.log())")
        }
    }
}
