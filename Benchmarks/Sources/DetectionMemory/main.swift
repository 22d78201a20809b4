// Resident set size over 10,000 detections in a loop (and over repeated decoding, annotation and
// encoding), to show that nothing accumulates. See BENCHMARKS.md.
//
//   swift run -c release detection-memory [DETECTIONS] [ROUND_TRIPS]

import Foundation
import MarkerDetection

/// The process's resident set in KiB, from /proc/self/status (VmRSS).
func residentKiB() -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
}

let detections = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 10_000 : 10_000
let roundTrips = CommandLine.arguments.count > 2 ? Int(CommandLine.arguments[2]) ?? 2_000 : 2_000
let photo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("shared/images/charuco/board.jpg").path
let pattern = try Pattern(parsing: "charuco:5x7:DICT_6X6_250")
let detector = try MarkerDetector(pattern: pattern)
let frame = try ImageFile.read(photo)
let rule = ValidityRule(defaultsFor: pattern)

print("detection-memory: \(pattern) on charuco/board.jpg (\(frame.width)x\(frame.height)), OpenCV threads \(MarkerDetector.openCVThreadCount)")
for _ in 0..<100 { _ = try detector.detect(frame) }
let start = residentKiB()
print("RSS after 100 warm-up detections: \(start) KiB")
var corners = 0
for index in 1...detections {
    corners += try detector.detect(frame).boardCorners.count
    if index % 2_000 == 0 { print("RSS after \(index) detections: \(residentKiB()) KiB") }
}
let end = residentKiB()
print("start \(start) KiB, end \(end) KiB, change \(end - start) KiB over \(detections) detections (\(corners / detections) corners each)")

let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: photo)))
let before = residentKiB()
for index in 1...roundTrips {
    let decoded = try ImageFile.decode(bytes)
    let detection = try detector.detect(decoded)
    let annotated = try Annotation.draw(detection, on: decoded, badge: Annotation.Badge(detection: detection, rule: rule))
    _ = try ImageFile.encode(annotated, as: .jpeg(quality: 90))
    _ = try? ImageFile.decode(Array(bytes.prefix(bytes.count / 2)))  // truncated: an error every time
    if index % (roundTrips / 4) == 0 { print("RSS after \(index) round trips: \(residentKiB()) KiB") }
}
let after = residentKiB()
print("decode + detect + annotate + encode + truncated decode, \(roundTrips) times: start \(before) KiB, end \(after) KiB, change \(after - before) KiB")
