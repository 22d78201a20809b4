// The only file that calls into CAprilTagShim (libapriltag 3). It holds every unsafe pointer,
// checks every status and owns each detector through a final class whose deinit frees it.

import CAprilTagShim
import CShimCore
import Pixels
import ShimCore

/// Calls `body` with an error record and throws a ``DetectionError`` when it returns a failure.
private func check(_ body: (UnsafeMutablePointer<shim_error>) -> shim_status) throws(DetectionError) {
    do throws(ShimFailure) {
        try ShimFailure.check(body)
    } catch {
        switch error.status {
        case .SHIM_STATUS_INVALID_ARGUMENT: throw .invalidPattern(reason: error.message)
        default: throw .internalError(reason: error.message)
        }
    }
}

private func shimFamily(_ family: AprilTagFamily) -> atag_family {
    switch family {
    case .tag36h11: ATAG_FAMILY_TAG36H11
    case .tag25h9: ATAG_FAMILY_TAG25H9
    case .tag16h5: ATAG_FAMILY_TAG16H5
    case .tagStandard41h12: ATAG_FAMILY_TAGSTANDARD41H12
    case .tagStandard52h13: ATAG_FAMILY_TAGSTANDARD52H13
    case .tagCircle21h7: ATAG_FAMILY_TAGCIRCLE21H7
    case .tagCustom48h12: ATAG_FAMILY_TAGCUSTOM48H12
    case .tag36h10: ATAG_FAMILY_TAG36H10
    case .tagCircle49h12: ATAG_FAMILY_TAGCIRCLE49H12
    }
}

/// Checks that `image` fits 32-bit sizes and is large enough to detect in, then calls `body` with its
/// pixels described for the shim (read in place, not copied).
private func withTagPixels(
    _ image: PixelBuffer, _ body: (UnsafePointer<shim_pixels>) throws(DetectionError) -> Void
) throws(DetectionError) {
    guard let width = Int32(exactly: image.width), let height = Int32(exactly: image.height) else {
        throw .invalidImage(reason: "\(image.width)x\(image.height) pixels is beyond 32-bit sizes")
    }
    guard image.width >= AprilTagShim.minimumDetectionSide, image.height >= AprilTagShim.minimumDetectionSide else {
        throw .imageTooSmall(width: image.width, height: image.height, minimum: AprilTagShim.minimumDetectionSide)
    }
    try image.withUnsafeBytes { (raw) throws(DetectionError) in
        var pixels = shim_pixels(
            data: raw.baseAddress, width: width, height: height, row_stride: image.rowStride,
            format: image.format.shimFormat)
        try body(&pixels)
    }
}

/// A tag's four corners from the shim's x0, y0 ... x3, y3.
private func imagePoints(_ coordinates: (Double, Double, Double, Double, Double, Double, Double, Double)) -> [ImagePoint] {
    var coordinates = coordinates
    return withUnsafeBytes(of: &coordinates) { raw in
        let values = raw.bindMemory(to: Double.self)
        return (0..<4).map { ImagePoint(x: values[2 * $0], y: values[2 * $0 + 1]) }
    }
}

/// One tag as libapriltag found it (corners in OpenCV's order and pixel convention).
struct FoundTag {
    let id: Int
    let corners: [ImagePoint]
    /// For AprilGrid tags: whether each corner settled on its X-junction.
    let cornerRefined: [Bool]
}

enum AprilTagShim {
    /// The smallest width and height the shim detects in.
    static var minimumDetectionSide: Int { Int(atag_minimum_side) }

    /// The file libapriltag was loaded from, symbolic links resolved (atag_library_get).
    static func libraryPath() throws(DetectionError) -> String {
        var library = atag_library()
        try check { atag_library_get(&library, $0) }
        return withUnsafeBytes(of: &library.path) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    /// The family's code count as libapriltag reports it (atag_family_info_get).
    static func codeCount(of family: AprilTagFamily) throws(DetectionError) -> Int {
        var info = atag_family_info()
        try check { atag_family_info_get(shimFamily(family), &info, $0) }
        return Int(info.code_count)
    }

    /// One tag's cells, row by row from the top, 0 black and 255 white (atag_tag_cells_get).
    static func cells(of family: AprilTagFamily, id: Int, borderCells: Int) throws(DetectionError)
        -> (side: Int, cells: [UInt8])
    {
        var cells = [UInt8](repeating: 255, count: 16 * 16)
        var side: Int32 = 0
        try check { error in
            cells.withUnsafeMutableBufferPointer {
                atag_tag_cells_get(
                    shimFamily(family), Int32(clamping: id), Int32(clamping: borderCells), $0.baseAddress, $0.count, &side,
                    error)
            }
        }
        return (Int(side), Array(cells.prefix(Int(side) * Int(side))))
    }
}

/// Owns one libapriltag detector pool (atag_detector).
///
/// @unchecked Sendable: atag_detector_detect may be called on one detector from any number of
/// threads at once (it lends each call its own libapriltag detector, under a lock), and nothing
/// else changes it after atag_detector_create.
final class AprilTagHandle: @unchecked Sendable {
    private let detector: OpaquePointer

    /// Makes the detector (atag_detector_create).
    ///
    /// - Parameters:
    ///   - family: The tag family.
    ///   - options: libapriltag's options.
    ///   - grid: For an AprilGrid: its two-cell borders, corner refinement and ids to keep.
    init(family: AprilTagFamily, options: AprilTagOptions, grid: AprilGrid?) throws(DetectionError) {
        var settings = atag_detector_options()
        atag_detector_options_init(&settings, shimFamily(family))
        settings.decimate = Float(options.decimate ?? 0)
        settings.decimate_from_side = Int32(AprilTagOptions.decimateFromSide)
        settings.sigma = Float(options.sigma)
        settings.refine_edges = options.refineEdges ? 1 : 0
        if let grid {
            settings.border_cells = Int32(AprilGrid.borderCells)
            settings.grid_spacing = Float(grid.tagSpacing)
            settings.first_id = Int32(clamping: grid.firstTag)
            settings.id_count = Int32(clamping: grid.tagCount)
        }
        var detector: OpaquePointer?
        try check { atag_detector_create(&settings, &detector, $0) }
        guard let detector else { throw .internalError(reason: "atag_detector_create returned no detector") }
        self.detector = detector
    }

    deinit { atag_detector_free(detector) }

    /// Detects tags in `image`, read in place (atag_detector_detect), on the calling thread.
    func detect(_ image: PixelBuffer) throws(DetectionError) -> (tags: [FoundTag], sharpness: Double?) {
        var found: UnsafeMutablePointer<atag_tags>?
        try withTagPixels(image) { (pixels) throws(DetectionError) in
            try check { atag_detector_detect(detector, pixels, &found, $0) }
        }
        guard let found else { throw .internalError(reason: "atag_detector_detect returned no tags") }
        defer { atag_tags_free(found) }
        let tags = UnsafeBufferPointer(start: found.pointee.tags, count: found.pointee.count).map { tag in
            var refined = tag.corner_refined
            let corners = imagePoints(tag.corners)
            let cornerRefined = withUnsafeBytes(of: &refined) { raw in raw.bindMemory(to: Int32.self).map { $0 != 0 } }
            return FoundTag(id: Int(tag.id), corners: corners, cornerRefined: cornerRefined)
        }
        return (tags, found.pointee.has_sharpness != 0 ? found.pointee.sharpness : nil)
    }
}

/// One tag an identifier found: its family, its border (1, or Kalibr's 2) and what libapriltag read.
struct IdentifiedTag {
    let family: AprilTagFamily
    let borderCells: Int
    let id: Int
    let corners: [ImagePoint]
}

/// Owns one libapriltag identifier (atag_identifier): every family at once, with both borders.
///
/// @unchecked Sendable: atag_identifier_detect lends each call its own pair of libapriltag
/// detectors under a lock, and nothing else changes the identifier after atag_identifier_create.
final class TagIdentifierHandle: @unchecked Sendable {
    private let identifier: OpaquePointer

    /// Makes the identifier and its families' lookup tables (atag_identifier_create).
    init() throws(DetectionError) {
        var identifier: OpaquePointer?
        try check { atag_identifier_create(&identifier, $0) }
        guard let identifier else { throw .internalError(reason: "atag_identifier_create returned no identifier") }
        self.identifier = identifier
    }

    deinit { atag_identifier_free(identifier) }

    /// Tags of every family in `image`, read in place (atag_identifier_detect).
    func detect(_ image: PixelBuffer) throws(DetectionError) -> [IdentifiedTag] {
        var found: UnsafeMutablePointer<atag_identified_tags>?
        try withTagPixels(image) { (pixels) throws(DetectionError) in
            try check { atag_identifier_detect(identifier, pixels, &found, $0) }
        }
        guard let found else { throw .internalError(reason: "atag_identifier_detect returned no tags") }
        defer { atag_identified_tags_free(found) }
        return UnsafeBufferPointer(start: found.pointee.tags, count: found.pointee.count).compactMap { tag in
            guard let family = AprilTagFamily.allCases.first(where: { shimFamily($0) == tag.family }) else { return nil }
            return IdentifiedTag(
                family: family, borderCells: Int(tag.border_cells), id: Int(tag.id), corners: imagePoints(tag.corners))
        }
    }
}
