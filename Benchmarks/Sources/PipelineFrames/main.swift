// pipeline-frames: writes the pipeline benchmark's frame folder, a made-up calibration session.
//
//   swift run -c release pipeline-frames FOLDER [COUNT] [WIDTH HEIGHT]
//
// COUNT (default 300) JPEG files of WIDTHxHEIGHT (default 1280x720) pixels, quality 90, named
// frame-0000.jpg, frame-0001.jpg, ...: a charuco:5x7:DICT_6X6_250 board drawn by PrintableTarget,
// printed on slightly warm paper, moved, turned and tilted in front of a textured desk by a smooth
// path, with camera noise on every frame. Like a real session it is mostly valid frames, with brief
// dropouts (a hand in front of the board, motion blur) and one longer loss (the board out of view).
// The same arguments always make the same files.

import Dispatch
import Foundation
import MarkerDetection
import Pixels
import Synchronization

let arguments = CommandLine.arguments
guard arguments.count == 2 || arguments.count == 3 || arguments.count == 5,
      arguments.dropFirst(2).allSatisfy({ Int($0).map { $0 > 0 } ?? false })
else {
    FileHandle.standardError.write(Data("usage: pipeline-frames FOLDER [COUNT] [WIDTH HEIGHT]\n".utf8))
    exit(64)
}
let folder = arguments[1]
let count = arguments.count > 2 ? Int(arguments[2])! : 300
let width = arguments.count > 4 ? Int(arguments[3])! : 1280
let height = arguments.count > 4 ? Int(arguments[4])! : 720

let pattern = try Pattern(parsing: "charuco:5x7:DICT_6X6_250")
let board = try PrintableTarget.render(pattern, width: 1000, height: 1400, margin: 50)
try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)

/// What happens to the board in a frame.
enum Event { case clear, hand, motionBlur, outOfView }

/// One dropout of a few frames every 40 frames or so, alternating hand and blur, and one long loss.
func event(at index: Int) -> Event {
    let longLoss = (count * 3 / 5)..<(count * 3 / 5 + 24)
    if longLoss.contains(index) { return .outOfView }
    switch index % 41 {
    case 20..<24: return (index / 41) % 2 == 0 ? .hand : .motionBlur
    default: return .clear
    }
}

let events = (0..<count).map { event(at: $0) }
let failures = Mutex<[String]>([])
let started = ContinuousClock.now
DispatchQueue.concurrentPerform(iterations: count) { index in
    do {
        let frame = try Scene.frame(index: index, event: events[index], board: board, width: width, height: height)
        let bytes = try ImageFile.encode(frame, as: .jpeg(quality: 90))
        let name = String(format: "frame-%04d.jpg", index)
        try Data(bytes).write(to: URL(fileURLWithPath: folder).appendingPathComponent(name))
    } catch {
        failures.withLock { $0.append("frame \(index): \(error)") }
    }
}
let failed = failures.withLock { $0 }
if !failed.isEmpty {
    FileHandle.standardError.write(Data((failed.joined(separator: "\n") + "\n").utf8))
    exit(1)
}
print("pipeline-frames: \(count) frames of \(width)x\(height) JPEG (quality 90) in \(folder), made in "
      + "\(ContinuousClock.now - started); board clear in \(events.filter { $0 == .clear }.count), hand in front in "
      + "\(events.filter { $0 == .hand }.count), motion blur in \(events.filter { $0 == .motionBlur }.count), "
      + "out of view in \(events.filter { $0 == .outOfView }.count)")
