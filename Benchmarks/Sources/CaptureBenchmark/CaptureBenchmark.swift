// capture-benchmark: frames per second and CPU time per frame at 1280x720, from a YUYV and from an
// MJPEG emulated camera that makes frames as fast as they are asked for, through libv4l2,
// libv4lconvert and FrameCapture. Run from Benchmarks/ (it builds the emulated camera plugin, with
// Scripts/build-emulated-camera, when the plugin is missing or older than its sources):
//
//   swift run -c release capture-benchmark
//
// It re-runs itself under Scripts/with-emulated-camera (a private mount namespace), so it needs
// root or unprivileged user namespaces. The CPU time is the whole process's (getrusage): the
// emulated camera runs inside it, so its copy of each frame into the device buffer is included.

import EmulatedCameraHarness
import Foundation
import FrameCapture
import Pixels

@main
struct CaptureBenchmark {
    static let frameCount = 300
    static let warmUp = 30

    static func main() async throws {
        let arguments = CommandLine.arguments
        if arguments.count == 4, arguments[1] == "--inside" {
            try await measure(name: arguments[2], device: arguments[3])
            return
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().path
        let harness = try EmulatedCameraHarness()
        do {
            try await harness.buildPlugin()
        } catch {
            print("cannot build the emulated camera plugin: \(error)")
            exit(1)
        }
        if let reason = await harness.unavailableReason() {
            print("cannot run the emulated camera here: \(reason)")
            exit(1)
        }
        print("capture-benchmark: \(frameCount) frames at 1280x720 after \(warmUp) warm-up frames, emulated camera unpaced")
        print(String(repeating: "-", count: 100))
        let photo = try harness.makePhotoFolder(root: root)
        let cameras: [(String, EmulatedCameraConfiguration)] = [
            ("YUYV pattern", EmulatedCameraConfiguration(formats: [.yuyv], sizes: [(1280, 720)], rates: [30], paced: false)),
            ("MJPEG pattern", EmulatedCameraConfiguration(formats: [.mjpeg], sizes: [(1280, 720)], rates: [30], paced: false)),
            ("MJPEG photo", EmulatedCameraConfiguration(
                formats: [.mjpeg], sizes: [(1280, 720)], rates: [30], paced: false, framesFolder: photo)),
        ]
        for (index, (name, configuration)) in cameras.enumerated() {
            let camera = try harness.addCamera(configuration, named: "video\(index)")
            let result = try await harness.run(CommandLine.arguments[0], ["--inside", name, camera.path], timeout: .seconds(300))
            print(result.standardOutput, terminator: "")
            if result.status != 0 { print(result.standardError) }
        }
        print(String(format: "memcpy of one 1280x720 BGR24 frame (2.76 MB), for scale: %.3f ms", memcpyMilliseconds()))
        print("pixel copies from device to detector: 1 conversion by libv4lconvert (device buffer -> libv4l2's "
              + "conversion buffer) + 1 memcpy (-> pooled frame memory, so the driver buffer can be re-queued at once) "
              + "+ 0 (the detector reads the pooled memory in place)")
    }

    static func memcpyMilliseconds() -> Double {
        let count = 1280 * 720 * 3
        let source = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 64)
        let target = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 64)
        defer { source.deallocate(); target.deallocate() }
        source.initializeMemory(as: UInt8.self, repeating: 7, count: count)
        var check = 0
        let start = ContinuousClock.now
        for index in 0..<frameCount {
            // A changing byte and a read of the result keep the copies from being optimised away.
            source.storeBytes(of: UInt8(truncatingIfNeeded: index), toByteOffset: (index * 7919) % count, as: UInt8.self)
            target.copyMemory(from: source, byteCount: count)
            check &+= Int(target.load(fromByteOffset: (index * 7919) % count, as: UInt8.self))
        }
        let elapsed = ContinuousClock.now - start
        if check == -1 { print(check) }
        return (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18) * 1000 / Double(frameCount)
    }

    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    static func measure(name: String, device: String) async throws {
        let camera = try Camera(
            path: device, settings: CaptureSettings(width: 1280, height: 720, framesPerSecond: nil, queueLimit: 8))
        var count = 0
        var startWall = ContinuousClock.now, startCPU = 0.0, endWall = startWall, endCPU = 0.0
        var addresses = Set<UInt>()
        var startStatistics = CaptureStatistics()
        for try await frame in camera.frames() {
            count += 1
            if count == warmUp {
                startWall = .now
                startCPU = cpuSeconds()
                startStatistics = camera.statistics
            } else if count > warmUp {
                addresses.insert(frame.pixels.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) })
                if count == warmUp + frameCount {
                    endWall = .now
                    endCPU = cpuSeconds()
                    camera.stop()
                }
            }
        }
        let statistics = camera.statistics
        let wall = endWall - startWall
        let seconds = Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18
        let captured = statistics.delivered - startStatistics.delivered
        print(String(
            format: "%@ -> BGR24: %4.0f frames/s, CPU %5.2f ms/frame; %d captured, %d dropped, "
                + "%d distinct frame buffers, teardown complete: %@",
            name.padding(toLength: 13, withPad: " ", startingAt: 0), Double(frameCount) / seconds,
            (endCPU - startCPU) / Double(captured) * 1000, captured, statistics.dropped - startStatistics.dropped,
            addresses.count, camera.teardownReport?.isComplete == true ? "yes" : "no"))
    }
}

extension EmulatedCameraHarness {
    /// A folder holding the shared ChArUco photograph (640x480; the camera scales it to 1280x720).
    func makePhotoFolder(root: String) throws -> String {
        let folder = directory + "/photo"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: root + "/../shared/images/charuco/board.jpg", toPath: folder + "/board.jpg")
        return folder
    }
}
