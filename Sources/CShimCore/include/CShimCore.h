/*
 * shim: the convention every C shim of the package follows (COpenCVShim, CCalibrationShim,
 * CPreviewShim, CAprilTagShim), defined once: one status, one error record, one pixel description.
 *
 * - Every shim function returns a shim_status and writes results through out-parameters. When it
 *   fails and `error` is not NULL, `*error` says why: the status, the shim it came from, errno
 *   where a system call failed, the offending size where a size was refused, and a readable
 *   message. No C++ exception leaves a call (shim_guard.hpp turns them into statuses).
 * - The enums are closed: Swift imports them as enums of its own, so that a switch over one names
 *   every case and stops compiling when a case is added.
 */
#ifndef C_SHIM_CORE_H
#define C_SHIM_CORE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__clang__)
#define SHIM_CLOSED_ENUM __attribute__((enum_extensibility(closed)))
#else
#define SHIM_CLOSED_ENUM
#endif

/* MARK: - Status */

typedef enum SHIM_CLOSED_ENUM shim_status {
    SHIM_STATUS_OK = 0,

    /* Generic: any shim may return these. */

    /* A NULL pointer, impossible sizes or an out-of-range value. */
    SHIM_STATUS_INVALID_ARGUMENT = 1,
    /* Memory ran out (std::bad_alloc, or malloc returned NULL). */
    SHIM_STATUS_OUT_OF_MEMORY = 2,
    /* The library under the shim failed (OpenCV raised cv::Exception). */
    SHIM_STATUS_LIBRARY_ERROR = 3,
    /* Any other C++ exception, or a state the shim did not expect. */
    SHIM_STATUS_INTERNAL_ERROR = 4,
    /* A file could not be opened, read or written; error->system_errno says why. */
    SHIM_STATUS_IO = 5,

    /* Image files (COpenCVShim). */

    /* An image file or buffer with no bytes. */
    SHIM_STATUS_EMPTY_INPUT = 6,
    /* The bytes are not a JPEG, PNG, BMP or TIFF image. */
    SHIM_STATUS_UNRECOGNIZED_FORMAT = 7,
    /* The image data ends before the image does. */
    SHIM_STATUS_TRUNCATED = 8,
    /* The header claims more pixels than allowed; error->width and error->height hold the claim. */
    SHIM_STATUS_TOO_MANY_PIXELS = 9,
    /* The codec could not decode the image. */
    SHIM_STATUS_DECODE_FAILED = 10,
    /* The codec could not encode the image. */
    SHIM_STATUS_ENCODE_FAILED = 11,
    /* The path names a FIFO, device, directory or socket, not a regular file; nothing was read.
     * error->message holds only the kind of file ("FIFO", "directory", ...). */
    SHIM_STATUS_NOT_REGULAR_FILE = 12,
    /* The file is larger than the limit for its kind; error->file_bytes holds its size. */
    SHIM_STATUS_FILE_TOO_LARGE = 13,

    /* Detection (COpenCVShim, CAprilTagShim). */

    /* A dictionary file that OpenCV cannot read as a marker dictionary. */
    SHIM_STATUS_INVALID_DICTIONARY = 14,
    /* An image smaller than a detector can use; error->width and error->height hold its size. */
    SHIM_STATUS_IMAGE_TOO_SMALL = 15,

    /* The preview window (CPreviewShim). */

    /* DISPLAY is not set, or the X server it names cannot be connected to. */
    SHIM_STATUS_NO_DISPLAY = 16,
} shim_status;

/* Which shim filled an error record. */
typedef enum SHIM_CLOSED_ENUM shim_area {
    /* No shim has written the record yet. */
    SHIM_AREA_NONE = 0,
    /* COpenCVShim: image files, dictionaries, detection, drawing (OpenCV). */
    SHIM_AREA_DETECTION,
    /* CCalibrationShim: calibration, projection, undistortion, drawing (OpenCV). */
    SHIM_AREA_CALIBRATION,
    /* CPreviewShim: the preview window (OpenCV highgui, Xlib). */
    SHIM_AREA_PREVIEW,
    /* CAprilTagShim: tag families and detection (libapriltag). */
    SHIM_AREA_APRILTAG,
    /* CBayerShim: the Bayer mosaics of recorded camera images (OpenCV). */
    SHIM_AREA_BAYER,
} shim_area;

/* MARK: - Error record */

typedef struct shim_error {
    shim_status status;
    shim_area area;
    /* errno of the failed system call for SHIM_STATUS_IO, otherwise 0. */
    int system_errno;
    /* The image size refused for SHIM_STATUS_TOO_MANY_PIXELS and SHIM_STATUS_IMAGE_TOO_SMALL,
     * otherwise 0. */
    int64_t width;
    int64_t height;
    /* The size of the file refused for SHIM_STATUS_FILE_TOO_LARGE, otherwise 0. */
    int64_t file_bytes;
    /* NUL-terminated, readable by a person. */
    char message[512];
} shim_error;

/* Fills `*error` (when not NULL) with `status`, `area`, no errno or sizes, and the message
 * `format` makes (as printf does, cut to fit); returns `status`. */
shim_status shim_error_set(shim_error *error, shim_area area, shim_status status, const char *format, ...)
    __attribute__((format(printf, 4, 5)));

/* Marks `*error` (when not NULL) as a success of `area`; returns SHIM_STATUS_OK. */
shim_status shim_error_clear(shim_error *error, shim_area area);

/* MARK: - Pixels */

typedef enum SHIM_CLOSED_ENUM shim_pixel_format {
    /* One byte a pixel. */
    SHIM_PIXEL_FORMAT_GRAY8 = 0,
    /* Three bytes a pixel: blue, green, red. */
    SHIM_PIXEL_FORMAT_BGR24,
    /* Three bytes a pixel: red, green, blue. */
    SHIM_PIXEL_FORMAT_RGB24,
    /* Two bytes a pixel, two pixels sharing their chroma (Y0 U Y1 V); the width is even. */
    SHIM_PIXEL_FORMAT_YUYV,
} shim_pixel_format;

/* Pixels someone else owns: `height` rows of `row_stride` bytes from `data`. A shim that writes
 * into pixels (drawing, undistortion) says so; all others only read them. */
typedef struct shim_pixels {
    const void *data;
    int32_t width;
    int32_t height;
    size_t row_stride;
    shim_pixel_format format;
} shim_pixels;

/* The bytes one pixel of `format` takes (YUYV: 2); 0 for a value that is no format. */
int32_t shim_pixel_format_bytes(shim_pixel_format format);

#ifdef __cplusplus
}
#endif

#endif /* C_SHIM_CORE_H */
