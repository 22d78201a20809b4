// The only file that calls into COpenCVShim. It holds every unsafe pointer, checks every status
// and owns every C++ object through a final class whose deinit frees it.

import COpenCVShim
import CShimCore
import Pixels
import ShimCore

extension ShimFailure {
    /// A failure the Swift side of the OpenCV shim finds.
    fileprivate static func detection(_ status: shim_status, _ message: String) -> ShimFailure {
        ShimFailure(status: status, area: .SHIM_AREA_DETECTION, message: message)
    }

    var detectionError: DetectionError {
        switch status {
        case .SHIM_STATUS_IMAGE_TOO_SMALL: .imageTooSmall(width: width, height: height, minimum: Shim.minimumDetectionSide)
        case .SHIM_STATUS_INVALID_ARGUMENT: .invalidImage(reason: message)
        case .SHIM_STATUS_LIBRARY_ERROR: .openCV(reason: message)
        default: .internalError(reason: message)
        }
    }

    func imageFileError(path: String?, limit: Int) -> ImageFileError {
        switch status {
        case .SHIM_STATUS_IO: .unreadable(path: path ?? "", errno: systemErrno)
        case .SHIM_STATUS_NOT_REGULAR_FILE: .notARegularFile(path: path ?? "", kind: message)
        case .SHIM_STATUS_FILE_TOO_LARGE: .fileTooLarge(path: path ?? "", bytes: fileBytes, limit: Shim.imageFileByteLimit)
        case .SHIM_STATUS_EMPTY_INPUT: .empty(path: path)
        case .SHIM_STATUS_UNRECOGNIZED_FORMAT: .unrecognizedFormat(path: path)
        case .SHIM_STATUS_TRUNCATED: .truncated(path: path)
        case .SHIM_STATUS_TOO_MANY_PIXELS: .tooManyPixels(path: path, width: width, height: height, limit: limit)
        default: .undecodable(path: path, reason: message)
        }
    }
}

/// Calls `body` with an error record and throws when it returns a failure status.
private func check(_ body: (UnsafeMutablePointer<shim_error>) -> shim_status) throws(ShimFailure) {
    try ShimFailure.check(body)
}

/// Calls `body` with `image`'s pixels described for the shim (read in place, not copied).
private func withPixels<R>(
    _ image: PixelBuffer, _ body: (UnsafePointer<shim_pixels>) throws(ShimFailure) -> R
) throws(ShimFailure) -> R {
    try image.withShimPixels(area: .SHIM_AREA_DETECTION, body)
}

/// Wraps an image the shim owns as a `PixelBuffer` without copying it; the buffer frees the image
/// when its last reference goes.
private func pixelBuffer(adopting image: OpaquePointer) throws(ShimFailure) -> PixelBuffer {
    var pixels = shim_pixels()
    do throws(ShimFailure) {
        try check { msd_image_pixels_get(image, &pixels, $0) }
    } catch {
        msd_image_free(image)
        throw error
    }
    let format = PixelFormat(pixels.format)
    let address = UInt(bitPattern: Int(bitPattern: image))
    let memory = UnsafeMutableRawBufferPointer(
        start: UnsafeMutableRawPointer(mutating: pixels.data), count: pixels.row_stride * Int(pixels.height))
    do {
        return try PixelBuffer(
            borrowing: memory, width: Int(pixels.width), height: Int(pixels.height), format: format,
            rowStride: pixels.row_stride
        ) { _ in msd_image_free(OpaquePointer(bitPattern: address)) }
    } catch {
        msd_image_free(image)
        throw .detection(.SHIM_STATUS_INTERNAL_ERROR, "\(error)")
    }
}

enum Shim {
    /// The smallest width and height the shim detects in (msd_detector_detect refuses smaller).
    static let minimumDetectionSide = 16
    /// The largest image file msd_image_read reads.
    static let imageFileByteLimit = Int(MSD_IMAGE_FILE_MAX_BYTES)
    /// The most scans a JPEG may have to be decoded.
    static let jpegScanLimit = Int(MSD_JPEG_MAX_SCANS)
    /// The largest width and height msd_detector_render draws.
    static let maximumRenderSide = Int(MSD_RENDER_MAX_SIDE)

    /// OpenCV's worker thread count (`cv::getNumThreads` / `cv::setNumThreads`).
    static var threadCount: Int {
        get {
            var count: Int32 = 0
            _ = msd_threads_get(&count, nil)
            return Int(count)
        }
        set {
            _ = msd_threads_set(Int32(clamping: newValue), nil)
        }
    }

    /// The OpenCV the process runs with (`cv::getVersionString()`) and the one the shim was
    /// compiled against (`CV_VERSION`), from msd_opencv_version_get.
    static func openCVVersion() -> (running: String, built: String) {
        var version = msd_opencv_version()
        guard msd_opencv_version_get(&version, nil) == .SHIM_STATUS_OK else { return ("unknown", "unknown") }
        func text<T>(_ field: inout T) -> String {
            withUnsafeBytes(of: &field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        return (text(&version.running), text(&version.built))
    }

    /// Decodes an image file (msd_image_read_as) or bytes (msd_image_decode_as) into BGR24 or GRAY8 pixels.
    static func decode(path: String?, bytes: [UInt8], pixelLimit: Int, channels: ImageFile.Channels) throws(ImageFileError) -> PixelBuffer {
        var image: OpaquePointer?
        let wanted = channels == .gray ? MSD_IMAGE_CHANNELS_GRAY : MSD_IMAGE_CHANNELS_BGR
        do throws(ShimFailure) {
            try check { error in
                if let path {
                    msd_image_read_as(path, Int64(pixelLimit), wanted, &image, error)
                } else {
                    bytes.withUnsafeBufferPointer {
                        msd_image_decode_as($0.baseAddress, $0.count, Int64(pixelLimit), wanted, &image, error)
                    }
                }
            }
            guard let image else { throw .detection(.SHIM_STATUS_INTERNAL_ERROR, "no image returned") }
            return try pixelBuffer(adopting: image)
        } catch {
            throw error.imageFileError(path: path, limit: pixelLimit)
        }
    }

    /// Reads an image header without decoding (msd_image_header_read).
    static func header(of bytes: [UInt8]) throws(ImageFileError) -> ImageFile.Header {
        var header = msd_image_header()
        do throws(ShimFailure) {
            try check { error in bytes.withUnsafeBufferPointer { msd_image_header_read($0.baseAddress, $0.count, &header, error) } }
        } catch {
            throw error.imageFileError(path: nil, limit: 0)
        }
        let format: ImageFile.Format =
            switch header.format {
            case .MSD_FILE_FORMAT_JPEG: .jpeg
            case .MSD_FILE_FORMAT_PNG: .png
            case .MSD_FILE_FORMAT_BMP: .bmp
            case .MSD_FILE_FORMAT_TIFF: .tiff
            }
        return ImageFile.Header(format: format, width: Int(header.width), height: Int(header.height))
    }

    /// Encodes pixels as PNG or JPEG (msd_image_encode).
    static func encode(_ image: PixelBuffer, png: Bool, jpegQuality: Int) throws(ImageFileError) -> [UInt8] {
        var encoded: OpaquePointer?
        do throws(ShimFailure) {
            try withPixels(image) { (pixels) throws(ShimFailure) in
                try check {
                    msd_image_encode(
                        pixels, png ? .MSD_FILE_FORMAT_PNG : .MSD_FILE_FORMAT_JPEG, Int32(clamping: jpegQuality), &encoded, $0)
                }
            }
            defer { msd_bytes_free(encoded) }
            var data: UnsafePointer<UInt8>?
            var count = 0
            try check { msd_bytes_get(encoded, &data, &count, $0) }
            return Array(UnsafeBufferPointer(start: data, count: count))
        } catch {
            throw .unencodable(reason: error.message)
        }
    }

    /// Draws a detection on a BGR24 copy of `image` (msd_image_annotate).
    static func annotate(_ image: PixelBuffer, with detection: Detection, badge: Annotation.Badge?) throws(DetectionError)
        -> PixelBuffer
    {
        let markerIDs = detection.markers.map { Int32(clamping: $0.id) }
        let markerCorners = detection.markers.flatMap { $0.corners.flatMap { [Float($0.x), Float($0.y)] } }
        let cornerIDs = detection.boardCorners.map { Int32(clamping: $0.id) }
        let cornerPoints = detection.boardCorners.flatMap { [Float($0.point.x), Float($0.point.y)] }
        let text = badge.map { String($0.text.unicodeScalars.map { $0.isASCII ? Character($0) : "?" }) }
        var result: OpaquePointer?
        do throws(ShimFailure) {
            try withPixels(image) { (pixels) throws(ShimFailure) in
                try check { error in
                    markerIDs.withUnsafeBufferPointer { markerIDs in
                        markerCorners.withUnsafeBufferPointer { markerCorners in
                            cornerIDs.withUnsafeBufferPointer { cornerIDs in
                                cornerPoints.withUnsafeBufferPointer { cornerPoints in
                                    withOptionalCString(text) { badgeText in
                                        let drawn = msd_detection_view(
                                            marker_count: markerIDs.count, marker_ids: markerIDs.baseAddress,
                                            marker_corners: markerCorners.baseAddress, corner_count: cornerIDs.count,
                                            corner_ids: cornerIDs.baseAddress, corner_points: cornerPoints.baseAddress,
                                            has_sharpness: 0, sharpness: 0)
                                        var annotation = msd_annotation(
                                            detection: drawn, badge_text: badgeText, badge_ok: badge?.isOK == true ? 1 : 0)
                                        return msd_image_annotate(pixels, &annotation, &result, error)
                                    }
                                }
                            }
                        }
                    }
                }
            }
            guard let result else { throw .detection(.SHIM_STATUS_INTERNAL_ERROR, "no image returned") }
            return try pixelBuffer(adopting: result)
        } catch {
            throw error.detectionError
        }
    }

    private static func withOptionalCString<R>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
        guard let text else { return body(nil) }
        return text.withCString { body($0) }
    }
}

extension Shim {
    /// What target `image` shows (msd_identify): markers of every predefined dictionary, with the
    /// tags given, fitted to board layouts; chessboards and circle grids with `plainBoards`.
    static func identify(
        _ image: PixelBuffer, tags: [CodedMarker], readMarkers: Bool, plainBoards: Bool
    ) throws(DetectionError) -> (layouts: [LayoutObservation], markers: [CodedMarker]) {
        let extra = tags.map { tag in
            var marker = msd_coded_marker()
            marker.code_set = tag.codeSet.shimValue
            marker.id = Int32(clamping: tag.id)
            withUnsafeMutableBytes(of: &marker.corners) { raw in
                let values = raw.bindMemory(to: Float.self)
                for (index, point) in tag.corners.prefix(4).enumerated() {
                    values[2 * index] = Float(point.x)
                    values[2 * index + 1] = Float(point.y)
                }
            }
            return marker
        }
        var options = msd_identify_options(read_markers: readMarkers ? 1 : 0, plain_boards: plainBoards ? 1 : 0)
        var identification: OpaquePointer?
        do throws(ShimFailure) {
            try withPixels(image) { (pixels) throws(ShimFailure) in
                try check { error in
                    extra.withUnsafeBufferPointer { msd_identify(pixels, $0.baseAddress, $0.count, &options, &identification, error) }
                }
            }
            defer { msd_identification_free(identification) }
            var view = msd_identification_view()
            try check { msd_identification_view_get(identification, &view, $0) }
            let layouts = UnsafeBufferPointer(start: view.layouts, count: view.layout_count).map { layout in
                let kind: LayoutObservation.Kind =
                    switch layout.kind {
                    case .MSD_LAYOUT_LOOSE: .loose
                    case .MSD_LAYOUT_GRID: .grid
                    case .MSD_LAYOUT_CHARUCO: .charuco
                    case .MSD_LAYOUT_CHESSBOARD: .chessboard
                    case .MSD_LAYOUT_CIRCLES: .circles
                    case .MSD_LAYOUT_ACIRCLES: .acircles
                    }
                return LayoutObservation(
                    kind: kind, codeSet: CodeSet(shimValue: layout.code_set), features: Int(layout.features),
                    minimumID: Int(layout.min_id), maximumID: Int(layout.max_id),
                    columns: layout.columns > 0 ? Int(layout.columns) : nil, rows: layout.rows > 0 ? Int(layout.rows) : nil,
                    minimumRows: Int(layout.min_rows), firstID: layout.first_id >= 0 ? Int(layout.first_id) : nil,
                    idsUp: layout.ids_up != 0, markerAtOrigin: layout.marker_at_origin != 0,
                    ratio: layout.ratio > 0 && layout.ratio.isFinite ? layout.ratio : nil,
                    columnsAcross: layout.columns_across != 0, error: layout.error)
            }
            let markers = UnsafeBufferPointer(start: view.markers, count: view.marker_count).compactMap { marker -> CodedMarker? in
                guard let codeSet = CodeSet(shimValue: marker.code_set) else { return nil }
                var coordinates = marker.corners
                let corners = withUnsafeBytes(of: &coordinates) { raw in
                    let values = raw.bindMemory(to: Float.self)
                    return (0..<4).map { ImagePoint(x: Double(values[2 * $0]), y: Double(values[2 * $0 + 1])) }
                }
                return CodedMarker(codeSet: codeSet, id: Int(marker.id), corners: corners)
            }
            return (layouts, markers)
        } catch {
            throw error.detectionError
        }
    }
}

/// Owns one C++ detector (msd_detector): the pattern's dictionary, board and detector parameters.
///
/// @unchecked Sendable: the C++ object is never changed after msd_detector_create, and
/// msd_detector_detect and msd_detector_render only read it, so any number of threads may use one
/// handle at once.
final class DetectorHandle: @unchecked Sendable {
    private let detector: OpaquePointer

    /// Makes the detector (msd_dictionary_create_predefined or msd_dictionary_create_from_file, then
    /// msd_detector_create).
    init(pattern: Pattern) throws(DetectionError) {
        func int32(_ value: Int, _ what: String) throws(DetectionError) -> Int32 {
            guard let value = Int32(exactly: value) else { throw .invalidPattern(reason: "\(what) \(value) is beyond 32-bit integers") }
            return value
        }
        let dictionary = try pattern.dictionary.map { (dictionary) throws(DetectionError) in try DictionaryHandle(dictionary) }
        var description = msd_pattern()
        // The kind of a board, with its columns and rows.
        func describe(_ kind: msd_pattern_kind, columns: Int, rows: Int) throws(DetectionError) {
            description.kind = kind
            description.columns = try int32(columns, "columns")
            description.rows = try int32(rows, "rows")
        }
        switch pattern {
        case .aruco:
            description.kind = MSD_PATTERN_ARUCO
        case .gridBoard(let board):
            try describe(MSD_PATTERN_ARUCO_GRID, columns: board.columns, rows: board.rows)
            description.marker_length = board.markerLength
            description.marker_separation = board.markerSeparation
            guard let first = Int32(exactly: board.firstMarker) else {
                throw .invalidPattern(reason: "first=\(board.firstMarker) is beyond the marker ids of any dictionary")
            }
            description.first_marker = first
        case .charuco(let board):
            try describe(MSD_PATTERN_CHARUCO, columns: board.columns, rows: board.rows)
            description.square_length = board.squareLength
            description.marker_length = board.markerLength
            description.legacy_layout = board.legacyLayout ? 1 : 0
        case .chessboard(let board):
            try describe(MSD_PATTERN_CHESSBOARD, columns: board.columns, rows: board.rows)
        case .circleGrid(let grid):
            try describe(grid.asymmetric ? MSD_PATTERN_ACIRCLES : MSD_PATTERN_CIRCLES, columns: grid.columns, rows: grid.rows)
            description.square_length = grid.spacing
        case .aprilTag, .aprilGrid:
            throw .invalidPattern(reason: "\(pattern) is detected with libapriltag, not OpenCV")
        }
        var detector: OpaquePointer?
        do throws(ShimFailure) {
            try check { error in
                withExtendedLifetime(dictionary) { msd_detector_create(&description, dictionary?.pointer, &detector, error) }
            }
        } catch {
            throw error.status == .SHIM_STATUS_INVALID_ARGUMENT ? .invalidPattern(reason: error.message) : error.detectionError
        }
        guard let detector else { throw .internalError(reason: "msd_detector_create returned no detector") }
        self.detector = detector
    }

    deinit { msd_detector_free(detector) }

    /// Detects in `image`, read in place, searching `region` (the whole image when `nil`) in
    /// `mode`, as far as `search` says in fast mode (msd_detector_detect_with).
    func detect(_ image: PixelBuffer, mode: DetectionMode, region: ImageRegion?, search: FastSearch = .complete,
                hint: RegionTracker? = nil) throws(DetectionError)
        -> (markers: [Marker], corners: [BoardCorner], sharpness: Double?)
    {
        var options = msd_detect_options()
        options.mode = mode == .fast ? MSD_DETECT_FAST : MSD_DETECT_FULL
        switch search {
        case .complete: break
        case .downscaled: options.downscaled_only = 1
        case .downscaledPass(let pass):
            options.downscaled_only = 1
            options.downscaled_pass = Int32((pass % 1024 + 1024) % 1024 + 1)  // the shim wraps around the passes
        }
        if let region {
            options.region_x = Int32(clamping: region.x)
            options.region_y = Int32(clamping: region.y)
            options.region_width = Int32(clamping: region.width)
            options.region_height = Int32(clamping: region.height)
        }
        if let hint {
            options.hint = 1
            if let near = hint.region {
                options.hint_x = Int32(clamping: near.x)
                options.hint_y = Int32(clamping: near.y)
                options.hint_width = Int32(clamping: near.width)
                options.hint_height = Int32(clamping: near.height)
            }
            if let side = hint.featureSide, side.isFinite, side > 0 { options.hint_feature_side = side }
        }
        var detection: OpaquePointer?
        do throws(ShimFailure) {
            try withPixels(image) { (pixels) throws(ShimFailure) in
                try check { msd_detector_detect_with(detector, pixels, &options, &detection, $0) }
            }
            defer { msd_detection_free(detection) }
            var view = msd_detection_view()
            try check { msd_detection_view_get(detection, &view, $0) }
            let markers = (0..<view.marker_count).map { index in
                Marker(id: Int(view.marker_ids[index]), corners: (0..<4).map { corner in
                    ImagePoint(
                        x: Double(view.marker_corners[8 * index + 2 * corner]),
                        y: Double(view.marker_corners[8 * index + 2 * corner + 1]))
                })
            }
            let corners = (0..<view.corner_count).map { index in
                BoardCorner(
                    id: Int(view.corner_ids[index]),
                    point: ImagePoint(x: Double(view.corner_points[2 * index]), y: Double(view.corner_points[2 * index + 1])))
            }
            return (markers, corners, view.has_sharpness != 0 ? view.sharpness : nil)
        } catch {
            throw error.detectionError
        }
    }

    /// The scale fast mode shrinks a `width` x `height` image by (1: not at all;
    /// msd_detector_fast_scale_get).
    func fastScale(width: Int, height: Int) -> Double {
        var scale = 1.0
        guard msd_detector_fast_scale_get(detector, Int32(clamping: width), Int32(clamping: height), &scale, nil)
            == .SHIM_STATUS_OK
        else { return 1 }
        return scale
    }

    /// Draws the pattern as a printable gray image (msd_detector_render).
    func render(width: Int, height: Int, margin: Int) throws(DetectionError) -> PixelBuffer {
        guard width <= Shim.maximumRenderSide, height <= Shim.maximumRenderSide else {
            throw .cannotRender(reason: "\(width)x\(height) pixels is larger than \(Shim.maximumRenderSide) pixels a side")
        }
        var image: OpaquePointer?
        do throws(ShimFailure) {
            try check {
                msd_detector_render(
                    detector, Int32(clamping: width), Int32(clamping: height), Int32(clamping: margin), &image, $0)
            }
            guard let image else { throw .detection(.SHIM_STATUS_INTERNAL_ERROR, "no image returned") }
            return try pixelBuffer(adopting: image)
        } catch {
            throw error.status == .SHIM_STATUS_INVALID_ARGUMENT ? .cannotRender(reason: error.message) : error.detectionError
        }
    }
}

/// Owns one C++ marker dictionary (msd_dictionary) while a detector is made from it.
private final class DictionaryHandle {
    let pointer: OpaquePointer

    init(_ dictionary: MarkerDictionary) throws(DetectionError) {
        var pointer: OpaquePointer?
        do throws(ShimFailure) {
            switch dictionary {
            case .predefined(let name):
                try check { msd_dictionary_create_predefined(Self.shimName(name), &pointer, $0) }
            case .file(let path):
                try check { msd_dictionary_create_from_file(path, &pointer, $0) }
            }
        } catch {
            switch (error.status, dictionary) {
            case (.SHIM_STATUS_IO, .file(let path)): throw .dictionaryUnreadable(path: path, errno: error.systemErrno)
            case (.SHIM_STATUS_INVALID_DICTIONARY, .file(let path)), (.SHIM_STATUS_FILE_TOO_LARGE, .file(let path)):
                throw .invalidDictionary(path: path, reason: error.message)
            case (.SHIM_STATUS_NOT_REGULAR_FILE, .file(let path)):
                throw .invalidDictionary(path: path, reason: "dictionary file '\(path)' is a \(error.message), not a regular file")
            default: throw error.detectionError
            }
        }
        guard let pointer else { throw .internalError(reason: "no dictionary returned") }
        self.pointer = pointer
    }

    deinit { msd_dictionary_free(pointer) }

    private static func shimName(_ name: PredefinedDictionary) -> msd_predefined_dictionary {
        switch name {
        case .dict4x4_50: MSD_DICT_4X4_50
        case .dict4x4_100: MSD_DICT_4X4_100
        case .dict4x4_250: MSD_DICT_4X4_250
        case .dict4x4_1000: MSD_DICT_4X4_1000
        case .dict5x5_50: MSD_DICT_5X5_50
        case .dict5x5_100: MSD_DICT_5X5_100
        case .dict5x5_250: MSD_DICT_5X5_250
        case .dict5x5_1000: MSD_DICT_5X5_1000
        case .dict6x6_50: MSD_DICT_6X6_50
        case .dict6x6_100: MSD_DICT_6X6_100
        case .dict6x6_250: MSD_DICT_6X6_250
        case .dict6x6_1000: MSD_DICT_6X6_1000
        case .dict7x7_50: MSD_DICT_7X7_50
        case .dict7x7_100: MSD_DICT_7X7_100
        case .dict7x7_250: MSD_DICT_7X7_250
        case .dict7x7_1000: MSD_DICT_7X7_1000
        case .arucoOriginal: MSD_DICT_ARUCO_ORIGINAL
        case .aprilTag16h5: MSD_DICT_APRILTAG_16h5
        case .aprilTag25h9: MSD_DICT_APRILTAG_25h9
        case .aprilTag36h10: MSD_DICT_APRILTAG_36h10
        case .aprilTag36h11: MSD_DICT_APRILTAG_36h11
        }
    }
}
