import EmulatedCameraHarness
import Foundation
import Testing

extension EmulatedCameraTests {
    /// The emulated camera showing a folder of JPEG photographs (the ChArUco board of the shared images).
    @Suite struct FolderSourceTests {
        private func folder(_ harness: EmulatedCameraHarness) throws -> String {
            let folder = try harness.makeFolder("frames")
            try FileManager.default.copyItem(atPath: SharedImages.charucoBoard, toPath: folder + "/a-board.jpg")
            try FileManager.default.copyItem(atPath: SharedImages.singleMarkers, toPath: folder + "/b-markers.jpg")
            return folder
        }

        /// The first `count` MJPEG frames of an unpaced camera showing the folder, as v4l2-ctl
        /// streams them to a file (it takes the camera's own format, so the buffers reach the file
        /// as the camera filled them), and the folder's two files.
        private func streamed(count: Int, configure: (inout EmulatedCameraConfiguration) -> Void = { _ in }) async throws
            -> (stream: Data, board: Data, markers: Data)
        {
            let harness = try await makeHarness()
            var configuration = EmulatedCameraConfiguration(formats: [.mjpeg], paced: false, framesFolder: try folder(harness))
            configure(&configuration)
            let camera = try harness.addCamera(configuration)
            let output = harness.directory + "/stream.mjpeg"
            let run = try await harness.run("/usr/bin/v4l2-ctl", [
                "-w", "-d", camera.path, "--stream-mmap=4", "--stream-count=\(count)", "--stream-to=\(output)",
            ])
            #expect(run.status == 0, "\(run.standardError)")
            return (try Data(contentsOf: URL(fileURLWithPath: output)),
                    try Data(contentsOf: URL(fileURLWithPath: SharedImages.charucoBoard)),
                    try Data(contentsOf: URL(fileURLWithPath: SharedImages.singleMarkers)))
        }

        @Test func mjpegPassesTheFilesThroughUnchangedInNameOrder() async throws {
            let (stream, board, markers) = try await streamed(count: 4)
            #expect(stream == board + markers + board + markers)
        }

        @Test func endHoldShowsTheLastFileForEver() async throws {
            let (stream, board, markers) = try await streamed(count: 5) { configuration in
                configuration.holdsLastFrame = true
                #expect(configuration.text(logPath: nil).contains("\nend = hold\n"))
            }
            #expect(stream == board + markers + markers + markers + markers)
        }

        @Test func yuyvMadeFromTheFilesLooksLikeTheJPEG() async throws {
            let harness = try await makeHarness()
            let frames = try folder(harness)
            let mjpeg = try harness.addCamera(EmulatedCameraConfiguration(formats: [.mjpeg], paced: false, framesFolder: frames), named: "video0")
            let yuyv = try harness.addCamera(EmulatedCameraConfiguration(formats: [.yuyv], paced: false, framesFolder: frames), named: "video1")
            let fromMJPEG = try harness.makeFolder("from-mjpeg"), fromYUYV = try harness.makeFolder("from-yuyv")
            for (camera, dump) in [(mjpeg, fromMJPEG), (yuyv, fromYUYV)] {
                let run = try await harness.streamEveryFrame(camera, ["--frames", "2", "--dump", dump, "--dump-count", "2"])
                #expect(run.result.status == 0, "\(run.result.standardError)")
                #expect(run.sequences == [0, 1])
            }
            for sequence in [0, 1] {
                // Both are the same photograph as BGR24: once decoded by libv4lconvert from the JPEG, once
                // converted by libv4lconvert from YUYV 4:2:2 made of the decoded JPEG. Measured here: mean
                // 0.67 and 0.23, largest 7 and 13 (chroma halved at colour edges).
                let difference = ImageDifference(
                    try harness.dumpedFrame(sequence, in: fromMJPEG), try harness.dumpedFrame(sequence, in: fromYUYV))
                #expect(difference.mean < 1.5, "frame \(sequence): mean difference \(difference.mean)")
                #expect(difference.maximum <= 24, "frame \(sequence): largest difference \(difference.maximum)")
            }
            // And the two frames are different photographs (mean difference 65 here).
            let between = ImageDifference(try harness.dumpedFrame(0, in: fromYUYV), try harness.dumpedFrame(1, in: fromYUYV))
            #expect(between.mean > 20)
        }
    }
}
