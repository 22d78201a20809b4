/*
 * msd: marker-shutter detection, a C interface over OpenCV 4.6 (core, imgproc, calib3d and the
 * contrib aruco module), libjpeg and libpng (image files; OpenCV's imgcodecs is loaded for BMP and
 * TIFF files alone).
 *
 * Conventions:
 * - Every function returns a shim_status and writes results through out-parameters. When it fails
 *   and `error` is not NULL, `*error` says why (status, errno where a system call failed, the
 *   offending size where one is involved, and a readable message). No C++ exception leaves a call.
 * - Handles are opaque and typed. Each `_create`, `_read`, `_decode`, `_render`, `_annotate`,
 *   `_encode` and `_detect` result is freed with the matching `_free`, which accepts NULL.
 * - A detector is immutable after it is created: several threads may call msd_detector_detect on
 *   the same detector at once.
 * - Coordinates are OpenCV's: x to the right, y down, the centre of the top-left pixel at (0, 0).
 */
#ifndef C_OPENCV_SHIM_H
#define C_OPENCV_SHIM_H

#include <stddef.h>
#include <stdint.h>

#include "CShimCore.h"

#ifdef __cplusplus
extern "C" {
#endif

/* MARK: - Limits on input, checked before OpenCV sees it */

/* Image files larger than this (256 MiB) are refused before their bytes are read. */
#define MSD_IMAGE_FILE_MAX_BYTES 268435456
/* A JPEG of more scans than this is refused before it is decoded: each scan is a pass over the
 * whole image, so a small file of thousands of scans would take minutes (a baseline JPEG has one
 * scan, a progressive one about ten). */
#define MSD_JPEG_MAX_SCANS 100
/* Dictionary files larger than this (4 MiB) are refused before they are parsed. */
#define MSD_DICTIONARY_FILE_MAX_BYTES 4194304
/* A dictionary's markers have 2 to 16 bits a side ... */
#define MSD_DICTIONARY_MIN_MARKER_SIDE 2
#define MSD_DICTIONARY_MAX_MARKER_SIDE 16
/* ... and it holds 1 to 10000 markers (OpenCV's largest predefined one holds 2320). */
#define MSD_DICTIONARY_MAX_MARKERS 10000
/* Printable targets are drawn at most 16384 pixels wide and high. */
#define MSD_RENDER_MAX_SIDE 16384
/* Board lengths (any unit) lie within 1e-6 ... 1e6 times each other and within 1e-30 ... 1e30, so
 * that OpenCV's 32-bit floats hold them and their products. */
#define MSD_LENGTH_MIN 1e-30
#define MSD_LENGTH_MAX 1e30
#define MSD_LENGTH_MAX_RATIO 1e6

/* MARK: - Pixels */

/* An image whose pixels the shim owns (decoded, rendered or annotated). */
typedef struct msd_image msd_image;

/* Where an msd_image's pixels are; valid until msd_image_free. */
shim_status msd_image_pixels_get(const msd_image *image, shim_pixels *pixels, shim_error *error);
void msd_image_free(msd_image *image);

/* MARK: - Image files */

typedef enum SHIM_CLOSED_ENUM msd_file_format {
    MSD_FILE_FORMAT_JPEG = 0,
    MSD_FILE_FORMAT_PNG = 1,
    MSD_FILE_FORMAT_BMP = 2,
    MSD_FILE_FORMAT_TIFF = 3,
} msd_file_format;

/* What an image file's header says, read without decoding the pixels. */
typedef struct msd_image_header {
    msd_file_format format;
    int64_t width;
    int64_t height;
} msd_image_header;

/* Reads the header of a JPEG, PNG, BMP or TIFF image in memory. */
shim_status msd_image_header_read(const uint8_t *bytes, size_t count, msd_image_header *header,
                                 shim_error *error);

/* Decodes a JPEG, PNG, BMP or TIFF image into BGR24 pixels, after checking from its header that it
 * has at most `max_pixels` pixels. A JPEG whose data stops before its end-of-image marker counts
 * as truncated; one of more than MSD_JPEG_MAX_SCANS scans is refused (SHIM_STATUS_DECODE_FAILED)
 * before any is decoded. A JPEG is turned as its Exif orientation says, as imdecode turns it.
 * Every JPEG (gray, YCbCr, CMYK or YCCK) is decoded by the shim's own libjpeg path, whose warnings
 * (corrupt data it decodes past) are not printed; one of another number of colour components is
 * refused (SHIM_STATUS_DECODE_FAILED). */
shim_status msd_image_decode(const uint8_t *bytes, size_t count, int64_t max_pixels, msd_image **image,
                            shim_error *error);

/* Reads a regular file of at most MSD_IMAGE_FILE_MAX_BYTES and decodes it as msd_image_decode
 * does. A FIFO, device, directory or socket is refused without being read (so never waited on);
 * the header is checked against `max_pixels` before the rest of the file is read. */
shim_status msd_image_read(const char *path, int64_t max_pixels, msd_image **image, shim_error *error);

/* What a decoded image holds. */
typedef enum msd_image_channels {
    /* BGR24, as msd_image_decode and msd_image_read give. */
    MSD_IMAGE_CHANNELS_BGR = 0,
    /* GRAY8: a JPEG's own luma (libjpeg skips the chroma and the colour conversion, about a third
     * of the work of decoding 720p frames; a CMYK or YCCK one's the luma of its colours); other
     * formats as imdecode's IMREAD_GRAYSCALE gives them. */
    MSD_IMAGE_CHANNELS_GRAY = 1,
} msd_image_channels;

/* msd_image_decode and msd_image_read, giving the pixels as `channels` says. */
shim_status msd_image_decode_as(const uint8_t *bytes, size_t count, int64_t max_pixels, msd_image_channels channels,
                               msd_image **image, shim_error *error);
shim_status msd_image_read_as(const char *path, int64_t max_pixels, msd_image_channels channels, msd_image **image,
                             shim_error *error);

/* Encoded file bytes owned by the shim. */
typedef struct msd_bytes msd_bytes;

shim_status msd_bytes_get(const msd_bytes *bytes, const uint8_t **data, size_t *count, shim_error *error);
void msd_bytes_free(msd_bytes *bytes);

/* Encodes pixels as PNG or JPEG (`jpeg_quality` 0...100, ignored for PNG). */
shim_status msd_image_encode(const shim_pixels *pixels, msd_file_format format, int32_t jpeg_quality,
                            msd_bytes **bytes, shim_error *error);

/* MARK: - Dictionaries */

/* OpenCV's predefined dictionaries, numbered as cv::aruco::PREDEFINED_DICTIONARY_NAME. */
typedef enum msd_predefined_dictionary {
    MSD_DICT_4X4_50 = 0,
    MSD_DICT_4X4_100,
    MSD_DICT_4X4_250,
    MSD_DICT_4X4_1000,
    MSD_DICT_5X5_50,
    MSD_DICT_5X5_100,
    MSD_DICT_5X5_250,
    MSD_DICT_5X5_1000,
    MSD_DICT_6X6_50,
    MSD_DICT_6X6_100,
    MSD_DICT_6X6_250,
    MSD_DICT_6X6_1000,
    MSD_DICT_7X7_50,
    MSD_DICT_7X7_100,
    MSD_DICT_7X7_250,
    MSD_DICT_7X7_1000,
    MSD_DICT_ARUCO_ORIGINAL,
    MSD_DICT_APRILTAG_16h5,
    MSD_DICT_APRILTAG_25h9,
    MSD_DICT_APRILTAG_36h10,
    MSD_DICT_APRILTAG_36h11,
} msd_predefined_dictionary;

typedef struct msd_dictionary msd_dictionary;

shim_status msd_dictionary_create_predefined(msd_predefined_dictionary name, msd_dictionary **dictionary,
                                            shim_error *error);
/* Reads a dictionary in OpenCV's FileStorage format (YAML, XML or JSON with nmarkers, markersize,
 * marker_0 ... and optionally maxCorrectionBits). The file must be a regular file of at most
 * MSD_DICTIONARY_FILE_MAX_BYTES; markersize, nmarkers and every marker's bit string are checked
 * against the limits above before OpenCV builds the dictionary. */
shim_status msd_dictionary_create_from_file(const char *path, msd_dictionary **dictionary, shim_error *error);
/* How many markers the dictionary holds and how many bits each side of a marker has. */
shim_status msd_dictionary_size_get(const msd_dictionary *dictionary, int32_t *marker_count,
                                   int32_t *bits_per_side, shim_error *error);
void msd_dictionary_free(msd_dictionary *dictionary);

/* MARK: - Patterns and detectors */

typedef enum msd_pattern_kind {
    /* Loose ArUco or AprilTag markers of one dictionary. */
    MSD_PATTERN_ARUCO = 0,
    /* An ArUco grid board: columns x rows markers, ids first_marker, first_marker + 1, ... row by row. */
    MSD_PATTERN_ARUCO_GRID = 1,
    /* A ChArUco board: columns x rows chessboard squares with markers in the white ones. */
    MSD_PATTERN_CHARUCO = 2,
    /* A chessboard of columns x rows inner corners. */
    MSD_PATTERN_CHESSBOARD = 3,
    /* A symmetric grid of columns x rows circles (dark on light), found with cv::findCirclesGrid;
     * point (column, row) lies at (column, row) x square_length, its id row * columns + column. */
    MSD_PATTERN_CIRCLES = 4,
    /* OpenCV's asymmetric circle grid: rows of `columns` circles, every other row shifted by half
     * the spacing within a row; point (column, row) lies at ((2 column + row % 2), row) x
     * square_length, its id row * columns + column (OpenCV's order). */
    MSD_PATTERN_ACIRCLES = 5,
} msd_pattern_kind;

typedef struct msd_pattern {
    msd_pattern_kind kind;
    int32_t columns;
    int32_t rows;
    /* ChArUco: square side; circle grids: the spacing (the distance between neighbouring rows);
     * grid board: unused. Any unit, only ratios matter. */
    double square_length;
    /* ChArUco and grid board: marker side. */
    double marker_length;
    /* Grid board: the gap between neighbouring markers. */
    double marker_separation;
    /* Grid board: the id of the top-left marker. */
    int32_t first_marker;
    /* ChArUco with an even number of rows: nonzero puts the markers where OpenCV before 4.6 put
     * them (a marker in the top-left square). Corner ids are numbered the same in both layouts. */
    int32_t legacy_layout;
} msd_pattern;

typedef struct msd_detector msd_detector;

/* Makes a detector for `pattern`. `dictionary` is needed for every kind but the chessboard, and
 * may be freed once this returns. */
shim_status msd_detector_create(const msd_pattern *pattern, const msd_dictionary *dictionary,
                               msd_detector **detector, shim_error *error);
void msd_detector_free(msd_detector *detector);

/* The result of one detection. */
typedef struct msd_detection msd_detection;

/* Detects the pattern in `pixels`, read in place. Images smaller than 16x16 are refused. */
shim_status msd_detector_detect(const msd_detector *detector, const shim_pixels *pixels,
                               msd_detection **detection, shim_error *error);

/* How msd_detector_detect_with searches an image. */
typedef enum msd_detect_mode {
    /* OpenCV's own detection on every pixel of the image (what msd_detector_detect does). */
    MSD_DETECT_FULL = 0,
    /* Markers and boards are first looked for in a downscaled copy of the image, at a scale chosen
     * from the image size and the size of the pattern's markers (or squares), and their corners
     * refined on the full-resolution image (sub-pixel). When the downscaled pass does not account
     * for the whole board (a board marker it did not find would lie inside the image, or nothing
     * was found), it is tried again at twice the scale while that is at most 0.8, and then the
     * full-resolution detection runs instead, so nothing full mode finds is lost.
     * Loose markers (no board layout to check against) and images too small to shrink are
     * detected as in full mode. */
    MSD_DETECT_FAST = 1,
} msd_detect_mode;

typedef struct msd_detect_options {
    msd_detect_mode mode;
    /* Where to search, in pixels of the image: only this rectangle is looked at, and results are
     * given in the whole image's coordinates. width or height 0 searches the whole image. A
     * rectangle is clipped to the image; one that misses it entirely is refused. */
    int32_t region_x;
    int32_t region_y;
    int32_t region_width;
    int32_t region_height;
    /* In fast mode, nonzero: when the downscaled passes ran and none accounts for the whole board,
     * give the largest part of the board they found (or nothing) instead of searching at full
     * resolution. For live video, where a full-resolution search of a large frame takes longer than
     * a frame interval. Images fast mode does not shrink, and full mode, are searched as always. */
    int32_t downscaled_only;
    /* With downscaled_only: 0 runs the downscaled passes in turn, smallest first, until one
     * accounts for the board; k > 0 runs only the k-th pass (counted from 1, wrapping around the
     * number of passes the image takes), so that a live search can spread the passes over frames
     * while no board is in view. */
    int32_t downscaled_pass;
    /* In fast mode, for a whole-image search that is not downscaled_only, nonzero `hint` says the
     * image is a frame of a video and the hint_ fields describe the frame before:
     * - hint_feature_side > 0: the side, in pixels, of the markers (or chessboard squares) last
     *   seen; the downscaled passes start at the scale that size calls for instead of the one a
     *   typical board would.
     * - A rectangle (hint_width and hint_height > 0, in the image's pixels): where the board was.
     *   It is searched first, and its result is given when it accounts for the board in the whole
     *   image (every board marker it did not find would lie outside the image, or inside the
     *   rectangle, where it was looked for); otherwise the whole image is searched.
     * - No rectangle: the frame before showed no board. The image is searched at full resolution
     *   straight away: while nothing is in view the downscaled passes would run on every frame in
     *   vain, and would save time only on the frame where a board comes back. A chessboard is
     *   looked for by the passes all the same (a few milliseconds where there is none, against up
     *   to half a second at full resolution on the frame where one comes back).
     * What is found is what a search without the hint finds, but for one case: with two copies of
     * one board in view, a search that accounts for the board in the rectangle keeps to the copy
     * there. */
    int32_t hint;
    int32_t hint_x;
    int32_t hint_y;
    int32_t hint_width;
    int32_t hint_height;
    double hint_feature_side;
} msd_detect_options;

/* Detects as msd_detector_detect does, searching as `options` say (NULL: full mode, whole image). */
shim_status msd_detector_detect_with(const msd_detector *detector, const shim_pixels *pixels,
                                    const msd_detect_options *options, msd_detection **detection,
                                    shim_error *error);

/* The working scale fast mode uses for a width x height image (1 when it does not shrink it). */
shim_status msd_detector_fast_scale_get(const msd_detector *detector, int32_t width, int32_t height,
                                       double *scale, shim_error *error);

/* The arrays stay valid until msd_detection_free. Marker corners are 8 floats per marker (x0, y0 ...
 * x3, y3, clockwise from the marker's top-left); board corners are 2 floats each. `has_sharpness`
 * is 0 when nothing was found and `sharpness` is then 0. */
typedef struct msd_detection_view {
    size_t marker_count;
    const int32_t *marker_ids;
    const float *marker_corners;
    size_t corner_count;
    const int32_t *corner_ids;
    const float *corner_points;
    int32_t has_sharpness;
    double sharpness;
} msd_detection_view;

shim_status msd_detection_view_get(const msd_detection *detection, msd_detection_view *view, shim_error *error);
void msd_detection_free(msd_detection *detection);

/* Draws the detector's pattern as a printable target: black on white, centred in a width x height
 * gray image (each side 1...MSD_RENDER_MAX_SIDE) with at least `margin` white pixels on every side.
 * Loose markers cannot be drawn. */
shim_status msd_detector_render(const msd_detector *detector, int32_t width, int32_t height, int32_t margin,
                               msd_image **image, shim_error *error);

/* MARK: - Annotation */

typedef struct msd_annotation {
    /* What to draw, laid out as msd_detection_view_get gives it (has_sharpness and sharpness unused). */
    msd_detection_view detection;
    /* ASCII text for the status badge in the top-left corner; NULL draws no badge. */
    const char *badge_text;
    /* Nonzero draws the badge green, zero red. */
    int32_t badge_ok;
} msd_annotation;

/* Draws markers with their ids, board corners with theirs and the badge on a BGR24 copy of `pixels`. */
shim_status msd_image_annotate(const shim_pixels *pixels, const msd_annotation *annotation, msd_image **image,
                              shim_error *error);

/* MARK: - Identifying a target */

/* The code sets markers are read with when a target is identified: OpenCV's predefined
 * dictionaries, the largest of each nest (DICT_4X4_50 is the first 50 codes of DICT_4X4_1000, and so
 * on for every size), numbered as msd_predefined_dictionary. Tags found by other means (libapriltag)
 * take code sets from MSD_CODE_SET_EXTERNAL up. */
#define MSD_CODE_SET_EXTERNAL 1000

/* A marker found by its code, whatever target it belongs to: its code set, its id there, and its
 * four corners clockwise from its own top-left (as printed), x0, y0 ... x3, y3. */
typedef struct msd_coded_marker {
    int32_t code_set;
    int32_t id;
    float corners[8];
} msd_coded_marker;

typedef enum SHIM_CLOSED_ENUM msd_layout_kind {
    /* Markers of one code set that form no board layout. */
    MSD_LAYOUT_LOOSE = 0,
    /* Markers in rows and columns, ids counting along the rows from the first (an ArUco grid
     * board counts its rows from the top, Kalibr's AprilGrid from the bottom: ids_up). */
    MSD_LAYOUT_GRID = 1,
    /* Markers in the white squares of a chessboard, ids row by row from the top-left square. */
    MSD_LAYOUT_CHARUCO = 2,
    /* A chessboard of dark and light squares (columns x rows inner corners). */
    MSD_LAYOUT_CHESSBOARD = 3,
    /* A symmetric circle grid (columns x rows circles). */
    MSD_LAYOUT_CIRCLES = 4,
    /* OpenCV's asymmetric circle grid (rows of `columns` circles). */
    MSD_LAYOUT_ACIRCLES = 5,
} msd_layout_kind;

/* A target one image shows, as far as that image tells it. */
typedef struct msd_layout {
    msd_layout_kind kind;
    /* The markers' code set; -1 for chessboards and circle grids. */
    int32_t code_set;
    /* Markers (or chessboard squares, or circles) that fit the layout. */
    int32_t features;
    /* The smallest and largest id of those markers. */
    int32_t min_id;
    int32_t max_id;
    /* Markers (chessboard corners, circles) across: 0 when the image does not tell (a chessboard or
     * circle grid not seen whole: its kind alone is told). */
    int32_t columns;
    /* Rows: 0 when the image does not show where the board ends (then min_rows is how many it
     * has at least). */
    int32_t rows;
    int32_t min_rows;
    /* Grids: the id of the first marker, or -1 when the image does not tell. */
    int32_t first_id;
    /* Grids: nonzero when ids count rows from the bottom of the board, as Kalibr's AprilGrid does. */
    int32_t ids_up;
    /* ChArUco: nonzero when the top-left square holds a marker (OpenCV before 4.6 on boards of an
     * even number of rows; every board of an odd number of rows). */
    int32_t marker_at_origin;
    /* ChArUco: a marker's side over a square's; grids: the gap between markers over a marker's
     * side; 0 when not measured. */
    double ratio;
    /* Nonzero when the board's columns run more across the image than down it. */
    int32_t columns_across;
    /* Root mean square distance, in pixels, of the markers' corners (or the points) from where one
     * homography of the layout puts them. */
    double error;
} msd_layout;

typedef struct msd_identification msd_identification;

typedef struct msd_identify_options {
    /* Nonzero: read markers of every predefined dictionary in the image; zero: use the `extra`
     * markers alone (those a call before read, say, with the caller's). */
    int32_t read_markers;
    /* Nonzero: look for chessboards and circle grids too, when no markers form a board. */
    int32_t plain_boards;
} msd_identify_options;

/* Finds what target `pixels` shows: with options->read_markers, markers of every predefined
 * dictionary (each read by its code alone, at most one code set a marker), plus the `extra` markers
 * given (libapriltag's tags), each with its edges settled on the image, grouped by code set and
 * fitted to the layouts above; and with options->plain_boards, chessboards and circle grids, each
 * counted from its squares or circles and confirmed with cv::findChessboardCorners or
 * cv::findCirclesGrid. NULL options read markers and look for nothing else. */
shim_status msd_identify(const shim_pixels *pixels, const msd_coded_marker *extra, size_t extra_count,
                        const msd_identify_options *options, msd_identification **identification, shim_error *error);

/* What msd_identify found, valid until msd_identification_free: every layout (the best one of each
 * code set, the plain boards) and every marker it read. */
typedef struct msd_identification_view {
    size_t layout_count;
    const msd_layout *layouts;
    size_t marker_count;
    const msd_coded_marker *markers;
} msd_identification_view;

shim_status msd_identification_view_get(const msd_identification *identification, msd_identification_view *view,
                                       shim_error *error);
void msd_identification_free(msd_identification *identification);

/* MARK: - Threads */

/* OpenCV's worker thread count for its internal parallel loops (cv::setNumThreads); process-wide.
 * A count above the cores (cv::getNumberOfCPUs) sets one per core. */
shim_status msd_threads_set(int32_t count, shim_error *error);
shim_status msd_threads_get(int32_t *count, shim_error *error);

/* MARK: - Version */

/* The OpenCV this process runs with and the one the shim was compiled against, NUL-terminated. */
typedef struct msd_opencv_version {
    /* cv::getVersionString(): the library loaded at run time, e.g. "4.6.0". */
    char running[64];
    /* CV_VERSION from the headers the shim was compiled with. */
    char built[64];
} msd_opencv_version;

shim_status msd_opencv_version_get(msd_opencv_version *version, shim_error *error);

#ifdef __cplusplus
}
#endif

#endif /* C_OPENCV_SHIM_H */
