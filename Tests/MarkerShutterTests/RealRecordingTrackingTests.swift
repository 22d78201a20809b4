import Foundation
import MarkerDetection
@testable import MarkerShutter
import Pixels
import Testing

/// Real recorded folders from another project's cameras (`../shared/images/recordings`, see its
/// README): what `process` finds in each frame while following the board from frame to frame (fast
/// mode, each frame searched first where the frame before showed the board) is what a full search
/// of that frame alone finds: no marker or corner lost or added, no corner moved more than 0.1 px.
@Suite(.enabled(if: RealRecordings.available, Comment(rawValue: RealRecordings.missing)))
struct RealRecordingTrackingTests {
    static let tolerance = 0.1

    @Test(arguments: RealRecordings.folders)
    func followingTheBoardFindsWhatEachFrameAloneShows(recording: RealRecordings.Folder) throws {
        let folder = try FrameFolder(path: recording.path)
        let pattern = try Pattern(parsing: recording.pattern)
        let full = try MarkerDetector(pattern: pattern, mode: .full)
        let alone = try folder.frames.map { frame in try full.detect(frame.readPixels(channels: .gray)) }
        #expect(alone.filter { !$0.boardCorners.isEmpty }.count >= recording.framesWithBoard)

        for jobs in [1, 2] {
            var options = FolderProcessor.Options()
            options.jobs = jobs
            let processor = FolderProcessor(
                folder: folder, detector: try MarkerDetector(pattern: pattern, mode: .fast),
                rule: ValidityRule(defaultsFor: pattern), options: options)
            var tracked: [Detection] = []
            _ = processor.run { frame, outcome in
                guard case .observed(let observation, _) = outcome else {
                    Issue.record("\(frame.file) could not be read")
                    return
                }
                tracked.append(observation.detection)
            }
            try #require(tracked.count == alone.count)
            for (index, frame) in folder.frames.enumerated() {
                RealRecordings.expectSame(tracked[index], alone[index], tolerance: Self.tolerance,
                                          "\(recording.name)/\(frame.file), tracked with \(jobs) jobs")
            }
        }
    }

    /// `live` searches each frame where the frame before showed the board and never at full
    /// resolution (``RegionTracker/search(_:with:)``), so it may miss a board a full search finds;
    /// what it does report is what the full search finds: no marker the full search does not see,
    /// no board corner more than 0.1 px from the full search's.
    @Test(arguments: RealRecordings.folders)
    func liveSearchesReportOnlyWhatEachFrameAloneShows(recording: RealRecordings.Folder) throws {
        let folder = try FrameFolder(path: recording.path)
        let pattern = try Pattern(parsing: recording.pattern)
        let full = try MarkerDetector(pattern: pattern, mode: .full)
        let fast = try MarkerDetector(pattern: pattern, mode: .fast)
        var tracker = RegionTracker()
        var framesWithCorners = 0
        for frame in folder.frames {
            let image = try frame.readPixels(channels: .gray)
            let found = try tracker.search(image, with: fast)
            let alone = try full.detect(image)
            let what = "\(recording.name)/\(frame.file), live search"
            #expect(Set(found.markers.map(\.id)).isSubset(of: alone.markers.map(\.id)), "\(what): markers")
            let expected = Dictionary(alone.boardCorners.map { ($0.id, $0.point) }, uniquingKeysWith: { first, _ in first })
            for corner in found.boardCorners {
                let point = try #require(expected[corner.id], "\(what): corner \(corner.id) the full search does not find")
                #expect(corner.point.distance(to: point) <= Self.tolerance, "\(what): corner \(corner.id) \(corner.point) against \(point)")
            }
            if case .chessboard = pattern { #expect(found.boardCorners.isEmpty || found.boardCorners.count == alone.boardCorners.count) }
            if !found.boardCorners.isEmpty { framesWithCorners += 1 }
        }
        // Most frames showing a board are found by the downscaled searches too.
        #expect(framesWithCorners >= recording.framesWithBoard / 2)
    }

    /// Each frame alone in fast mode (searched first at a smaller scale, its corners refined at
    /// full resolution) finds what full mode finds.
    @Test(arguments: RealRecordings.folders)
    func fastModeAloneFindsWhatFullModeFinds(recording: RealRecordings.Folder) throws {
        let folder = try FrameFolder(path: recording.path)
        let pattern = try Pattern(parsing: recording.pattern)
        let full = try MarkerDetector(pattern: pattern, mode: .full)
        let fast = try MarkerDetector(pattern: pattern, mode: .fast)
        for frame in folder.frames {
            let image = try frame.readPixels(channels: .gray)
            RealRecordings.expectSame(try fast.detect(image), try full.detect(image), tolerance: Self.tolerance,
                                      "\(recording.name)/\(frame.file), fast alone")
        }
    }
}

/// `../shared/images/recordings`: real recorded folders with the pattern each shows.
enum RealRecordings {
    struct Folder: Sendable, CustomTestStringConvertible {
        var name: String
        var pattern: String
        /// At least this many frames show the whole board to full mode (a check that the folder
        /// really is what the test expects).
        var framesWithBoard: Int
        var path: String { TestPaths.sharedImages + "/recordings/" + name }
        var testDescription: String { name }
    }

    static let folders = [
        Folder(name: "gloworm-chessboard-8x6-1280x720", pattern: "chessboard:8x6", framesWithBoard: 20),
        Folder(name: "gloworm-chessboard-8x6-960x720", pattern: "chessboard:8x6", framesWithBoard: 20),
        Folder(name: "lifecam-charuco-8x8-1280x720", pattern: "charuco:8x8:DICT_4X4_1000:square=1,marker=0.75",
               framesWithBoard: 10),
    ]

    static let available = FileManager.default.fileExists(atPath: TestPaths.sharedImages + "/recordings/README.md")
    static let missing = "the real recordings are not next to the package (../shared/images/recordings)"

    /// Same markers (by id), same board corners (by id), every board corner within `tolerance`
    /// pixels. Marker corners are not compared: full mode reports ArUco's contour corners as they
    /// are, fast mode refines them at full resolution (cornerSubPix), so they differ by a pixel or
    /// two by design; what calibration uses of a ChArUco board are its board corners.
    static func expectSame(_ found: Detection, _ expected: Detection, tolerance: Double, _ what: String,
                           sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(found.markers.map(\.id).sorted() == expected.markers.map(\.id).sorted(), "\(what): markers",
                sourceLocation: sourceLocation)
        #expect(found.boardCorners.map(\.id) == expected.boardCorners.map(\.id), "\(what): corner ids",
                sourceLocation: sourceLocation)
        let expectedCorners = Dictionary(expected.boardCorners.map { ($0.id, $0.point) }, uniquingKeysWith: { first, _ in first })
        for corner in found.boardCorners {
            guard let other = expectedCorners[corner.id] else { continue }
            let moved = corner.point.distance(to: other)
            #expect(moved <= tolerance, "\(what): corner \(corner.id) moved \(moved) px, \(corner.point) against \(other)",
                    sourceLocation: sourceLocation)
        }
    }
}
