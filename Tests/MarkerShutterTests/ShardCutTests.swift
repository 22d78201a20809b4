import Foundation
import MarkerDetection
@testable import MarkerShutter
@testable import Sharding
import Testing

/// ``FolderProcessor/shardRanges(frames:shards:)``: the cut of a folder into shards, and that a
/// shard's frames are detected as they are when the whole folder is processed.
@Suite struct ShardCutTests {
    @Test(arguments: [1, 2, 7, 8, 9, 30, 120, 239, 241, 1000])
    func everyFrameIsInExactlyOneShardAndShardsStartWhereTrackingRestarts(frames: Int) {
        let stretch = FolderProcessor.stretchLength(frames: frames)
        for shards in 1...(frames + 1) {
            let ranges = FolderProcessor.shardRanges(frames: frames, shards: shards)
            #expect(ranges.count == shards)
            // Contiguous, in order, from 0 to the end: each frame in exactly one shard.
            #expect(ranges.first?.lowerBound == 0, "\(frames) frames, \(shards) shards")
            #expect(ranges.last?.upperBound == frames, "\(frames) frames, \(shards) shards")
            #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound }, "\(frames) frames, \(shards) shards")
            #expect(ranges.reduce(0) { $0 + $1.count } == frames)
            // Each non-empty shard is whole stretches: it starts where a worker starts afresh.
            for range in ranges where !range.isEmpty {
                #expect(range.lowerBound % stretch == 0, "\(frames) frames, \(shards) shards: \(range)")
                #expect(range.upperBound % stretch == 0 || range.upperBound == frames, "\(frames) frames, \(shards) shards: \(range)")
            }
            // As many shards hold frames as there can be: one per stretch at most.
            let stretches = (frames + stretch - 1) / stretch
            #expect(ranges.filter { !$0.isEmpty }.count == min(shards, stretches), "\(frames) frames, \(shards) shards")
        }
    }

    @Test func theSampleSessionsFourShardsAreItsStretchesTwoByTwo() {
        // 120 frames: stretches of 15 (an eighth), so 8 stretches and 2 to each of 4 shards.
        #expect(FolderProcessor.stretchLength(frames: 120) == 15)
        #expect(FolderProcessor.shardRanges(frames: 120, shards: 4) == [0..<30, 30..<60, 60..<90, 90..<120])
        #expect(FolderProcessor.shardRanges(frames: 120, shards: 3) == [0..<30, 30..<75, 75..<120])
        #expect(FolderProcessor.shardRanges(frames: 3000, shards: 4) == [0..<750, 750..<1500, 1500..<2250, 2250..<3000])
        #expect(FolderProcessor.shardRanges(frames: 2, shards: 3) == [0..<0, 0..<1, 1..<2])
    }

    @Test func aShardsFramesAreDetectedAsInTheWholeFolder() throws {
        let folder = try FrameFolder(path: SampleSessionTests.folder)
        let pattern = try Pattern(parsing: "charuco:5x7:DICT_6X6_250")
        let processor = FolderProcessor(folder: folder, detector: try MarkerDetector(pattern: pattern), rule: ValidityRule(defaultsFor: pattern))
        func detections(_ range: Range<Int>?) -> [Int: String] {
            var found: [Int: String] = [:]
            _ = processor.run(frames: range) { frame, outcome in
                if case .observed(let observation, _) = outcome {
                    found[frame.index] = "\(observation.detection.markers.map(\.id)) \(observation.detection.boardCorners.map { "\($0.id) \($0.point.x) \($0.point.y)" })"
                }
            }
            return found
        }
        let whole = detections(nil)
        try #require(whole.count == 120)
        var fromShards: [Int: String] = [:]
        for range in FolderProcessor.shardRanges(frames: 120, shards: 4) {
            let part = detections(range)
            #expect(Set(part.keys) == Set(range))
            fromShards.merge(part) { first, _ in first }
        }
        #expect(fromShards == whole)
    }
}
