// pipeline-benchmark: the pipeline's figures, each run as a separate program on the same frames.
// Build the tool in release mode first, then run from Benchmarks/ (live and memory build the
// emulated camera plugin themselves, through Scripts/with-emulated-camera, when it is missing):
//
//   swift build -c release --package-path .. --product marker-shutter
//   swift run -c release pipeline-benchmark offline [--rounds 3] [--frames DIR]
//   swift run -c release pipeline-benchmark live [--count 900] [--size 1280x720] [--frames DIR]
//   swift run -c release pipeline-benchmark memory [--count 10000] [--paced] [--frames DIR]
//   swift run -c release pipeline-benchmark viewers [--count 900] [--viewers 2] [--rounds 1] [--frames DIR]
//
// offline: frames per second on a folder of 1280x720 JPEG frames, for a plain Python loop over
//   Debian's python3-opencv (Scripts/pipeline_baseline.py), `marker-shutter process` with its
//   default jobs, and `process --jobs 1`; checks that both process runs write the same rows.
// live: latency from frame to shutter state printed by `marker-shutter live` on an emulated camera
//   at 1280x720 (or --size) and 30 fps (MJPEG, then YUYV), paced like a real camera.
// memory: `live` for 10,000 frames with its resident set sampled once a second.
// viewers: `live` as in live (MJPEG) without --serve, serving with nobody watching, and with
//   viewers reading the page's image and event streams: latency and frames detected of each.
//
// Without --frames, the frames are made by pipeline-frames (300 of them, 150 above 1920x1080, since
// a YUYV camera keeps them all decoded) into a temporary folder, once per size. live and memory run under Scripts/with-emulated-camera (a private mount namespace).

import Foundation

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().path
let products = root + "/.build/release"
let markerShutter = products + "/marker-shutter"
let here = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().path

var arguments = Array(CommandLine.arguments.dropFirst())
@MainActor func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    defer { arguments.removeSubrange(index...index + 1) }
    return arguments[index + 1]
}
@MainActor func flag(_ name: String) -> Bool {
    guard let index = arguments.firstIndex(of: name) else { return false }
    arguments.remove(at: index)
    return true
}
let usage = "usage: pipeline-benchmark offline [--rounds N] | memory [--count N] [--paced] "
    + "| live [--count N] [--size WxH] | viewers [--count N] [--viewers N] [--rounds N]; each [--frames DIR]"
let command = arguments.first ?? ""
arguments = Array(arguments.dropFirst())
let framesOption = option("--frames")
let roundsOption = option("--rounds")
let rounds = Int(roundsOption ?? "3")
let count = option("--count").flatMap { Int($0) }
let paced = flag("--paced")
let viewers = Int(option("--viewers") ?? "2")
let sizeOption = option("--size")
let size = (sizeOption ?? "1280x720").split(separator: "x").compactMap { Int($0) }
guard ["offline", "live", "memory", "viewers"].contains(command), arguments.isEmpty, let rounds, rounds > 0,
      let viewers, viewers > 0, size.count == 2, size.allSatisfy({ $0 > 0 }), sizeOption == nil || command == "live" else {
    print(usage)
    exit(64)
}
guard FileManager.default.isExecutableFile(atPath: markerShutter) else {
    print("build the tool first: swift build -c release --package-path .. --product marker-shutter")
    exit(1)
}

/// The frame folder: --frames, or frames of `size` made once into a temporary folder (300 of them,
/// 150 above 1920x1080).
func frameFolder() throws -> String {
    if let framesOption { return framesOption }
    let standard = size == [1280, 720]
    let folder = NSTemporaryDirectory() + "marker-shutter-pipeline-frames" + (standard ? "" : "-\(size[0])x\(size[1])")
    let wanted = size[0] * size[1] > 1920 * 1080 ? 150 : 300
    let existing = (try? FileManager.default.contentsOfDirectory(atPath: folder))?.filter { $0.hasSuffix(".jpg") }.count ?? 0
    if existing < wanted {
        let run = try ChildProcess.run(here + "/pipeline-frames", [folder, "\(wanted)", "\(size[0])", "\(size[1])"],
                                       scratch: NSTemporaryDirectory())
        guard run.status == 0 else { throw BenchmarkError("pipeline-frames failed:\n\(run.errors)") }
        print(run.output, terminator: "")
    }
    return folder
}

do {
    let folder = try frameFolder()
    let scratch = NSTemporaryDirectory() + "marker-shutter-pipeline-\(getpid())"
    try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    print("machine: \(ProcessInfo.processInfo.activeProcessorCount) cores; marker-shutter at \(markerShutter)")
    switch command {
    case "offline":
        try OfflineBenchmark(folder: folder, markerShutter: markerShutter,
                             pythonScript: root + "/Benchmarks/Scripts/pipeline_baseline.py", rounds: rounds, scratch: scratch).run()
    case "live":
        var live = LiveBenchmark(folder: folder, markerShutter: markerShutter, scratch: scratch)
        live.size = (size[0], size[1])
        try live.latency(frames: count ?? 900, formats: [.mjpeg, .yuyv])
    case "viewers":
        try ViewerBenchmark(live: LiveBenchmark(folder: folder, markerShutter: markerShutter, scratch: scratch))
            .run(frames: count ?? 900, viewers: viewers, rounds: roundsOption == nil ? 1 : rounds)
    default:
        try LiveBenchmark(folder: folder, markerShutter: markerShutter, scratch: scratch)
            .memory(frames: count ?? 10_000, paced: paced)
    }
} catch {
    print("pipeline-benchmark: \(error)")
    exit(1)
}
