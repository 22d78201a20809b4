// identification-benchmark: how long target identification takes, and how well it does.
//
//   speed [ROUNDS]   five 1920x1080 frames of each of a few boards identified, ROUNDS times; prints the
//                    wall time of each identification (PatternIdentifier.identify: every frame examined,
//                    several at once, the evidence weighed, the pattern found detected in every frame),
//                    the CPU time of the process, and for comparison one detection of each frame with
//                    the pattern given.
//   set [OFFSET]     the identification set (Tests/MarkerDetectionTestSupport/IdentificationSet.swift)
//                    at 800x600, seeds moved by OFFSET (0: as the tests run it): each folder's outcome,
//                    then the share identified, identified wrongly, and of the frames where the true
//                    pattern finds the board, those where the identified one does too.
import Foundation
import MarkerDetection
import SyntheticViewSupport
import Pixels

func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

func speed(rounds: Int) throws {
    let boards = ["charuco:5x7:DICT_6X6_250", "charuco:8x8:DICT_4X4_1000:square=1,marker=0.75", "chessboard:9x6",
                  "aprilgrid:6x6:tag36h11", "acircles:4x11", "gridboard:5x7:DICT_5X5_100:first=35"]
    let identifier = try PatternIdentifier()
    let clock = ContinuousClock()
    print("five 1920x1080 frames a board, \(rounds) rounds; OpenCV threads: \(MarkerDetector.openCVThreadCount)")
    for (index, text) in boards.enumerated() {
        let item = IdentificationSet.Case(text, seed: UInt64(500 + index))
        let frames = try IdentificationSet.frames(for: item, count: 5, width: 1920, height: 1080)
        var times: [Double] = []
        var found = ""
        let cpu = cpuSeconds()
        for _ in 0..<rounds {
            let start = clock.now
            found = try identifier.identify(frames).description
            times.append(milliseconds(clock.now - start))
        }
        let cpuPer = (cpuSeconds() - cpu) / Double(rounds) * 1000
        // Each frame examined alone on this thread: what identification costs a frame before the check.
        var examine: [Double] = []
        let cpuExamine = cpuSeconds()
        for frame in frames {
            let start = clock.now
            _ = try identifier.examine(frame)
            examine.append(milliseconds(clock.now - start))
        }
        let examineCPU = (cpuSeconds() - cpuExamine) * 1000 / Double(frames.count)
        let detector = try MarkerDetector(pattern: Pattern(parsing: text))
        let start = clock.now
        for frame in frames { _ = try detector.detect(frame) }
        let detection = milliseconds(clock.now - start)
        times.sort()
        print(String(format: "%@: median %.0f ms, min %.0f, max %.0f wall; %.0f ms CPU; a frame examined alone %.0f ms wall, %.0f ms CPU; detection with the pattern given %.0f ms for the five; %@",
                     text, times[times.count / 2], times.first!, times.last!, cpuPer, examine.reduce(0, +) / Double(examine.count),
                     examineCPU, detection, found))
    }
}

func set(offset: UInt64) throws {
    let identifier = try PatternIdentifier()
    var identified = 0, wrong = 0, truthFrames = 0, foundFrames = 0
    let cases = IdentificationSet.cases
    for item in cases {
        let outcome = try IdentificationSet.measure(item, seedOffset: offset, with: identifier)
        truthFrames += outcome.truthFrames
        foundFrames += outcome.foundFrames
        if outcome.correct { identified += 1 } else if outcome.sure { wrong += 1 }
        print("\(outcome.mark) \(outcome.truth): \(outcome.found) [board \(outcome.foundFrames)/\(outcome.truthFrames)]")
    }
    print(String(format: "%d folders (seeds +%d): identified %.1f%%, wrongly %d, board found in %.1f%% of the %d frames where the true pattern finds it",
                 cases.count, offset, 100 * Double(identified) / Double(cases.count), wrong,
                 100 * Double(foundFrames) / Double(max(truthFrames, 1)), truthFrames))
}

let arguments = CommandLine.arguments.dropFirst()
do {
    switch arguments.first {
    case "set": try set(offset: arguments.dropFirst().first.flatMap { UInt64($0) } ?? 0)
    default: try speed(rounds: arguments.dropFirst().first.flatMap { Int($0) } ?? 5)
    }
} catch {
    FileHandle.standardError.write(Data("identification-benchmark: \(error)\n".utf8))
    exit(1)
}
