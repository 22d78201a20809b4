public import Pixels

/// Finds one pattern in images: markers, board corners and how sharp the view is.
///
/// ```swift
/// let detector = try MarkerDetector(pattern: Pattern(parsing: "charuco:5x7:DICT_6X6_250"))
/// let detection = try detector.detect(try ImageFile.read("board.jpg"))
/// print(detection.boardCorners.count, detection.isValid(under: ValidityRule(defaultsFor: detector.pattern)))
/// ```
///
/// ## Threads
/// A detector is immutable once made, and ``detect(_:)`` keeps all its working memory on the
/// calling thread, so **one detector may be used from any number of threads at once**; there is no
/// need to make one per thread (making one touches no image: it builds the dictionary and board,
/// and reads the file of a custom dictionary). OpenCV also parallelises inside one detection
/// with its own worker threads; ``openCVThreadCount`` sets how many, process-wide. When running
/// several detections at once on a few cores, 1 avoids oversubscription.
public final class MarkerDetector: Sendable {
    /// The pattern this detector looks for.
    public let pattern: Pattern
    /// How it searches each image (AprilTag patterns and loose markers are always searched in full).
    public let mode: DetectionMode
    private let backend: Backend

    /// OpenCV for ArUco, ChArUco and chessboard patterns; libapriltag for AprilTag patterns.
    private enum Backend: Sendable {
        case openCV(DetectorHandle)
        case aprilTag(AprilTagBackend)
    }

    /// The smallest width and height ``detect(_:)`` accepts, in pixels.
    public static let minimumImageSide = Shim.minimumDetectionSide

    /// Makes a detector for `pattern`, reading its dictionary file if it has one.
    ///
    /// Wraps `msd_detector_create` (over `cv::aruco::getPredefinedDictionary` or
    /// `Dictionary::readDictionary`, and `CharucoBoard::create`), or for `apriltag:` and
    /// `aprilgrid:` patterns `atag_detector_create` (over libapriltag's `apriltag_detector_create`).
    /// - Throws: ``DetectionError/dictionaryUnreadable(path:errno:)`` or
    ///   ``DetectionError/invalidDictionary(path:reason:)`` for a bad dictionary file,
    ///   ``DetectionError/invalidPattern(reason:)`` for a board OpenCV cannot build.
    /// - Parameters:
    ///   - pattern: What to look for.
    ///   - mode: How to search each image; ``DetectionMode/fast`` finds what ``DetectionMode/full``
    ///     finds (see BENCHMARKS.md for the measurement), faster on large images.
    public init(pattern: Pattern, mode: DetectionMode = .fast) throws(DetectionError) {
        self.pattern = pattern
        self.mode = mode
        if let aprilTag = try AprilTagBackend(pattern: pattern) {
            self.backend = .aprilTag(aprilTag)
        } else {
            self.backend = .openCV(try DetectorHandle(pattern: pattern))
        }
    }

    /// Detects the pattern in `image`, reading its pixels in place (GRAY8, BGR24, RGB24 or YUYV).
    ///
    /// Markers come from `cv::aruco::detectMarkers` with default parameters; ChArUco corners from
    /// `cv::aruco::interpolateCornersCharuco`; chessboard corners from `cv::findChessboardCorners`.
    /// Every board corner is then settled on the image's saddle point around it (the estimator
    /// `cv::cornerSubPix` uses, with a reach that falls off smoothly), so that it does not depend
    /// on how the board was found. In ``mode`` `.fast` these run first on a downscaled copy (see ``DetectionMode``). Wraps `msd_detector_detect_with`. AprilTags come from libapriltag's
    /// `apriltag_detector_detect` (`atag_detector_detect`); AprilGrid corners are the tags' corners
    /// refined as X-junctions, and a corner that does not settle is left out.
    /// - Throws: ``DetectionError/imageTooSmall(width:height:minimum:)`` for an image smaller than
    ///   ``minimumImageSide`` either way; ``DetectionError/openCV(reason:)`` if OpenCV fails.
    public func detect(_ image: PixelBuffer) throws(DetectionError) -> Detection {
        try detect(image, within: nil)
    }

    /// Detects the pattern in the part of `image` that `region` covers, as ``detect(_:)`` does in
    /// the whole image; what is found is given in the whole image's coordinates. Wraps
    /// `msd_detector_detect_with`. AprilTag patterns search the whole image whatever `region` says.
    /// - Parameters:
    ///   - image: The pixels, read in place.
    ///   - region: Where to search; clipped to the image; `nil` searches the whole image.
    /// - Throws: As ``detect(_:)``; ``DetectionError/invalidImage(reason:)`` for a region that lies
    ///   outside the image.
    public func detect(_ image: PixelBuffer, within region: ImageRegion?) throws(DetectionError) -> Detection {
        try detect(image, within: region, search: .complete)
    }

    /// Detects as ``detect(_:within:)`` does, searching in ``mode`` `.fast` as far as `search` says:
    /// `.complete` is ``detect(_:within:)`` itself; `.downscaled` and `.downscaledPass(_:)` never
    /// search at full resolution (see ``FastSearch``), which live video needs at high resolutions.
    /// - Parameters:
    ///   - image: The pixels, read in place.
    ///   - region: Where to search; clipped to the image; `nil` searches the whole image.
    ///   - search: How far fast mode searches.
    /// - Throws: As ``detect(_:within:)``.
    public func detect(_ image: PixelBuffer, within region: ImageRegion?, search: FastSearch) throws(DetectionError) -> Detection {
        try timedDetection(of: image) { (handle) throws(DetectionError) in
            try handle.detect(image, mode: mode, region: region, search: search)
        }
    }

    /// Detects the pattern in one frame of a video, searching first where `tracker` (which followed
    /// the frames before, ``RegionTracker/follow(_:of:)``) says the board was, and at the scale its
    /// markers' size calls for: finds what ``detect(_:)`` finds, sooner when the board is where it
    /// was. Only ``DetectionMode/fast`` uses the tracker; AprilTag patterns and full mode search as
    /// ``detect(_:)`` does. Wraps `msd_detector_detect_with`.
    /// - Throws: As ``detect(_:)``.
    public func detect(_ image: PixelBuffer, following tracker: RegionTracker?) throws(DetectionError) -> Detection {
        try timedDetection(of: image) { (handle) throws(DetectionError) in
            try handle.detect(image, mode: mode, region: nil, hint: tracker)
        }
    }

    /// Runs `openCV` (or for AprilTag patterns libapriltag) on `image` and times it.
    private func timedDetection(
        of image: PixelBuffer,
        _ openCV: (DetectorHandle) throws(DetectionError) -> (markers: [Marker], corners: [BoardCorner], sharpness: Double?)
    ) throws(DetectionError) -> Detection {
        let clock = ContinuousClock()
        let start = clock.now
        let found =
            switch backend {
            case .openCV(let handle): try openCV(handle)
            case .aprilTag(let aprilTag): try aprilTag.detect(image)
            }
        let duration = clock.now - start
        return Detection(
            imageSize: ImageSize(width: image.width, height: image.height), markers: found.markers,
            boardCorners: found.corners, sharpness: found.sharpness, duration: duration)
    }

    /// How much ``DetectionMode/fast`` shrinks an image of `size` before its first pass (1: it
    /// does not, and searches as ``DetectionMode/full`` does).
    public func fastScale(for size: ImageSize) -> Double {
        switch backend {
        case .openCV(let handle): handle.fastScale(width: size.width, height: size.height)
        case .aprilTag: 1
        }
    }

    /// How many worker threads OpenCV uses inside one call (`cv::getNumThreads` /
    /// `cv::setNumThreads`), for the whole process. Setting 0 or 1 runs OpenCV's loops on the
    /// calling thread; a negative value restores OpenCV's default (one per core). AprilTag patterns
    /// do not follow it: libapriltag always runs on the calling thread.
    public static var openCVThreadCount: Int {
        get { Shim.threadCount }
        set { Shim.threadCount = newValue }
    }
}
