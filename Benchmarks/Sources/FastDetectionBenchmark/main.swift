// Full against fast detection (`MarkerDetector(pattern:mode:)`) on frames with ground truth: time
// per frame, markers and corners found, and corner error. See BENCHMARKS.md.
//
//   /usr/bin/python3 Scripts/fast_detection_frames.py FOLDER 8 ../../shared/images
//   swift run -c release fast-detection-benchmark FOLDER [ROUNDS] [THREADS]
//
// Both modes run in this process on the same decoded frames and take turns frame by frame (full
// first on even rounds, fast first on odd ones), so that load from other processes on this shared
// machine falls on both alike and their ratio stays meaningful. Each frame's time is the median of
// ROUNDS detections; a group's time is the mean of its frames' medians.

import Foundation
import MarkerDetection
import Pixels

struct Truth: Decodable {
    struct Frame: Decodable {
        let file: String
        let pattern: String
        let width: Int
        let height: Int
        let boardFraction: Double?
        let tiltDegrees: Double?
        let markers: Int?
        let corners: [[Double]]?
    }
    let frames: [Frame]
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("fast-detection-benchmark: \(message)\n".utf8))
    exit(1)
}

func loadAverage() -> String {
    let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?"
    return text.split(separator: " ").prefix(3).joined(separator: " ")
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
}

/// Distances from each found corner to its ground truth: by id for ChArUco corners, to the nearest
/// ground-truth corner for chessboards (whose corner order may start from either end).
func cornerErrors(_ detection: Detection, truth: [[Double]], byID: Bool) -> [Double] {
    let points = truth.map { (id: Int($0[0]), point: ImagePoint(x: $0[1], y: $0[2])) }
    return detection.boardCorners.map { corner in
        if byID, let match = points.first(where: { $0.id == corner.id }) { return corner.point.distance(to: match.point) }
        return points.map { corner.point.distance(to: $0.point) }.min() ?? .nan
    }
}

struct Outcome {
    var milliseconds: [Double] = []
    var markers = 0
    var corners = 0
    var errors: [Double] = []
}

let arguments = CommandLine.arguments
guard arguments.count > 1 else { fail("usage: fast-detection-benchmark FOLDER [ROUNDS] [THREADS]") }
let folder = arguments[1]
let rounds = arguments.count > 2 ? Int(arguments[2]) ?? 5 : 5
let threads = arguments.count > 3 ? Int(arguments[3]) ?? 1 : 1
MarkerDetector.openCVThreadCount = threads

let truth: Truth
do {
    truth = try JSONDecoder().decode(Truth.self, from: Data(contentsOf: URL(fileURLWithPath: folder + "/truth.json")))
} catch {
    fail("cannot read \(folder)/truth.json: \(error)")
}

var detectors: [String: [DetectionMode: MarkerDetector]] = [:]
for pattern in Set(truth.frames.map(\.pattern)) {
    for mode in DetectionMode.allCases {
        detectors[pattern, default: [:]][mode] = try MarkerDetector(pattern: Pattern(parsing: pattern), mode: mode)
    }
}

print("fast-detection-benchmark: \(truth.frames.count) frames from \(folder), \(rounds) rounds, modes alternating, OpenCV threads \(MarkerDetector.openCVThreadCount)")
print("load average at start: \(loadAverage())")
let clock = ContinuousClock()
var outcomes: [[DetectionMode: Outcome]] = []
var scales: [Double] = []
var unequal: [String] = []
for frame in truth.frames {
    let image: PixelBuffer
    do { image = try ImageFile.read(folder + "/" + frame.file) } catch { fail("\(frame.file): \(error)") }
    var outcome: [DetectionMode: Outcome] = [.full: Outcome(), .fast: Outcome()]
    var last: [DetectionMode: Detection] = [:]
    for round in 0..<rounds {
        let order: [DetectionMode] = round % 2 == 0 ? [.full, .fast] : [.fast, .full]
        for mode in order {
            let detector = detectors[frame.pattern]![mode]!
            let start = clock.now
            let detection: Detection
            do { detection = try detector.detect(image) } catch { fail("\(frame.file) (\(mode)): \(error)") }
            let elapsed = start.duration(to: clock.now)
            outcome[mode]!.milliseconds.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1e3)
            last[mode] = detection
        }
    }
    for mode in DetectionMode.allCases {
        let detection = last[mode]!
        outcome[mode]!.markers = detection.markers.count
        outcome[mode]!.corners = detection.boardCorners.count
        if let corners = frame.corners {
            outcome[mode]!.errors = cornerErrors(detection, truth: corners, byID: frame.pattern.hasPrefix("charuco"))
        }
    }
    scales.append(detectors[frame.pattern]![.fast]!.fastScale(for: ImageSize(width: image.width, height: image.height)))
    let (full, fast) = (outcome[.full]!, outcome[.fast]!)
    if fast.markers != full.markers || fast.corners != full.corners {
        unequal.append(
            "\(frame.file): full \(full.markers) markers \(full.corners) corners, fast \(fast.markers) markers \(fast.corners) corners"
                + (frame.boardFraction.map { " (board \(Int($0 * 100))% wide, tilt \(Int(frame.tiltDegrees ?? 0)) deg)" } ?? ""))
    }
    outcomes.append(outcome)
    let view = frame.boardFraction.map { "board \(Int(($0 * 100).rounded()))% wide, tilt \(Int(frame.tiltDegrees ?? 0)) deg" } ?? "enlarged photo"
    print(frame.file.padding(toLength: 36, withPad: " ", startingAt: 0)
        + "\(view.padding(toLength: 30, withPad: " ", startingAt: 0)) full \(String(format: "%7.1f", median(full.milliseconds))) ms"
        + " fast \(String(format: "%7.1f", median(fast.milliseconds))) ms  markers \(full.markers)/\(fast.markers) corners \(full.corners)/\(fast.corners)"
        + (frame.corners == nil ? "" : String(format: "  max error %.3f/%.3f px", full.errors.max() ?? 0, fast.errors.max() ?? 0)))
}
print("load average at end: \(loadAverage())")
print("")

func format(_ value: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", value) }
func pad(_ text: String, _ width: Int) -> String { text.count >= width ? text : String(repeating: " ", count: width - text.count) + text }

print("group                          frames  scale | ms/frame full   fast  speedup | markers full/fast/truth | corners full/fast/truth | frames fast<full | corner error mean full/fast  max full/fast")
var groups: [(String, [Int])] = []
for (index, frame) in truth.frames.enumerated() {
    let kind = frame.file.hasPrefix("photo") ? "shared photos x3" : String(frame.pattern.split(separator: ":")[0])
    let name = "\(kind) \(frame.width)x\(frame.height)"
    if let at = groups.firstIndex(where: { $0.0 == name }) { groups[at].1.append(index) } else { groups.append((name, [index])) }
}
for (name, members) in groups {
    let full = members.map { outcomes[$0][.full]! }, fast = members.map { outcomes[$0][.fast]! }
    let fullTime = full.map { median($0.milliseconds) }.reduce(0, +) / Double(members.count)
    let fastTime = fast.map { median($0.milliseconds) }.reduce(0, +) / Double(members.count)
    let truthMarkers = members.compactMap { truth.frames[$0].markers }.reduce(0, +)
    let truthCorners = members.compactMap { truth.frames[$0].corners?.count }.reduce(0, +)
    let worse = members.filter { outcomes[$0][.fast]!.markers < outcomes[$0][.full]!.markers || outcomes[$0][.fast]!.corners < outcomes[$0][.full]!.corners }.count
    let fullErrors = full.flatMap(\.errors), fastErrors = fast.flatMap(\.errors)
    func mean(_ values: [Double]) -> String { values.isEmpty ? "-" : format(values.reduce(0, +) / Double(values.count), 3) }
    func maximum(_ values: [Double]) -> String { values.max().map { format($0, 3) } ?? "-" }
    let scale = members.map { scales[$0] }.reduce(0, +) / Double(members.count)
    let truthText = truth.frames[members[0]].corners == nil ? "-" : "\(truthMarkers)"
    let truthCornerText = truth.frames[members[0]].corners == nil ? "-" : "\(truthCorners)"
    print(
        pad(name, -1).padding(toLength: 30, withPad: " ", startingAt: 0) + " " + pad("\(members.count)", 6) + " " + pad(format(scale), 6) + " | "
            + pad(format(fullTime, 1), 13) + " " + pad(format(fastTime, 1), 6) + " " + pad(format(fullTime / fastTime) + "x", 8) + " | "
            + pad("\(full.map(\.markers).reduce(0, +))/\(fast.map(\.markers).reduce(0, +))/\(truthText)", 23) + " | "
            + pad("\(full.map(\.corners).reduce(0, +))/\(fast.map(\.corners).reduce(0, +))/\(truthCornerText)", 23) + " | "
            + pad("\(worse)", 16) + " | " + pad("\(mean(fullErrors))/\(mean(fastErrors))", 27) + "  " + pad("\(maximum(fullErrors))/\(maximum(fastErrors))", 13))
}
print("")
print("(scale: the fast mode's first-pass scale; ms/frame: mean over the group's frames of each frame's median of \(rounds); corner error: pixels to ground truth, synthetic frames only)")
if unequal.isEmpty {
    print("every frame: fast found as many markers and corners as full")
} else {
    print("frames where the modes found different counts:")
    for line in unequal { print("  " + line) }
}
