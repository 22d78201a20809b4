import EmulatedCameraHarness
import Foundation

/// `marker-shutter live` against an emulated camera (1280x720 unless told) at 30 fps that shows the benchmark
/// frames: the latency it prints, and its resident memory sampled once a second.
struct LiveBenchmark {
    let folder: String
    let markerShutter: String
    let scratch: String
    /// The camera's frame size, which the frames in `folder` have.
    var size = (width: 1280, height: 720)

    /// One run of `live` on a fresh emulated camera.
    func run(format: EmulatedCameraConfiguration.Format, paced: Bool, frames: Int, extraArguments: [String] = []) throws -> (ChildRun, String) {
        let harness = try EmulatedCameraHarness()
        let camera = try harness.addCamera(EmulatedCameraConfiguration(
            formats: [format], sizes: [size], rates: [30], paced: paced, framesFolder: folder))
        let pictures = scratch + "/pictures"
        try? FileManager.default.removeItem(atPath: pictures)
        // The script builds the plugin first when it is missing or older than its sources.
        let arguments = ["--", markerShutter, "live", "--device", camera.path,
                         "--pattern", OfflineBenchmark.pattern, "--size", "\(size.width)x\(size.height)", "--fps", "30",
                         "--stop-after", "\(frames)", "--out", pictures] + extraArguments
        let run = try ChildProcess.run(harness.script, arguments, scratch: scratch, sampleEvery: .seconds(1))
        guard run.status == 0 else { throw BenchmarkError("live exited with \(run.status):\n\(run.errors)") }
        let summary = run.errors.split(separator: "\n").filter { $0.hasPrefix("stopped") || $0.contains("latency") }
            .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "\n  ")
        return (run, summary)
    }

    /// Latency at 30 fps, paced as a real camera is.
    func latency(frames: Int, formats: [EmulatedCameraConfiguration.Format]) throws {
        print("pipeline-benchmark live: marker-shutter live on an emulated \(size.width)x\(size.height) camera at 30 fps, paced (pace = realtime), "
              + "showing the frames of \(folder) in name order; --stop-after \(frames)")
        print("load average before: \(loadAverages())")
        for format in formats {
            let (run, summary) = try run(format: format, paced: true, frames: frames)
            print("\(format.rawValue.uppercased()) -> BGR24, \(String(format: "%.1f", run.wallSeconds)) s, "
                  + String(format: "CPU %.1f ms/frame, peak RSS %.1f MiB:", run.cpuSeconds * 1000 / Double(frames), Double(run.peakKiB) / 1024))
            print("  " + summary)
        }
        print("load average after:  \(loadAverages())")
    }

    /// Resident memory over a long run, sampled once a second from /proc/PID/status.
    func memory(frames: Int, paced: Bool) throws {
        print("pipeline-benchmark memory: marker-shutter live on an emulated 1280x720 MJPEG camera, "
              + (paced ? "paced at 30 fps" : "unpaced (a frame whenever one is asked for)") + ", --stop-after \(frames); "
              + "VmRSS from /proc/PID/status once a second")
        print("load average before: \(loadAverages())")
        let (run, summary) = try run(format: .mjpeg, paced: paced, frames: frames)
        print("load average after:  \(loadAverages())")
        print(String(format: "%.1f s, CPU %.2f ms/frame", run.wallSeconds, run.cpuSeconds * 1000 / Double(frames)))
        print("  " + summary)
        let samples = run.residentSamples
        guard samples.count >= 4 else { throw BenchmarkError("only \(samples.count) samples of the resident set") }
        let step = max(1, samples.count / 12)
        print("RSS curve (s: KiB): " + stride(from: 0, to: samples.count, by: step)
            .map { String(format: "%.0f: %d", samples[$0].seconds, samples[$0].kib) }.joined(separator: ", "))
        // Warm-up: the first tenth of the run (at least 3 s), while pools and OpenCV's buffers fill.
        let warmUp = max(3, samples.last!.seconds / 10)
        let settled = samples.filter { $0.seconds >= warmUp }
        let first = settled.first ?? samples.first!, last = samples.last!
        let maximum = samples.map(\.kib).max()!, settledMaximum = settled.map(\.kib).max() ?? maximum
        print(String(format: "RSS at %.0f s (after warm-up) %d KiB, at the end (%.0f s) %d KiB, change %+d KiB; "
                     + "maximum after warm-up %d KiB, maximum overall %d KiB; %d samples; peak (wait4) %d KiB",
                     first.seconds, first.kib, last.seconds, last.kib, last.kib - first.kib, settledMaximum, maximum,
                     samples.count, run.peakKiB))
    }
}
