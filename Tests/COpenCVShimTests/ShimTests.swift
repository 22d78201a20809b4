import COpenCVShim
import CShimCore
import Foundation
import Testing

/// The C interface on its own: statuses, messages and the out-parameters for good and bad input.
/// These tests also run under valgrind (see BENCHMARKS.md), so every handle they make is freed.
@Suite struct ShimTests {
    static let images: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("shared/images").path
    }()

    func message(_ error: shim_error) -> String {
        var text = error.message
        return withUnsafeBytes(of: &text) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    func decode(_ bytes: [UInt8], limit: Int64 = 40_000_000) -> (shim_status, shim_error) {
        var image: OpaquePointer?
        var error = shim_error()
        let status = bytes.withUnsafeBufferPointer { msd_image_decode($0.baseAddress, $0.count, limit, &image, &error) }
        msd_image_free(image)
        return (status, error)
    }

    /// A PNG signature and IHDR chunk claiming `width` x `height` pixels, with no pixel data.
    static func pngHeader(width: UInt32, height: UInt32) -> [UInt8] {
        func big(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + big(13) + Array("IHDR".utf8) + big(width)
            + big(height) + [8, 0, 0, 0, 0] + [0, 0, 0, 0]
    }

    @Test func strideSmallerThanARowIsRefused() {
        let bytes = [UInt8](repeating: 0, count: 64)
        var detector: OpaquePointer?
        var pattern = msd_pattern()
        pattern.kind = MSD_PATTERN_CHESSBOARD
        pattern.columns = 9
        pattern.rows = 6
        #expect(msd_detector_create(&pattern, nil, &detector, nil) == .SHIM_STATUS_OK)
        defer { msd_detector_free(detector) }
        var detection: OpaquePointer?
        var error = shim_error()
        let status = bytes.withUnsafeBytes { raw in
            var pixels = shim_pixels(data: raw.baseAddress, width: 8, height: 4, row_stride: 6, format: .SHIM_PIXEL_FORMAT_GRAY8)
            return msd_detector_detect(detector, &pixels, &detection, &error)
        }
        #expect(status == .SHIM_STATUS_INVALID_ARGUMENT)
        #expect(error.status == .SHIM_STATUS_INVALID_ARGUMENT)
        #expect(message(error) == "row stride 6 is smaller than one row of 8 pixels (8 bytes)")
        #expect(detection == nil)
    }

    @Test func nullArgumentsAreRefusedNotDereferenced() {
        var error = shim_error()
        #expect(msd_detector_detect(nil, nil, nil, &error) == .SHIM_STATUS_INVALID_ARGUMENT)
        #expect(message(error) == "detector is NULL")
        var pixels = shim_pixels(data: nil, width: 4, height: 4, row_stride: 4, format: .SHIM_PIXEL_FORMAT_GRAY8)
        var encoded: OpaquePointer?
        #expect(msd_image_encode(&pixels, .MSD_FILE_FORMAT_PNG, 0, &encoded, &error) == .SHIM_STATUS_INVALID_ARGUMENT)
        #expect(message(error) == "pixels->data is NULL")
        #expect(encoded == nil)
        // Freeing NULL is allowed.
        msd_image_free(nil)
        msd_detector_free(nil)
        msd_detection_free(nil)
        msd_dictionary_free(nil)
        msd_bytes_free(nil)
    }

    @Test func badImageBytesGetTheirOwnStatus() throws {
        #expect(decode([]).0 == .SHIM_STATUS_EMPTY_INPUT)
        #expect(decode(Array("just some text\n".utf8)).0 == .SHIM_STATUS_UNRECOGNIZED_FORMAT)
        let jpeg = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.images + "/aruco/singlemarkers.jpg")))
        #expect(decode(Array(jpeg.prefix(jpeg.count / 2))).0 == .SHIM_STATUS_TRUNCATED)
        #expect(decode(Array(jpeg.prefix(100))).0 == .SHIM_STATUS_TRUNCATED)
        let (status, error) = decode(Self.pngHeader(width: 100_000, height: 100_000))
        #expect(status == .SHIM_STATUS_TOO_MANY_PIXELS)
        #expect(error.width == 100_000 && error.height == 100_000)
        #expect(message(error) == "image of 100000x100000 pixels exceeds the limit of 40000000 pixels")
    }

    @Test func headerIsReadWithoutDecoding() {
        var header = msd_image_header()
        let bytes = Self.pngHeader(width: 100_000, height: 3)
        let status = bytes.withUnsafeBufferPointer { msd_image_header_read($0.baseAddress, $0.count, &header, nil) }
        #expect(status == .SHIM_STATUS_OK)
        #expect(header.format == .MSD_FILE_FORMAT_PNG && header.width == 100_000 && header.height == 3)
    }

    @Test func unknownImageChannelsAreRefusedBeforeReading() {
        var image: OpaquePointer?
        var error = shim_error()
        // Refused for what was asked, not for the file that is not there.
        #expect(msd_image_read_as("/nonexistent/frame.png", 1000, msd_image_channels(rawValue: 7), &image, &error)
            == .SHIM_STATUS_INVALID_ARGUMENT)
        #expect(message(error) == "unknown image channels 7 (0 BGR, 1 gray)")
        #expect(image == nil)
    }

    @Test func missingFilesReportErrno() {
        var image: OpaquePointer?
        var error = shim_error()
        #expect(msd_image_read("/nonexistent/frame.png", 1000, &image, &error) == .SHIM_STATUS_IO)
        #expect(error.system_errno == ENOENT)
        #expect(image == nil)
        var dictionary: OpaquePointer?
        #expect(msd_dictionary_create_from_file("/nonexistent/dict.yml", &dictionary, &error) == .SHIM_STATUS_IO)
        #expect(error.system_errno == ENOENT)
        #expect(msd_dictionary_create_from_file(Self.images + "/MANIFEST.md", &dictionary, &error) == .SHIM_STATUS_INVALID_DICTIONARY)
        #expect(dictionary == nil)
    }

    @Test func impossibleBoardsAreRefused() {
        var dictionary: OpaquePointer?
        #expect(msd_dictionary_create_predefined(MSD_DICT_4X4_50, &dictionary, nil) == .SHIM_STATUS_OK)
        defer { msd_dictionary_free(dictionary) }
        var detector: OpaquePointer?
        var error = shim_error()
        var pattern = msd_pattern()
        pattern.kind = MSD_PATTERN_CHARUCO
        pattern.columns = 12
        pattern.rows = 12
        pattern.square_length = 0.04
        pattern.marker_length = 0.02
        #expect(msd_detector_create(&pattern, dictionary, &detector, &error) == .SHIM_STATUS_INVALID_ARGUMENT)
        #expect(message(error) == "the board needs markers 0...71 but the dictionary has only 50 (0...49)")
        pattern.columns = 5
        pattern.marker_length = 0.05
        #expect(msd_detector_create(&pattern, dictionary, &detector, &error) == .SHIM_STATUS_INVALID_ARGUMENT)
        #expect(detector == nil)
    }

    @Test func tinyImagesAreTooSmallToDetectIn() {
        var dictionary: OpaquePointer?
        #expect(msd_dictionary_create_predefined(MSD_DICT_6X6_250, &dictionary, nil) == .SHIM_STATUS_OK)
        defer { msd_dictionary_free(dictionary) }
        var detector: OpaquePointer?
        var pattern = msd_pattern()
        pattern.kind = MSD_PATTERN_ARUCO
        #expect(msd_detector_create(&pattern, dictionary, &detector, nil) == .SHIM_STATUS_OK)
        defer { msd_detector_free(detector) }
        var pixel: [UInt8] = [0, 0, 0]
        var detection: OpaquePointer?
        var error = shim_error()
        let status = pixel.withUnsafeMutableBytes { raw in
            var pixels = shim_pixels(data: raw.baseAddress, width: 1, height: 1, row_stride: 3, format: .SHIM_PIXEL_FORMAT_BGR24)
            return msd_detector_detect(detector, &pixels, &detection, &error)
        }
        #expect(status == .SHIM_STATUS_IMAGE_TOO_SMALL)
        #expect(error.width == 1 && error.height == 1)
        #expect(detection == nil)
    }

    /// A whole round: read a photo, detect a ChArUco board, annotate, encode, free everything.
    @Test func fullRoundTripThroughTheCInterface() throws {
        var dictionary: OpaquePointer?
        #expect(msd_dictionary_create_predefined(MSD_DICT_6X6_250, &dictionary, nil) == .SHIM_STATUS_OK)
        var pattern = msd_pattern(
            kind: MSD_PATTERN_CHARUCO, columns: 5, rows: 7, square_length: 0.04, marker_length: 0.02,
            marker_separation: 0, first_marker: 0, legacy_layout: 0)
        var detector: OpaquePointer?
        #expect(msd_detector_create(&pattern, dictionary, &detector, nil) == .SHIM_STATUS_OK)
        msd_dictionary_free(dictionary)
        defer { msd_detector_free(detector) }

        var image: OpaquePointer?
        #expect(msd_image_read(Self.images + "/charuco/board.jpg", 40_000_000, &image, nil) == .SHIM_STATUS_OK)
        defer { msd_image_free(image) }
        var pixels = shim_pixels()
        #expect(msd_image_pixels_get(image, &pixels, nil) == .SHIM_STATUS_OK)
        #expect(pixels.width == 640 && pixels.height == 480 && pixels.format == .SHIM_PIXEL_FORMAT_BGR24)

        var detection: OpaquePointer?
        #expect(msd_detector_detect(detector, &pixels, &detection, nil) == .SHIM_STATUS_OK)
        defer { msd_detection_free(detection) }
        var view = msd_detection_view()
        #expect(msd_detection_view_get(detection, &view, nil) == .SHIM_STATUS_OK)
        #expect(view.marker_count == 17 && view.corner_count == 24 && view.has_sharpness == 1)

        var annotated: OpaquePointer?
        let annotateStatus = "VALID".withCString { badge in
            var annotation = msd_annotation(detection: view, badge_text: badge, badge_ok: 1)
            return msd_image_annotate(&pixels, &annotation, &annotated, nil)
        }
        #expect(annotateStatus == .SHIM_STATUS_OK)
        defer { msd_image_free(annotated) }
        var drawn = shim_pixels()
        #expect(msd_image_pixels_get(annotated, &drawn, nil) == .SHIM_STATUS_OK)
        var encoded: OpaquePointer?
        #expect(msd_image_encode(&drawn, .MSD_FILE_FORMAT_JPEG, 90, &encoded, nil) == .SHIM_STATUS_OK)
        defer { msd_bytes_free(encoded) }
        var data: UnsafePointer<UInt8>?
        var count = 0
        #expect(msd_bytes_get(encoded, &data, &count, nil) == .SHIM_STATUS_OK)
        #expect(count > 1000 && data?[0] == 0xFF && data?[1] == 0xD8)
    }
}
