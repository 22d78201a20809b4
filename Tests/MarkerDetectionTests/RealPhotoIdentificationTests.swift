import Foundation
import MarkerDetection
import MarkerDetectionTestSupport
import Pixels
import Testing

/// Target identification on real photos nobody here took: the shared photos and recordings
/// (`../shared/images`, see its MANIFEST.md) and the photos of other projects in
/// `Tests/Fixtures/real-boards` (see its README.md: aprilgrid-rs's EuRoC and TUM VI AprilGrids,
/// BoofCV's circle grids).
@Suite(.serialized) struct RealPhotoIdentificationTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/real-boards").path

    static func images(_ paths: [String]) throws -> [PixelBuffer] {
        try paths.map { try ImageFile.read($0, channels: .gray) }
    }

    static func folder(_ path: String, first count: Int = 5) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).filter { !$0.hasSuffix(".md") }.sorted()
            .prefix(count).map { path + "/" + $0 }
    }

    /// Identifies `paths`; for a known truth also counts the frames the truth finds the board in
    /// and those the identified pattern finds it in, and prints them.
    static func identify(_ paths: [String], truth: String?) throws -> PatternIdentification {
        let frames = try images(paths)
        let found = try PatternIdentifier().identify(frames)
        var line = "\(paths.first.map { ($0 as NSString).deletingLastPathComponent } ?? ""): \(found)"
        if let truth {
            let truthDetector = try MarkerDetector(pattern: Pattern(parsing: truth))
            let foundDetector = try found.pattern.map { try MarkerDetector(pattern: $0) }
            var shown = 0, kept = 0
            for frame in frames where !(try truthDetector.detect(frame).isEmpty) {
                shown += 1
                if let foundDetector, !(try foundDetector.detect(frame).isEmpty) { kept += 1 }
            }
            line += " [board found in \(kept) of the \(shown) frames \(truth) finds it in]"
        }
        print(line)
        return found
    }

    static func expectIdentified(_ found: PatternIdentification, as truth: String) throws {
        let pattern = try #require(found.pattern, "\(found)")
        #expect(IdentificationSet.equivalent(pattern, try Pattern(parsing: truth)), "\(pattern) is not \(truth)")
    }

    @Test(.enabled(if: SharedImages.available, Comment(rawValue: SharedImages.missing)))
    func sharedPhotosAreIdentified() throws {
        try Self.expectIdentified(Self.identify([SharedImages.path("charuco/board.jpg")], truth: "charuco:5x7:DICT_6X6_250"),
                                  as: "charuco:5x7:DICT_6X6_250")
        let singles = try Self.identify([SharedImages.path("aruco/singlemarkers.jpg")], truth: "aruco:DICT_6X6_250")
        #expect(singles.pattern?.description == "aruco:DICT_6X6_250")
        let cubes = try Self.identify([SharedImages.path("apriltag/cubes.jpg")], truth: "apriltag:tag36h11")
        #expect(cubes.pattern?.description == "apriltag:tag36h11")
        let chessboards = try Self.identify(Self.folder(SharedImages.path("chessboard"), first: 9), truth: "chessboard:9x6")
        #expect(chessboards.pattern?.description == "chessboard:9x6")
        #expect(chessboards.framesShowing == 9)
    }

    /// A grid board of a dictionary of its own: no predefined dictionary reads its markers, so no
    /// target is named (never one of the predefined ones).
    @Test(.enabled(if: SharedImages.available, Comment(rawValue: SharedImages.missing)))
    func aBoardOfACustomDictionaryIsNotNamed() throws {
        let found = try Self.identify([SharedImages.path("aruco/gridboard.png")], truth: nil)
        #expect(found.pattern == nil)
    }

    /// PhotonVision's recordings. The ChArUco board (a PDF on a screen: "8 x 8 | 1in & 0.75in") has
    /// the layout of OpenCV 4.6 on: its top-left square is black.
    @Test(.enabled(if: SharedImages.available, Comment(rawValue: SharedImages.missing)))
    func recordedFoldersAreIdentifiedFromTheirFirstFrames() throws {
        let recordings = SharedImages.path("recordings")
        for (folder, truth) in [
            ("gloworm-chessboard-8x6-1280x720", "chessboard:8x6"), ("gloworm-chessboard-8x6-960x720", "chessboard:8x6"),
            ("lifecam-charuco-8x8-1280x720", "charuco:8x8:DICT_4X4_1000:square=1,marker=0.75"),
        ] {
            let found = try Self.identify(Self.folder(recordings + "/" + folder), truth: truth)
            try Self.expectIdentified(found, as: truth)
            #expect(found.framesShowing == 5)
        }
        let lifecam = try Self.identify(Self.folder(recordings + "/lifecam-charuco-8x8-1280x720"), truth: nil)
        guard case .charuco(let board) = lifecam.pattern else { Issue.record("\(lifecam)"); return }
        #expect(!board.legacyLayout)
    }

    /// Kalibr's AprilGrid in the EuRoC and TUM VI datasets: 6x6 tags of tag36h11, spacing 0.3.
    @Test func datasetAprilGridsAreIdentified() throws {
        let found = try Self.identify(Self.folder(Self.fixtures + "/aprilgrid"), truth: "aprilgrid:6x6:tag36h11")
        try Self.expectIdentified(found, as: "aprilgrid:6x6:tag36h11")
    }

    /// BoofCV's photos of a 10x8 circle grid reach close to the photos' edges: where the next row
    /// would lie outside the photo, the photo cannot tell the grid ends there. Nothing wrong is named.
    @Test func circleGridPhotosAreNeverNamedWrongly() throws {
        let regular = try Self.identify(Self.folder(Self.fixtures + "/circles-regular", first: 6), truth: "circles:10x8")
        if let pattern = regular.pattern { #expect(IdentificationSet.equivalent(pattern, try Pattern(parsing: "circles:10x8"))) }
        // A hexagonal lattice is no pattern here.
        let hexagonal = try Self.identify(Self.folder(Self.fixtures + "/circles-hexagonal"), truth: nil)
        #expect(hexagonal.pattern == nil)
    }
}
