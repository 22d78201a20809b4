import Dispatch
import MarkerDetection
import MarkerDetectionTestSupport
import Pixels
import Synchronization
import Testing

/// libapriltag 3 detection: the AprilTag 3 library's own ground truth on a real photo, AprilGrids
/// this package draws seen through known homographies, and photos without AprilTags.
@Suite struct AprilTagDetectionTests {
    // MARK: Real photo

    /// The ground truth comes from a newer libapriltag than Debian's 3.3 (with its defaults). 3.3
    /// with its default `decimate=2` finds the 9 larger tags (so does its own test program, with its
    /// own JPEG decoder, on this photo); at full resolution it finds all 12, and full resolution is
    /// the pattern's default for an image this small (799x533). libapriltag puts pixel
    /// centres at +0.5 and lists corners counter-clockwise from the tag's bottom-left; detections
    /// put pixel centres at whole numbers and list corners clockwise from the top-left.
    @Test(
        .enabled(if: SharedImages.available, Comment(rawValue: SharedImages.missing)),
        arguments: [("apriltag:tag36h11", 12), ("apriltag:tag36h11:decimate=1", 12), ("apriltag:tag36h11:decimate=2", 9)])
    func cubesMatchTheGroundTruth(pattern: String, count: Int) throws {
        let truth = try SharedImages.cubesTruth()
        #expect(truth.count == 12)
        let detector = try MarkerDetector(pattern: Pattern(parsing: pattern))
        let detection = try detector.detect(ImageFile.read(SharedImages.path("apriltag/cubes.jpg")))
        #expect(detection.markers.count == count)
        func error(_ marker: Marker, _ tag: (id: Int, corners: [ImagePoint])) -> Double {
            let expected = tag.corners.reversed().map { ImagePoint(x: $0.x - 0.5, y: $0.y - 0.5) }
            return zip(marker.corners, expected).map { $0.distance(to: $1) }.max()!
        }
        // Each detection is one ground-truth tag, within 1 px at every corner.
        for marker in detection.markers {
            let nearest = truth.filter { $0.id == marker.id }.map { error(marker, $0) }.min() ?? .infinity
            #expect(nearest <= 1, "tag at \(marker.corners[0]) is \(nearest) px from the nearest ground-truth tag")
        }
        let matched = truth.filter { tag in detection.markers.contains { error($0, tag) <= 1 } }
        #expect(matched.count == count)
        #expect(detection.isValid(under: ValidityRule(defaultsFor: detector.pattern)))
    }

    /// The OpenCV path for the same family stays available for comparison (see RealPhotoTests for
    /// what it finds on this photo).
    @Test func openCVAprilTagDictionaryStillUsesOpenCV() throws {
        let pattern = try Pattern(parsing: "aruco:DICT_APRILTAG_36h11")
        #expect(pattern.dictionary == .predefined(.aprilTag36h11))
        #expect(pattern.aprilTagFamily == nil)
        let sheet = try PrintableTarget.renderTagSheet(family: .tag36h11, columns: 3, rows: 2, width: 900, height: 620)
        let openCV = try MarkerDetector(pattern: pattern).detect(sheet)
        let libapriltag = try MarkerDetector(pattern: Pattern(parsing: "apriltag:tag36h11")).detect(sheet)
        #expect(openCV.markers.map(\.id).sorted() == Array(0..<6))
        #expect(libapriltag.markers.map(\.id).sorted() == Array(0..<6))
    }

    @Test(.enabled(if: SharedImages.available, Comment(rawValue: SharedImages.missing)))
    func oneDetectorServesManyThreadsWithTheSameResults() throws {
        let detector = try MarkerDetector(pattern: Pattern(parsing: "apriltag:tag36h11"))
        let image = try ImageFile.read(SharedImages.path("apriltag/cubes.jpg"))
        let alone = try detector.detect(image).markers
        let results = Results(count: 8)
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            results.set(index, (try? detector.detect(image))?.markers)
        }
        for index in 0..<8 { #expect(results.get(index) == alone) }
    }

    // MARK: Every family

    /// Draws the family's last id on a sheet and finds it: the family's code count is libapriltag's,
    /// and drawing and detection agree on every family.
    @Test(arguments: AprilTagFamily.allCases)
    func lastIdOfEachFamilyIsDrawnAndFound(family: AprilTagFamily) throws {
        let last = family.codeCount - 1
        let sheet = try PrintableTarget.renderTagSheet(
            family: family, columns: 1, rows: 1, firstTag: last, width: 400, height: 400)
        let detection = try MarkerDetector(pattern: .aprilTag(family, AprilTagOptions())).detect(sheet)
        #expect(detection.markers.map(\.id) == [last])
        #expect(throws: DetectionError.self) {
            try PrintableTarget.renderTagSheet(family: family, columns: 1, rows: 1, firstTag: last + 1, width: 400, height: 400)
        }
    }

    // MARK: No false detections

    static let photosWithoutAprilTags = [
        "aruco/singlemarkers.jpg", "aruco/gridboard.png", "charuco/board.jpg",
    ] + (1...9).map { "chessboard/left0\($0).jpg" }

    @Test(
        .enabled(if: SharedImages.available, Comment(rawValue: SharedImages.missing)),
        arguments: ["apriltag:tag36h11", "apriltag:tag25h9", "apriltag:tag16h5", "apriltag:tagStandard41h12",
                    "apriltag:tagCircle21h7", "apriltag:tagStandard52h13", "apriltag:tagCustom48h12",
                    "aprilgrid:6x6:tag36h11", "aprilgrid:5x6:tag16h5"])
    func photosWithoutAprilTagsHaveNone(pattern: String) throws {
        let detector = try MarkerDetector(pattern: Pattern(parsing: pattern))
        for photo in Self.photosWithoutAprilTags {
            let detection = try detector.detect(ImageFile.read(SharedImages.path(photo)))
            #expect(detection.isEmpty, "\(photo): \(detection.markers.map(\.id))")
        }
    }

    // MARK: Synthetic AprilGrids

    struct View: CustomTestStringConvertible, Sendable {
        let width: Int
        let height: Int
        let tiltX: Double
        let tiltY: Double
        let distance: Double
        /// A dark rectangle over part of the frame, as fractions of its size: x0, y0, x1, y1.
        let occluder: (Double, Double, Double, Double)?
        var testDescription: String {
            "\(width)x\(height), tilt \(tiltX)/\(tiltY) deg at \(distance)\(occluder == nil ? "" : ", occluded")"
        }
    }

    static let views: [View] = [
        View(width: 640, height: 480, tiltX: 0, tiltY: 0, distance: 1.6, occluder: nil),
        View(width: 640, height: 480, tiltX: 30, tiltY: -20, distance: 1.7, occluder: (0.55, 0.1, 0.8, 0.5)),
        View(width: 640, height: 480, tiltX: 0, tiltY: 10, distance: 1.05, occluder: nil),  // cut by the frame
        View(width: 1280, height: 720, tiltX: 45, tiltY: 0, distance: 1.6, occluder: (0.3, 0.5, 0.45, 1.0)),
        View(width: 1280, height: 720, tiltX: 0, tiltY: 50, distance: 1.5, occluder: nil),
        View(width: 1920, height: 1080, tiltX: 20, tiltY: 30, distance: 1.5, occluder: (0.6, 0.0, 0.7, 0.6)),
        View(width: 1920, height: 1080, tiltX: -35, tiltY: -25, distance: 2.2, occluder: nil),
    ]

    /// A 6x6 AprilGrid drawn by PrintableTarget, viewed through a pinhole camera (focal length 1.1
    /// frame widths), blurred (sigma 1 px), partly covered and made noisy (sigma 4 grey levels).
    /// Every tag whose corner squares are all in view and clear of the cover is found with its four
    /// corners; every corner found is within 0.5 px of where the homography puts it.
    @Test(arguments: views)
    func aprilGridUnderPerspective(view: View) throws {
        let grid = AprilGrid(columns: 6, rows: 6)
        let (board, boardCorners) = try PrintableTarget.renderAprilGrid(grid, width: 1200, height: 1200, margin: 40)
        let homography = Homography.camera(
            sourceWidth: board.width, sourceHeight: board.height, targetWidth: view.width, targetHeight: view.height,
            tiltX: view.tiltX, tiltY: view.tiltY, distance: view.distance, focal: 1.1 * Double(view.width))
        var image = try SyntheticImage.blur(
            SyntheticImage.warp(board, by: homography, width: view.width, height: view.height, background: 200), sigma: 1)
        var cover: (x0: Double, y0: Double, x1: Double, y1: Double)?
        if let (x0, y0, x1, y1) = view.occluder {
            let box = (x0 * Double(view.width), y0 * Double(view.height), x1 * Double(view.width), y1 * Double(view.height))
            cover = box
            image = try Self.covering(image, x0: Int(box.0), y0: Int(box.1), x1: Int(box.2), y1: Int(box.3), value: 70)
        }
        image = try SyntheticImage.addNoise(image, sigma: 4, seed: 11)

        let truth = Dictionary(uniqueKeysWithValues: boardCorners.map {
            ($0.id, ImagePoint(x: homography.apply(x: $0.point.x, y: $0.point.y).x, y: homography.apply(x: $0.point.x, y: $0.point.y).y))
        })
        // A tag counts as visible when the square around it that its corner squares span is inside
        // the frame (3 px in) and clear of the cover (3 px away).
        let byID = Dictionary(uniqueKeysWithValues: boardCorners.map { ($0.id, $0.point) })
        func cornerIDs(_ tag: Int) -> [Int] {
            [(false, false), (true, false), (true, true), (false, true)].map { grid.cornerID(tag: tag, right: $0.0, top: $0.1) }
        }
        let visible = grid.tagIDs.filter { tag in
            let points = cornerIDs(tag).map { byID[$0]! }
            let side = points[1].x - points[0].x
            let reach = side * grid.tagSpacing + 1
            let (minX, maxX) = (points.map(\.x).min()! - reach, points.map(\.x).max()! + reach)
            let (minY, maxY) = (points.map(\.y).min()! - reach, points.map(\.y).max()! + reach)
            let outline = [(minX, minY), (maxX, minY), (maxX, maxY), (minX, maxY)].map { homography.apply(x: $0.0, y: $0.1) }
            let inFrame = outline.allSatisfy { $0.x >= 3 && $0.y >= 3 && $0.x <= Double(view.width - 4) && $0.y <= Double(view.height - 4) }
            guard let cover else { return inFrame }
            let clear = outline.map(\.x).max()! < cover.x0 - 3 || outline.map(\.x).min()! > cover.x1 + 3
                || outline.map(\.y).max()! < cover.y0 - 3 || outline.map(\.y).min()! > cover.y1 + 3
            return inFrame && clear
        }
        #expect(visible.count >= 8, "the view shows too little of the grid to test anything")

        let detection = try MarkerDetector(pattern: .aprilGrid(grid)).detect(image)
        let found = Set(detection.markers.map(\.id))
        #expect(found.count == detection.markers.count, "a tag id is reported twice")
        #expect(Set(visible).isSubset(of: found), "missed tags \(Set(visible).subtracting(found).sorted())")
        let corners = Set(detection.boardCorners.map(\.id))
        let expectedCorners = Set(visible.flatMap(cornerIDs))
        #expect(expectedCorners.isSubset(of: corners), "missed corners \(expectedCorners.subtracting(corners).sorted())")
        for corner in detection.boardCorners {
            let error = try #require(truth[corner.id]).distance(to: corner.point)
            #expect(error <= 0.5, "corner \(corner.id) at \(corner.point) is off by \(error) px")
        }
        #expect(detection.isValid(under: ValidityRule(defaultsFor: .aprilGrid(grid))))
    }

    /// `image` with a filled rectangle.
    static func covering(_ image: PixelBuffer, x0: Int, y0: Int, x1: Int, y1: Int, value: UInt8) throws -> PixelBuffer {
        try image.withUnsafeBytes { source in
            try PixelBuffer(width: image.width, height: image.height, format: .gray8) { target in
                for y in 0..<image.height {
                    for x in 0..<image.width {
                        let inside = x >= x0 && x < x1 && y >= y0 && y < y1
                        target[y * image.width + x] = inside ? value : source[y * image.rowStride + x]
                    }
                }
            }
        }
    }
}

/// Results written by concurrent iterations, one slot each.
private final class Results: Sendable {
    private let slots: Mutex<[[Marker]?]>

    init(count: Int) { slots = Mutex(Array(repeating: nil, count: count)) }

    func set(_ index: Int, _ value: [Marker]?) { slots.withLock { $0[index] = value } }
    func get(_ index: Int) -> [Marker]? { slots.withLock { $0[index] } }
}
