import Debounce
import Foundation
import MarkerDetection
@testable import MarkerShutter
import Pixels
import Testing

/// A row the processor printed that is not a JSON object.
private struct RowError: Error, CustomStringConvertible {
    let text: String
    var description: String { "not a JSON object: \(text)" }
}

/// Runs a processor and collects each frame's row and outcome in order.
private func process(_ path: String, pattern: String, jobs: Int) throws -> (rows: [[String: Any]], summary: ProcessingSummary) {
    let folder = try FrameFolder(path: path)
    let detector = try MarkerDetector(pattern: try Pattern(parsing: pattern))
    var options = FolderProcessor.Options()
    options.jobs = jobs
    let processor = FolderProcessor(folder: folder, detector: detector, rule: ValidityRule(defaultsFor: detector.pattern), options: options)
    var rows: [[String: Any]] = []
    var unparsed: [String] = []
    let summary = processor.run { frame, outcome in
        let text: String
        switch outcome {
        case .observed(let observation, let step): text = FrameRow.row(for: observation, state: step.state)
        case .unreadable(let reason): text = FrameRow.errorRow(index: frame.index, file: frame.file, time: frame.time, reason: reason)
        }
        if let row = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] { rows.append(row) } else { unparsed.append(text) }
    }
    guard unparsed.isEmpty else { throw RowError(text: unparsed[0]) }
    return (rows, summary)
}

@Suite struct FolderProcessorTests {
    @Test func everyChessboardPhotoIsValidWithAllCorners() throws {
        let (rows, summary) = try process(TestPaths.sharedImages + "/chessboard", pattern: "chessboard:9x6", jobs: 2)
        #expect(rows.map { $0["file"] as? String } == (1...9).map { "left0\($0).jpg" })
        #expect(rows.allSatisfy { $0["valid"] as? Bool == true })
        #expect(rows.allSatisfy { ($0["corners"] as? [Any])?.count == 54 })
        #expect(rows.map { $0["shutter"] as? String } == Array(repeating: "enabled", count: 9))
        #expect(rows.map { $0["held_index"] as? Int } == Array(0..<9))
        #expect(summary.validFrames == 9)
        #expect(summary.errors.isEmpty)
        #expect(summary.stretches.map(\.description) == ["frames 0...8"])
    }

    @Test func theCharucoPhotoIsValidWithEveryCorner() throws {
        let (rows, summary) = try process(TestPaths.sharedImages + "/charuco", pattern: "charuco:5x7:DICT_6X6_250", jobs: 2)
        #expect(rows.count == 1)
        let row = try #require(rows.first)
        #expect(row["valid"] as? Bool == true)
        #expect((row["corners"] as? [Any])?.count == 24)
        let markerIDs = (row["markers"] as? [[String: Any]])?.compactMap { $0["id"] as? Int }.sorted()
        #expect(markerIDs == Array(0...16))
        #expect(row["shutter"] as? String == "enabled")
        #expect(summary.validFrames == 1)
    }

    @Test func anUnreadableFrameBecomesAnErrorRowAndTheRestAreProcessed() throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let chessboard = TestPaths.sharedImages + "/chessboard"
        for n in 1...4 { try FileManager.default.copyItem(atPath: "\(chessboard)/left0\(n).jpg", toPath: "\(folder)/left0\(n).jpg") }
        let whole = try Data(contentsOf: URL(fileURLWithPath: "\(chessboard)/left05.jpg"))
        try whole.prefix(whole.count / 3).write(to: URL(fileURLWithPath: "\(folder)/left05.jpg"))   // truncated
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: "\(folder)/left06.png"))
        for n in 7...8 { try FileManager.default.copyItem(atPath: "\(chessboard)/left0\(n).jpg", toPath: "\(folder)/left0\(n).jpg") }

        let (rows, summary) = try process(folder, pattern: "chessboard:9x6", jobs: 2)
        #expect(rows.count == 8)
        #expect(rows.map { $0["index"] as? Int } == Array(0..<8))
        let errors = rows.filter { $0["error"] != nil }
        #expect(errors.map { $0["file"] as? String } == ["left05.jpg", "left06.png"])
        #expect((errors[0]["error"] as? String)?.contains("truncated") == true)
        #expect(Set(errors[0].keys) == ["index", "file", "t", "error"])
        #expect(rows.filter { $0["valid"] as? Bool == true }.count == 6)
        #expect(summary.errors.map(\.file) == ["left05.jpg", "left06.png"])
        // The unreadable frames are not observed: the shutter stays enabled across them.
        #expect(rows.compactMap { $0["shutter"] as? String } == Array(repeating: "enabled", count: 6))
    }

    @Test func resultsAreTheSameWhateverTheNumberOfJobs() throws {
        let path = TestPaths.sharedImages + "/chessboard"
        func comparable(_ rows: [[String: Any]]) throws -> [String] {
            try rows.map { row in
                var row = row
                row["detect_ms"] = nil  // timing varies
                return String(decoding: try JSONSerialization.data(withJSONObject: row, options: .sortedKeys), as: UTF8.self)
            }
        }
        let one = try process(path, pattern: "chessboard:9x6", jobs: 1).rows
        let four = try process(path, pattern: "chessboard:9x6", jobs: 4).rows
        #expect(try comparable(one) == comparable(four))
    }

    /// A made-up video: a ChArUco board drifting across a 960x540 frame, gone for a few frames in
    /// the middle. Its frames after the first of each stretch are searched where the frame before
    /// showed the board; what is found must not depend on that, nor on the jobs.
    @Test func trackingBetweenConsecutiveFramesFindsWhatEachFrameAloneShows() throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let pattern = try Pattern(parsing: "charuco:5x7:DICT_6X6_250")
        let board = try PrintableTarget.render(pattern, width: 200, height: 280, margin: 10)
        let count = 48
        for index in 0..<count {
            let position: (x: Int, y: Int)? =
                switch index {
                case 0..<20: (100 + 7 * index, 120)
                case 20..<26: nil
                default: (600 - 9 * (index - 26), 100 + 4 * (index - 26))
                }
            let frame = try board.withUnsafeBytes { source in
                try PixelBuffer(width: 960, height: 540, format: .gray8) { target in
                    for y in 0..<540 {
                        for x in 0..<960 {
                            guard let position, x >= position.x, x < position.x + 200, y >= position.y, y < position.y + 280
                            else { target[y * 960 + x] = UInt8(truncatingIfNeeded: 100 + (x * 7 + y * 3) % 50); continue }
                            target[y * 960 + x] = source[(y - position.y) * board.rowStride + x - position.x]
                        }
                    }
                }
            }
            let bytes = try ImageFile.encode(frame, as: .jpeg(quality: 95))
            try Data(bytes).write(to: URL(fileURLWithPath: folder + String(format: "/frame-%02d.jpg", index)))
        }
        #expect(FolderProcessor.stretchLength(frames: count) == 6)

        func comparable(_ rows: [[String: Any]]) throws -> [String] {
            try rows.map { row in
                var row = row
                row["detect_ms"] = nil  // timing varies
                return String(decoding: try JSONSerialization.data(withJSONObject: row, options: .sortedKeys), as: UTF8.self)
            }
        }
        let one = try process(folder, pattern: pattern.description, jobs: 1).rows
        let three = try process(folder, pattern: pattern.description, jobs: 3).rows
        #expect(try comparable(one) == comparable(three))

        let detector = try MarkerDetector(pattern: pattern)
        for (index, row) in one.enumerated() {
            let alone = try detector.detect(ImageFile.read(folder + String(format: "/frame-%02d.jpg", index), channels: .gray))
            let markers = (row["markers"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int }
            let corners = (row["corners"] as? [[String: Any]] ?? []).compactMap { corner -> (Int, [Double])? in
                guard let id = corner["id"] as? Int, let xy = corner["xy"] as? [Double] else { return nil }
                return (id, xy)
            }
            #expect(markers.sorted() == alone.markers.map(\.id).sorted(), "frame \(index)")
            #expect(corners.map(\.0) == alone.boardCorners.map(\.id), "frame \(index)")
            for ((id, xy), corner) in zip(corners, alone.boardCorners) {
                let distance = ((xy[0] - corner.point.x) * (xy[0] - corner.point.x) + (xy[1] - corner.point.y) * (xy[1] - corner.point.y)).squareRoot()
                // Refined from where another pass's markers put them, corners stop within OpenCV's
                // refinement tolerance of each other: a few hundredths of a pixel.
                #expect(distance < 0.1, "frame \(index), corner \(id): \(xy) vs \(corner.point)")
            }
            #expect(markers.isEmpty == (20..<26).contains(index), "frame \(index)")
        }
    }

    @Test func framesFollowOneAnotherByTheirSequenceNumbersOrElseByTheirOrder() {
        func frame(_ index: Int, sequence: UInt64?) -> FrameFolder.Frame {
            FrameFolder.Frame(index: index, file: "f\(index).jpg", path: "/f\(index).jpg", time: FrameTime(.zero), sequence: sequence)
        }
        #expect(frame(1, sequence: nil).follows(frame(0, sequence: nil)))
        #expect(!frame(2, sequence: nil).follows(frame(0, sequence: nil)))
        #expect(frame(1, sequence: 11).follows(frame(0, sequence: 10)))
        #expect(frame(1, sequence: 13).follows(frame(0, sequence: 10)))    // two frames dropped
        #expect(!frame(1, sequence: 14).follows(frame(0, sequence: 10)))
        #expect(!frame(1, sequence: 10).follows(frame(0, sequence: 10)))
        #expect(!frame(1, sequence: 3).follows(frame(0, sequence: 10)))     // a new recording
        #expect(FolderProcessor.stretchLength(frames: 1) == 1)
        #expect(FolderProcessor.stretchLength(frames: 9) == 1)
        #expect(FolderProcessor.stretchLength(frames: 100) == 12)
        #expect(FolderProcessor.stretchLength(frames: 300) == 30)
        #expect(FolderProcessor.stretchLength(frames: 100_000) == 30)
    }

    @Test func stoppingHandsOverTheFramesBeforeTheStop() throws {
        let folder = try FrameFolder(path: TestPaths.sharedImages + "/chessboard")
        let detector = try MarkerDetector(pattern: try Pattern(parsing: "chessboard:9x6"))
        let processor = FolderProcessor(folder: folder, detector: detector, rule: ValidityRule(defaultsFor: detector.pattern))
        let handed = Counter()
        var indices: [Int] = []
        let summary = processor.run(shouldStop: { handed.value >= 3 }) { frame, _ in
            indices.append(frame.index)
            handed.increment()
        }
        #expect(indices == [0, 1, 2])
        #expect(summary.stoppedAfter == 3)
    }

    /// A worker that asked `shouldStop` itself could skip a frame the consumer already waits for,
    /// when the answer changes between the two questions (a Ctrl-C), and the run would never end.
    @Test func onlyTheCallingThreadIsAskedWhetherToStop() throws {
        let folder = try FrameFolder(path: TestPaths.sharedImages + "/chessboard")
        let detector = try MarkerDetector(pattern: try Pattern(parsing: "chessboard:9x6"))
        var options = FolderProcessor.Options()
        options.jobs = 3
        let processor = FolderProcessor(folder: folder, detector: detector, rule: ValidityRule(defaultsFor: detector.pattern),
                                        options: options)
        let caller = pthread_self()
        let askedElsewhere = Counter()
        let asked = Counter()
        let summary = processor.run(shouldStop: {
            if pthread_equal(pthread_self(), caller) == 0 { askedElsewhere.increment() }
            asked.increment()
            return false
        }) { _, _ in }
        #expect(summary.stoppedAfter == nil)
        #expect(asked.value == folder.frames.count)
        #expect(askedElsewhere.value == 0)
    }
}

/// A counter shared with a `@Sendable` closure.
final class Counter: Sendable {
    private let count = Locked(0)
    var value: Int { count.withLock { $0 } }
    func increment() { count.withLock { $0 += 1 } }
}
