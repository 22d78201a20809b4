import Foundation

/// Offline frames per second on one folder: the plain Python loop, `marker-shutter process` with
/// its default jobs, and `process --jobs 1`, taking turns round by round.
struct OfflineBenchmark {
    let folder: String
    let markerShutter: String
    let pythonScript: String
    let rounds: Int
    let scratch: String

    static let pattern = "charuco:5x7:DICT_6X6_250"
    static let python = "/usr/bin/python3"

    /// One way of processing the folder.
    struct Subject {
        let name: String
        let executable: String
        let arguments: [String]
        /// Where its JSON rows go, for marker-shutter.
        let rows: String?
        var runs: [ChildRun] = []
        /// Frames per second over its own processing loop, as it printed them, one per round.
        var printed: [Double] = []
        var detail = ""
    }

    func run() throws {
        let frames = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".jpg") }.count
        let bytes = try FileManager.default.contentsOfDirectory(atPath: folder)
            .compactMap { try FileManager.default.attributesOfItem(atPath: folder + "/" + $0)[.size] as? Int }
            .reduce(0, +)
        print("pipeline-benchmark offline: \(frames) frames of 1280x720 JPEG in \(folder) "
              + String(format: "(%.1f MB)", Double(bytes) / 1e6) + ", pattern \(Self.pattern)")
        print("\(rounds) rounds; in each, every subject processes the whole folder once, in a turning order")
        print("load average before: \(loadAverages())")

        var subjects = [
            Subject(name: "python3 cv2 loop", executable: Self.python, arguments: [pythonScript, folder], rows: nil),
            Subject(name: "process (default jobs)", executable: markerShutter,
                    arguments: ["process", folder, "--pattern", Self.pattern, "--output", scratch + "/default.jsonl", "--force"],
                    rows: scratch + "/default.jsonl"),
            Subject(name: "process --jobs 1", executable: markerShutter,
                    arguments: ["process", folder, "--pattern", Self.pattern, "--jobs", "1", "--output", scratch + "/jobs1.jsonl", "--force"],
                    rows: scratch + "/jobs1.jsonl"),
        ]
        // One untimed pass, so that every subject meets the files in the page cache.
        _ = try ChildProcess.run(subjects[0].executable, subjects[0].arguments, scratch: scratch)
        for round in 0..<rounds {
            for turn in 0..<subjects.count {
                let index = (round + turn) % subjects.count
                let run = try ChildProcess.run(subjects[index].executable, subjects[index].arguments, scratch: scratch)
                guard run.status == 0 else {
                    throw BenchmarkError("\(subjects[index].name) exited with \(run.status):\n\(run.output)\(run.errors)")
                }
                let (fps, detail) = try Self.parse(run, frames: frames)
                subjects[index].runs.append(run)
                subjects[index].printed.append(fps)
                subjects[index].detail = detail
            }
        }
        print("load average after:  \(loadAverages())")
        print("")
        print("subject                  | frames/s, median | each round            | whole program frames/s | CPU ms/frame | peak RSS MiB | threads")
        print("-------------------------|------------------|-----------------------|------------------------|--------------|--------------|--------------------------")
        for subject in subjects {
            let wall = median(subject.runs.map { Double(frames) / $0.wallSeconds })
            let cpu = median(subject.runs.map { $0.cpuSeconds * 1000 / Double(frames) })
            let peak = subject.runs.map(\.peakKiB).max()!
            print(subject.name.padding(toLength: 24, withPad: " ", startingAt: 0)
                  + String(format: " | %16.1f | ", median(subject.printed))
                  + Self.padded(subject.printed.map { String(format: "%5.1f", $0) }.joined(separator: " "), to: 21)
                  + String(format: " | %22.1f | %12.2f | %12.1f | ", wall, cpu, Double(peak) / 1024)
                  + subject.detail)
        }
        let python = median(subjects[0].printed)
        let parallel = median(subjects[1].printed), single = median(subjects[2].printed)
        print("")
        print(String(format: "process (default jobs) / python loop: %.2fx (target at least 3x: %@)", parallel / python,
                     parallel / python >= 3 ? "met" : "NOT met"))
        print(String(format: "process --jobs 1 / python loop:       %.2fx", single / python))
        print("(frames/s over each program's own loop, as it printed it: Python's time around its loop; "
              + "process's summary line, which also covers writing the JSON rows)")
        print("")
        try verify(subjects, pythonOutput: subjects[0].runs[0].output)
        try boundedMemory(subjects[1], frames: frames)
    }

    /// `text` with spaces up to `width` characters; longer text (more than three rounds) is kept whole.
    static func padded(_ text: String, to width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    /// Frames per second as the program printed it, and the threads it used.
    static func parse(_ run: ChildRun, frames: Int) throws -> (Double, String) {
        if run.output.hasPrefix("python ") {
            let fields = run.output.split(whereSeparator: \.isWhitespace)
            guard fields.count == 7, let seconds = Double(fields[2]) else { throw BenchmarkError("unexpected: \(run.output)") }
            return (Double(frames) / seconds, "OpenCV threads \(fields[3])")
        }
        // "  processed in 2.85 s (105.3 frames/s, 2 jobs, OpenCV threads 1)"
        guard let line = run.errors.split(separator: "\n").first(where: { $0.contains("processed in") }),
              let open = line.firstIndex(of: "("), let close = line.lastIndex(of: ")"),
              let fps = Double(line[line.index(after: open)...].prefix { $0 != " " })
        else { throw BenchmarkError("no 'processed in' line in:\n\(run.errors)") }
        let threads = line[line.index(after: open)..<close].split(separator: ",").dropFirst()
            .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")
        return (fps, threads)
    }

    /// The JSON rows of both process runs are the same but for detect_ms, and agree with what
    /// the Python loop found.
    func verify(_ subjects: [Subject], pythonOutput: String) throws {
        let parallel = try Self.rowsWithoutTiming(subjects[1].rows!), single = try Self.rowsWithoutTiming(subjects[2].rows!)
        print("rows of process (default jobs) and process --jobs 1, detect_ms left out: "
              + (parallel == single ? "identical (\(parallel.count) rows, in frame order)" : "DIFFERENT"))
        var markers = 0, corners = 0, valid = 0
        for row in parallel {
            let object = try JSONSerialization.jsonObject(with: Data(row.utf8)) as? [String: Any] ?? [:]
            markers += (object["markers"] as? [Any])?.count ?? 0
            corners += (object["corners"] as? [Any])?.count ?? 0
            valid += (object["valid"] as? Bool) == true ? 1 : 0
        }
        let fields = pythonOutput.split(whereSeparator: \.isWhitespace)
        print("found over all frames: process \(markers) markers, \(corners) board corners, \(valid) valid frames; "
              + "python loop \(fields[4]) markers, \(fields[5]) board corners, \(fields[6]) valid frames")
        if parallel != single { throw BenchmarkError("the two process runs wrote different rows") }
    }

    static func rowsWithoutTiming(_ path: String) throws -> [String] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let timing = try Regex(#","detect_ms":[-0-9.e]+"#)
        return text.split(separator: "\n").map { String($0.replacing(timing, with: "")) }
    }

    /// Peak resident memory of `process` does not grow with the folder: the same frames four times
    /// over (symbolic links, 4 x as many frames) peak where the folder itself does.
    func boundedMemory(_ subject: Subject, frames: Int) throws {
        let longer = scratch + "/four-times"
        try? FileManager.default.removeItem(atPath: longer)
        try FileManager.default.createDirectory(atPath: longer, withIntermediateDirectories: true)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".jpg") }.sorted()
        for copy in 0..<4 {
            for (index, name) in names.enumerated() {
                try FileManager.default.createSymbolicLink(
                    atPath: longer + String(format: "/frame-%05d.jpg", copy * names.count + index), withDestinationPath: folder + "/" + name)
            }
        }
        let run = try ChildProcess.run(markerShutter, ["process", longer, "--pattern", Self.pattern, "--output", scratch + "/four.jsonl", "--force"],
                                       scratch: scratch)
        guard run.status == 0 else { throw BenchmarkError("process on \(longer) exited with \(run.status)") }
        let peaks = subject.runs.map(\.peakKiB)
        print(String(format: "peak RSS of process (default jobs): %.1f to %.1f MiB over %d frames; %.1f MiB over the same frames 4 times (%d)",
                     Double(peaks.min()!) / 1024, Double(peaks.max()!) / 1024, frames, Double(run.peakKiB) / 1024, 4 * frames))
    }
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}
