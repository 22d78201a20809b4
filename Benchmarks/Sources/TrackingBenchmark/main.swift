// How long each frame of a folder takes when it is searched as `process` searches it (first where
// the frame before showed the board, `MarkerDetector.detect(_:following:)`), against the frame
// searched alone (`detect(_:)`), and whether both find the same corners. See BENCHMARKS.md.
//
//   swift run -c release tracking-benchmark FOLDER PATTERN [ROUNDS]
//
// Frames are read in natural name order (img2 before img10) and followed in stretches as
// `process --jobs 1` follows them (FolderProcessor: stretches of min(30, max(1, frames / 8))
// frames, the tracker starting afresh with each). Times are the calling thread's CPU time
// (CLOCK_THREAD_CPUTIME_ID), so that other processes on this shared machine do not count; each is
// the median of ROUNDS runs, the two searches taking turns frame by frame. OpenCV runs on the
// calling thread (1 thread), as `process --opencv-threads 1` runs it.

import Foundation
import MarkerDetection
import Pixels

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("tracking-benchmark: \(message)\n".utf8))
    exit(1)
}

func loadAverage() -> String {
    let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?"
    return text.split(separator: " ").prefix(3).joined(separator: " ")
}

func threadMilliseconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return Double(now.tv_sec) * 1e3 + Double(now.tv_nsec) / 1e6
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// The largest distance between corners of the same id, or infinity when the ids differ.
func largestDifference(_ a: Detection, _ b: Detection) -> Double {
    let first = Dictionary(a.boardCorners.map { ($0.id, $0.point) }, uniquingKeysWith: { x, _ in x })
    let second = Dictionary(b.boardCorners.map { ($0.id, $0.point) }, uniquingKeysWith: { x, _ in x })
    guard Set(first.keys) == Set(second.keys) else { return .infinity }
    return first.map { id, point in point.distance(to: second[id]!) }.max() ?? 0
}

let arguments = CommandLine.arguments
guard arguments.count > 2 else { fail("usage: tracking-benchmark FOLDER PATTERN [ROUNDS]") }
let folder = arguments[1]
let rounds = arguments.count > 3 ? max(1, Int(arguments[3]) ?? 3) : 3
MarkerDetector.openCVThreadCount = 1
let detector: MarkerDetector
do { detector = try MarkerDetector(pattern: Pattern(parsing: arguments[2])) } catch { fail("\(arguments[2]): \(error)") }

let names: [String]
do {
    names = try FileManager.default.contentsOfDirectory(atPath: folder)
        .filter { [".jpg", ".jpeg", ".png"].contains(where: $0.lowercased().hasSuffix) }
        .sorted { $0.localizedStandardCompare($1) == .orderedAscending }
} catch {
    fail("cannot list \(folder): \(error)")
}
guard !names.isEmpty else { fail("no JPEG or PNG files in \(folder)") }
let frames: [PixelBuffer] = names.map { name in
    do { return try ImageFile.read(folder + "/" + name, channels: .gray) } catch { fail("\(name): \(error)") }
}
let stretch = min(30, max(1, frames.count / 8))

print("tracking-benchmark: \(frames.count) frames \(frames[0].width)x\(frames[0].height) from \(folder), \(arguments[2]), "
      + "stretches of \(stretch), \(rounds) rounds; load average at start: \(loadAverage())")
var aloneTimes = [[Double]](repeating: [], count: frames.count)
var trackedTimes = [[Double]](repeating: [], count: frames.count)
var alone = [Detection?](repeating: nil, count: frames.count)
var tracked = [Detection?](repeating: nil, count: frames.count)
for round in 0..<rounds {
    var tracker: RegionTracker?
    for index in frames.indices {
        if index % stretch == 0 { tracker = nil }
        let frame = frames[index]
        func searchAlone() {
            let start = threadMilliseconds()
            do { alone[index] = try detector.detect(frame) } catch { fail("\(names[index]): \(error)") }
            aloneTimes[index].append(threadMilliseconds() - start)
        }
        func searchTracked() {
            let start = threadMilliseconds()
            let detection: Detection
            do { detection = try detector.detect(frame, following: tracker) } catch { fail("\(names[index]): \(error)") }
            trackedTimes[index].append(threadMilliseconds() - start)
            var next = tracker ?? RegionTracker(margin: RegionTracker.videoMargin)
            next.follow(detection, of: detector.pattern)
            tracker = next
            tracked[index] = detection
        }
        if (round + index) % 2 == 0 { searchAlone(); searchTracked() } else { searchTracked(); searchAlone() }
    }
}

var differences: [String] = []
for index in frames.indices {
    let a = alone[index]!, t = tracked[index]!
    let difference = largestDifference(a, t)
    if difference > 0 { differences.append("\(names[index]): \(a.boardCorners.count) alone, \(t.boardCorners.count) tracked, largest difference \(difference) px") }
    print(names[index].padding(toLength: 16, withPad: " ", startingAt: 0)
          + String(format: "alone %8.1f ms  tracked %8.1f ms  corners %3d/%3d", median(aloneTimes[index]), median(trackedTimes[index]),
                   a.boardCorners.count, t.boardCorners.count))
}
let aloneMedians = aloneTimes.map(median), trackedMedians = trackedTimes.map(median)
for (label, values) in [("alone", aloneMedians), ("tracked", trackedMedians)] {
    let middle = median(values), worst = values.max()!
    print(String(format: "%@: total %.1f ms CPU, median frame %.1f ms, slowest %.1f ms (%@), slowest/median %.1fx", label,
                 values.reduce(0, +), middle, worst, names[values.firstIndex(of: worst)!], worst / middle))
}
print("found: \(alone.filter { !$0!.boardCorners.isEmpty }.count) alone, \(tracked.filter { !$0!.boardCorners.isEmpty }.count) tracked")
print(differences.isEmpty ? "every frame: the tracked search found the corners the frame alone gives, to the bit" : "frames that differ:\n  " + differences.joined(separator: "\n  "))
print("load average at end: \(loadAverage())")
