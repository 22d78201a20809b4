import Dispatch
public import Pixels
import Synchronization

/// Finds out which target a few frames show, with no pattern given: its kind, size, dictionary or
/// tag family, a ChArUco board's layout and marker-to-square ratio, a grid's first id and spacing.
///
/// ```swift
/// let identifier = try PatternIdentifier()
/// let found = try identifier.identify(frames)          // the first few frames
/// print(found)                                          // found charuco:5x7:DICT_6X6_250 in 5 of 5 frames
/// if let pattern = found.pattern { let detector = try MarkerDetector(pattern: pattern) }
/// ```
///
/// Each frame is read for markers of every OpenCV predefined dictionary (OpenCV's marker candidates
/// found once, each read at the bit size its cells fit) and tags of every libapriltag family (with
/// their own border and with Kalibr's), which are fitted to the layouts of grid boards, AprilGrids
/// and ChArUco boards; with no board of markers, chessboards and circle grids are counted from
/// their squares and circles and confirmed by OpenCV's own finders. A board's size counts only
/// from frames that show where it ends. The frames' findings are weighed (``PatternIdentification``):
/// the target most of them show, if all of it is known and no other is nearly as well supported,
/// and then the frames in which its detector finds it are counted. Of the nested dictionaries
/// (`DICT_4X4_50` is the first 50 codes of `DICT_4X4_1000`), the smallest that holds the board's
/// (or the loose markers') ids is named.
///
/// An identifier may be used from any number of threads at once.
public final class PatternIdentifier: Sendable {
    private let tags: TagIdentifierHandle

    /// How many frames ``identify(_:)`` is meant for: enough to outvote a frame read wrongly.
    public static let typicalFrameCount = 5

    /// Makes an identifier, with the lookup tables of every AprilTag family (about 40 MB).
    ///
    /// - Throws: ``DetectionError/internalError(reason:)`` when memory runs out.
    public init() throws(DetectionError) {
        tags = try TagIdentifierHandle()
    }

    /// What one frame tells of its target: the layouts its markers form, its chessboard or circle
    /// grid. Wraps `atag_identifier_detect` (libapriltag) and `msd_identify` (OpenCV).
    ///
    /// - Throws: ``DetectionError/imageTooSmall(width:height:minimum:)`` and the errors of detection.
    public func examine(_ image: PixelBuffer) throws(DetectionError) -> FrameEvidence {
        let size = ImageSize(width: image.width, height: image.height)
        // OpenCV's markers first: when they form a board, that board is what the frame shows.
        let opened = try Shim.identify(image, tags: [], readMarkers: true, plainBoards: false)
        if opened.layouts.contains(where: { $0.kind != .loose }) {
            return FrameEvidence(imageSize: size, layouts: opened.layouts, markers: opened.markers)
        }
        let found = try tags.detect(image).map { tag in
            CodedMarker(codeSet: .tags(tag.family, borderCells: tag.borderCells), id: tag.id, corners: tag.corners)
        }
        let (layouts, markers) = try Shim.identify(image, tags: opened.markers + found, readMarkers: false, plainBoards: true)
        return FrameEvidence(imageSize: size, layouts: layouts, markers: markers)
    }

    /// Weighs what frames told (see ``examine(_:)``) into a pattern or a doubt, without counting
    /// the frames its detector finds it in (``PatternIdentification/framesShowing`` is then the
    /// frames that showed it to identification).
    public func decide(_ evidence: [FrameEvidence]) -> PatternIdentification {
        let outcome = PatternDecision.decide(evidence)
        return PatternIdentification(
            pattern: outcome.pattern, frames: evidence.count, framesShowing: outcome.frames, doubt: outcome.doubt,
            candidates: outcome.candidates)
    }

    /// Identifies the target `images` show: each examined (several at once, on all cores), their
    /// evidence weighed, and the pattern found checked by detecting it: in the image that showed it
    /// best (a pattern its own detector does not find there is a doubt), and in every image that
    /// did not show it to identification. ``PatternIdentification/framesShowing`` counts the images
    /// that showed it or in which it is found.
    ///
    /// - Throws: The first error an image gives (one too small, say).
    public func identify(_ images: [PixelBuffer]) throws(DetectionError) -> PatternIdentification {
        let evidence = try Self.each(images) { (image) throws(DetectionError) in try self.examine(image) }
        let outcome = PatternDecision.decide(evidence)
        var identification = PatternIdentification(
            pattern: outcome.pattern, frames: images.count, framesShowing: outcome.frames, doubt: outcome.doubt,
            candidates: outcome.candidates)
        guard let pattern = outcome.pattern, let best = outcome.bestFrame, images.indices.contains(best) else { return identification }
        let detector = try MarkerDetector(pattern: pattern)
        if try detector.detect(images[best]).isEmpty {
            identification.doubt = "its own detector does not find it in the frame that showed it best"
            identification.pattern = nil
            return identification
        }
        let others = images.indices.filter { !outcome.showing.contains($0) }.map { images[$0] }
        let found = try Self.each(others) { (image) throws(DetectionError) in try detector.detect(image) }
        identification.framesShowing = outcome.showing.count + found.filter { !$0.isEmpty }.count
        return identification
    }

    /// Identifies the target in image files (``identify(_:)``): the first `limit` of `paths` that
    /// can be read, decoded as gray; the others are passed over.
    ///
    /// - Returns: The identification (of no frames when none could be read) and the files looked at.
    /// - Throws: What ``identify(_:)`` throws.
    public func identify(imageFiles paths: [String], limit: Int = typicalFrameCount) throws(DetectionError)
        -> (identification: PatternIdentification, files: [String])
    {
        var images: [PixelBuffer] = []
        var files: [String] = []
        for path in paths where images.count < limit {
            guard let image = try? ImageFile.read(path, channels: .gray),
                image.width >= MarkerDetector.minimumImageSide, image.height >= MarkerDetector.minimumImageSide
            else { continue }
            images.append(image)
            files.append(path)
        }
        return (try identify(images), files)
    }

    /// `body` over every image, several at once; the results in the images' order.
    private static func each<T: Sendable>(_ images: [PixelBuffer], _ body: @Sendable (PixelBuffer) throws(DetectionError) -> T)
        throws(DetectionError) -> [T]
    {
        let results = Mutex([Result<T, DetectionError>?](repeating: nil, count: images.count))
        DispatchQueue.concurrentPerform(iterations: images.count) { index in
            let outcome: Result<T, DetectionError>
            do throws(DetectionError) {
                outcome = .success(try body(images[index]))
            } catch {
                outcome = .failure(error)
            }
            results.withLock { $0[index] = outcome }
        }
        var values: [T] = []
        for outcome in results.withLock({ $0 }) {
            switch outcome {
            case .success(let value): values.append(value)
            case .failure(let error): throw error
            case nil: break
            }
        }
        return values
    }
}
