// Per-frame detection time through MarkerDetector (Swift), a C++ loop calling OpenCV directly, and
// Python's cv2 (Debian's python3-opencv), on the same frames, in one run. See BENCHMARKS.md.
//
//   swift run -c release detection-benchmark [ROUNDS] [BATCH]
//
// The Python script writes the frames (PNG) to a temporary folder; every implementation reads them,
// decodes them once, and times only detection. The C++ loop (DetectionBaseline) runs in this
// process on the same decoded frames as the Swift API, so the two differ only by the wrapper. Python
// stays running in its own process and detects on request. The three take turns, in all six
// orders alike, in batches of BATCH detections per frame for ROUNDS rounds, so that load from other
// processes on this shared machine falls on all of them alike. All three run with 1 and then with 2
// OpenCV threads.

import DetectionBaseline
import Foundation
import MarkerDetection
import Pixels

let arguments = CommandLine.arguments
let rounds = arguments.count > 1 ? Int(arguments[1]) ?? 60 : 60
let batch = arguments.count > 2 ? Int(arguments[2]) ?? 2 : 2
let names = ["frame-640x480", "frame-1280x720", "frame-1920x1080"]
let benchmarks = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
let script = benchmarks.appendingPathComponent("Scripts/detection_baseline.py").path
let python = "/usr/bin/python3"

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("detection-benchmark: \(message)\n".utf8))
    exit(1)
}

/// Runs a program and returns its standard output, failing loudly if it fails.
func run(_ program: String, _ arguments: [String]) -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    do { try process.run() } catch { fail("cannot run \(program): \(error)") }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { fail("\(program) \(arguments.joined(separator: " ")) failed") }
    return String(decoding: data, as: UTF8.self)
}

/// One implementation's samples for one frame: the OpenCV thread count it reported, the corners it
/// found, and milliseconds per detection.
struct Samples {
    var threads = 0
    var corners = 0
    var milliseconds: [Double] = []
}

/// The Python side, kept running for the whole benchmark: one request line in, one result line out.
final class PythonSide {
    let process = Process()
    let input = Pipe()
    let output = Pipe()
    var buffer = Data()

    init(_ program: String, _ arguments: [String]) {
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        do { try process.run() } catch { fail("cannot run \(program): \(error)") }
    }

    /// Asks for `count` timed detections of frame `name` and adds them to `samples`.
    func detect(_ name: String, count: Int, into samples: inout Samples) {
        input.fileHandleForWriting.write(Data("\(name) \(count)\n".utf8))
        while !buffer.contains(UInt8(ascii: "\n")) {
            let more = output.fileHandleForReading.availableData
            if more.isEmpty { fail("\(process.executableURL!.path) stopped") }
            buffer.append(more)
        }
        let end = buffer.firstIndex(of: UInt8(ascii: "\n"))!
        let line = String(decoding: buffer[buffer.startIndex..<end], as: UTF8.self)
        buffer.removeSubrange(buffer.startIndex...end)
        let fields = line.split(separator: " ")
        guard fields.count == count + 3, fields[0] == name, let threads = Int(fields[1]), let corners = Int(fields[2]) else {
            fail("unexpected answer: \(line)")
        }
        samples.threads = threads
        samples.corners = corners
        samples.milliseconds += fields.dropFirst(3).compactMap { Double($0) }
    }

    func finish() {
        input.fileHandleForWriting.closeFile()
        process.waitUntilExit()
    }
}

/// Runs the C++ loop on `frame` (BGR24, read in place) and returns its timings.
func baseline(_ frame: PixelBuffer, count: Int) -> (corners: Int, milliseconds: [Double]) {
    var milliseconds = [Double](repeating: 0, count: count)
    let corners = frame.withUnsafeBytes { bytes in
        detection_baseline_run(
            bytes.baseAddress, Int32(frame.width), Int32(frame.height), frame.rowStride, Int32(count), &milliseconds)
    }
    return (Int(corners), milliseconds)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("detection-benchmark-\(getpid())")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }
_ = run(python, [script, "frames", folder.path])

let pattern = try Pattern(parsing: "charuco:5x7:DICT_6X6_250")
let detector = try MarkerDetector(pattern: pattern)
let frames = try names.map { try ImageFile.read(folder.appendingPathComponent("\($0).png").path) }
let machineThreads = ProcessInfo.processInfo.activeProcessorCount

print("detection-benchmark: \(pattern), \(rounds) rounds of \(batch) timed detections per frame, implementations taking turns")
print("frames: a ChArUco board drawn by OpenCV, seen at an angle in front of a noisy gradient (Scripts/detection_baseline.py), PNG, decoded once")
print("each detection: gray conversion, detectMarkers, refineDetectedMarkers, interpolateCornersCharuco, Laplacian variance over the hull")
print("python: \(run(python, ["-c", "import cv2, sys; print(sys.version.split()[0], 'cv2', cv2.__version__)"]).trimmingCharacters(in: .whitespacesAndNewlines)); cores: \(machineThreads)")

for threads in [1, 2] {
    var swift: [String: Samples] = [:], cpp: [String: Samples] = [:], py: [String: Samples] = [:]
    MarkerDetector.openCVThreadCount = threads
    let pythonSide = PythonSide(python, [script, "bench", folder.path, String(threads)] + names)
    for (name, frame) in zip(names, frames) {
        for _ in 0..<5 { swift[name, default: Samples()].corners = try detector.detect(frame).boardCorners.count }
        cpp[name, default: Samples()].corners = baseline(frame, count: 5).corners
    }
    let clock = ContinuousClock()
    let orders = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]
    for round in 0..<rounds {
        for (name, frame) in zip(names, frames) {
            // The three take turns in each of the six orders in turn, so that each follows each
            // other equally often (whoever runs right after the Python process meets colder caches).
            for turn in orders[(round * names.count + names.firstIndex(of: name)!) % orders.count] {
                switch turn {
                case 0:
                    for _ in 0..<batch {
                        let start = clock.now
                        _ = try detector.detect(frame)
                        let elapsed = clock.now - start
                        swift[name]!.milliseconds.append(
                            Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1e3)
                    }
                    swift[name]!.threads = MarkerDetector.openCVThreadCount
                case 1:
                    cpp[name]!.milliseconds += baseline(frame, count: batch).milliseconds
                    cpp[name]!.threads = Int(detection_baseline_threads())
                default: pythonSide.detect(name, count: batch, into: &py[name, default: Samples()])
                }
            }
        }
    }
    pythonSide.finish()
    print("")
    print("OpenCV threads requested: \(threads)")
    print("frame        | Swift API ms | C++ direct ms | Python cv2 ms | Swift/C++ | fastest S/C/P ms      | threads S/C/P | corners S/C/P")
    print("-------------|--------------|---------------|---------------|-----------|-----------------------|---------------|--------------")
    for name in names {
        let s = swift[name]!, c = cpp[name]!, p = py[name]!
        let size = name.replacingOccurrences(of: "frame-", with: "")
        let ratio = (median(s.milliseconds) / median(c.milliseconds) - 1) * 100
        print(
            size.padding(toLength: 12, withPad: " ", startingAt: 0)
                + " | " + String(format: "%12.3f", median(s.milliseconds))
                + " | " + String(format: "%13.3f", median(c.milliseconds))
                + " | " + String(format: "%13.3f", median(p.milliseconds))
                + " | " + String(format: "%+8.1f%%", ratio)
                + " | " + String(format: "%6.2f/%6.2f/%6.2f", s.milliseconds.min()!, c.milliseconds.min()!, p.milliseconds.min()!)
                + " | " + "\(s.threads)/\(c.threads)/\(p.threads)".padding(toLength: 13, withPad: " ", startingAt: 0)
                + " | \(s.corners)/\(c.corners)/\(p.corners)")
    }
    print("(medians, and fastest, of \(swift[names[0]]!.milliseconds.count) detections each; Swift/C++ compares the medians)")
}

// The wrapper's own cost, where OpenCV has almost nothing to do: a blank 32x32 frame.
MarkerDetector.openCVThreadCount = 1
let blank = try PixelBuffer(width: 32, height: 32, format: .bgr24) { $0.initializeMemory(as: UInt8.self, repeating: 128) }
var swiftBlank: [Double] = [], cppBlank: [Double] = []
let clock = ContinuousClock()
for _ in 0..<50 {
    for _ in 0..<100 {
        let start = clock.now
        _ = try detector.detect(blank)
        let elapsed = clock.now - start
        swiftBlank.append(Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6)
    }
    cppBlank += baseline(blank, count: 100).milliseconds.map { $0 * 1000 }
}
print("")
print(String(
    format: "blank 32x32 frame, 1 OpenCV thread, 5000 detections each: Swift API %.2f us, C++ direct %.2f us per detection (medians)",
    median(swiftBlank), median(cppBlank)))
MarkerDetector.openCVThreadCount = -1
